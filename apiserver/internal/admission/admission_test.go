package admission

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// fakePlugin records its calls; which phases it implements depends on the wrapper type.
type fakePlugin struct {
	name    string
	ops     []Operation
	log     *[]string
	failing map[string]error // phase → error
}

func (p *fakePlugin) Name() string { return p.name }

func (p *fakePlugin) Handles(op Operation) bool {
	for _, o := range p.ops {
		if o == op {
			return true
		}
	}
	return false
}

func (p *fakePlugin) call(phase string) error {
	*p.log = append(*p.log, p.name+"."+phase)
	return p.failing[phase]
}

// mutating implements Admit only; validating Validate only; rechecking Recheck only; all
// three every phase.
type (
	mutating   struct{ *fakePlugin }
	validating struct{ *fakePlugin }
	rechecking struct{ *fakePlugin }
	all        struct{ *fakePlugin }
	inert      struct{ *fakePlugin }
)

func (m mutating) Admit(_ context.Context, _ *Attributes) error      { return m.call("admit") }
func (v validating) Validate(_ context.Context, _ *Attributes) error { return v.call("validate") }
func (r rechecking) Recheck(_ context.Context, _ *Attributes) error  { return r.call("recheck") }
func (a all) Admit(_ context.Context, _ *Attributes) error           { return a.call("admit") }
func (a all) Validate(_ context.Context, _ *Attributes) error        { return a.call("validate") }
func (a all) Recheck(_ context.Context, _ *Attributes) error         { return a.call("recheck") }

var (
	_ MutationInterface   = mutating{}
	_ ValidationInterface = validating{}
	_ Rechecker           = rechecking{}
	_ MutationInterface   = all{}
	_ ValidationInterface = all{}
	_ Rechecker           = all{}
)

// TestCh01_Admission_ChainOrderAndShortCircuit checks point 1 of the admission contract:
// each phase runs, in the chain's order, the plugins that implement it and handle the
// operation, and stops at the first error, which is the answer as it is.
func TestCh01_Admission_ChainOrderAndShortCircuit(t *testing.T) {
	errNo := errors.New("no")
	every := []Operation{Create, Update, Delete}
	tests := []struct {
		name    string
		op      Operation
		failing map[string]map[string]error // plugin → phase → error
		want    map[string][]string         // phase → calls
		wantErr map[string]string           // phase → plugin whose error is the answer
	}{
		{
			name: "create runs everything that handles it",
			op:   Create,
			want: map[string][]string{
				"admit":    {"m1.admit", "a1.admit", "m2.admit"},
				"validate": {"v1.validate", "a1.validate"},
				"recheck":  {"r1.recheck", "a1.recheck"},
			},
		},
		{
			name: "update skips the create-only plugins",
			op:   Update,
			want: map[string][]string{
				"admit":    {"m1.admit", "a1.admit"},
				"validate": {"a1.validate"},
				"recheck":  {"a1.recheck"},
			},
		},
		{
			name: "delete",
			op:   Delete,
			want: map[string][]string{
				"admit":    {"m1.admit", "a1.admit"},
				"validate": {"a1.validate"},
				"recheck":  {"a1.recheck"},
			},
		},
		{
			name:    "the first error stops the phase",
			op:      Create,
			failing: map[string]map[string]error{"a1": {"admit": errNo, "recheck": errNo}, "v1": {"validate": errNo}},
			want: map[string][]string{
				"admit":    {"m1.admit", "a1.admit"},
				"validate": {"v1.validate"},
				"recheck":  {"r1.recheck", "a1.recheck"},
			},
			wantErr: map[string]string{"admit": "a1", "validate": "v1", "recheck": "a1"},
		},
		{
			name:    "an error in one phase does not touch another",
			op:      Update,
			failing: map[string]map[string]error{"m1": {"admit": errNo}},
			want: map[string][]string{
				"admit":    {"m1.admit"},
				"validate": {"a1.validate"},
				"recheck":  {"a1.recheck"},
			},
			wantErr: map[string]string{"admit": "m1"},
		},
		{
			name:    "a plugin that does not handle the operation cannot fail it",
			op:      Update,
			failing: map[string]map[string]error{"v1": {"validate": errNo}, "m2": {"admit": errNo}},
			want: map[string][]string{
				"admit":    {"m1.admit", "a1.admit"},
				"validate": {"a1.validate"},
				"recheck":  {"a1.recheck"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log []string
			errs := map[string]error{}
			mk := func(name string, ops ...Operation) *fakePlugin {
				fail := map[string]error{}
				for phase, err := range tt.failing[name] {
					fail[phase] = fmt.Errorf("%s.%s: %w", name, phase, err)
					errs[name+"."+phase] = fail[phase]
				}
				return &fakePlugin{name: name, ops: ops, log: &log, failing: fail}
			}
			chain := Chain{
				mutating{mk("m1", every...)},
				validating{mk("v1", Create)},
				inert{mk("i1", every...)},
				rechecking{mk("r1", Create)},
				all{mk("a1", every...)},
				mutating{mk("m2", Create)},
			}
			assert.Equal(t, []string{"m1", "v1", "i1", "r1", "a1", "m2"}, chain.Names())
			a := &Attributes{Operation: tt.op}
			phases := []struct {
				name string
				run  func(context.Context, *Attributes) error
			}{{"admit", chain.Admit}, {"validate", chain.Validate}, {"recheck", chain.Recheck}}
			for _, ph := range phases {
				log = nil
				err := ph.run(context.Background(), a)
				assert.Empty(t, cmp.Diff(tt.want[ph.name], log), ph.name)
				if who := tt.wantErr[ph.name]; who != "" {
					assert.Same(t, errs[who+"."+ph.name], err, ph.name)
				} else {
					assert.NoError(t, err, ph.name)
				}
			}
		})
	}
}

// TestCh01_Admission_EmptyChain checks that a chain without plugins admits everything.
func TestCh01_Admission_EmptyChain(t *testing.T) {
	var c Chain
	a := &Attributes{Operation: Create, Namespace: "missing", Namespaces: func(string) *api.Unstructured { return nil }}
	assert.NoError(t, c.Admit(context.Background(), a))
	assert.NoError(t, c.Validate(context.Background(), a))
	assert.NoError(t, c.Recheck(context.Background(), a))
	assert.Empty(t, c.Names())
}

// TestCh01_Admission_DefaultChain checks NewChain: the plugins this simulator implements,
// NamespaceLifecycle acting in the mutating phase and as a Rechecker, on creates only.
func TestCh01_Admission_DefaultChain(t *testing.T) {
	c := NewChain(Config{StrictServiceAccounts: true})
	assert.Equal(t, "NamespaceLifecycle", c.Names()[0])
	missing := func(op Operation) *Attributes {
		return &Attributes{Operation: op, Resource: api.GroupResource{Resource: "pods"}, Namespace: "gone", Name: "p",
			Namespaces: func(string) *api.Unstructured { return nil }}
	}
	ctx := context.Background()
	assert.True(t, api.IsNotFound(c.Admit(ctx, missing(Create))))
	assert.True(t, api.IsNotFound(c.Recheck(ctx, missing(Create))))
	assert.NoError(t, c.Validate(ctx, missing(Create)), "NamespaceLifecycle has no validating phase")
	for _, op := range []Operation{Update, Delete} {
		assert.NoError(t, c.Admit(ctx, missing(op)), op)
		assert.NoError(t, c.Recheck(ctx, missing(op)), op)
	}
}

// namespace returns a stored Namespace object.
func namespace(name, phase string, deleting bool) *api.Unstructured {
	u := &api.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": name},
	}}
	if phase != "" {
		u.Object["status"] = map[string]any{"phase": phase}
	}
	if deleting {
		ts := api.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		u.SetDeletionTimestamp(&ts)
	}
	return u
}

// TestCh01_Admission_NamespaceLifecycle checks point 3: no content in a missing namespace
// (404 on namespaces) or a terminating one (403 with the NamespaceTerminating cause, by
// phase or by deletionTimestamp); cluster-scoped objects pass; a namespace that cannot be a
// name is left to validation by Admit, but not by Recheck.
func TestCh01_Admission_NamespaceLifecycle(t *testing.T) {
	stored := map[string]*api.Unstructured{
		"active":      namespace("active", "Active", false),
		"nophase":     namespace("nophase", "", false),
		"terminating": namespace("terminating", "Terminating", false),
		"deleting":    namespace("deleting", "Active", true),
		"Bad_NS":      namespace("Bad_NS", "Terminating", false),
	}
	notFound := func(ns string) *api.Status {
		return &api.Status{
			TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: api.StatusFailure,
			Code: 404, Reason: api.StatusReasonNotFound,
			Message: `namespaces "` + ns + `" not found`,
			Details: &api.StatusDetails{Kind: "namespaces", Name: ns},
		}
	}
	forbidden := func(ns string) *api.Status {
		return &api.Status{
			TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: api.StatusFailure,
			Code: 403, Reason: api.StatusReasonForbidden,
			Message: `deployments.apps "web" is forbidden: unable to create new content in namespace ` + ns + ` because it is being terminated`,
			Details: &api.StatusDetails{Group: "apps", Kind: "deployments", Name: "web", Causes: []api.StatusCause{{
				Type: api.NamespaceTerminatingCause, Message: "namespace " + ns + " is being terminated", Field: "metadata.namespace",
			}}},
		}
	}
	tests := []struct {
		ns          string
		wantAdmit   *api.Status
		wantRecheck *api.Status
		noLookup    bool
	}{
		{ns: "active"},
		{ns: "nophase"},
		{ns: "", noLookup: true},
		{ns: "missing", wantAdmit: notFound("missing"), wantRecheck: notFound("missing")},
		{ns: "terminating", wantAdmit: forbidden("terminating"), wantRecheck: forbidden("terminating")},
		{ns: "deleting", wantAdmit: forbidden("deleting"), wantRecheck: forbidden("deleting")},
		{ns: "Bad_NS", wantRecheck: forbidden("Bad_NS")},
		{ns: "bad.ns", wantRecheck: notFound("bad.ns")},
		{ns: "-x", wantRecheck: notFound("-x")},
	}
	var l NamespaceLifecycle
	assert.Equal(t, "NamespaceLifecycle", l.Name())
	assert.True(t, l.Handles(Create))
	assert.False(t, l.Handles(Update))
	assert.False(t, l.Handles(Delete))
	for _, tt := range tests {
		var lookups []string
		a := &Attributes{
			Operation: Create, Resource: api.GroupResource{Group: "apps", Resource: "deployments"},
			Kind: api.GroupKind{Group: "apps", Kind: "Deployment"}, Namespace: tt.ns, Name: "web",
			Namespaces: func(name string) *api.Unstructured {
				lookups = append(lookups, name)
				return stored[name]
			},
		}
		for _, ph := range []struct {
			name string
			run  func(context.Context, *Attributes) error
			want *api.Status
		}{{"admit", l.Admit, tt.wantAdmit}, {"recheck", l.Recheck, tt.wantRecheck}} {
			err := ph.run(context.Background(), a)
			if ph.want == nil {
				assert.NoError(t, err, "%s %q", ph.name, tt.ns)
				continue
			}
			var st *api.Status
			require.ErrorAs(t, err, &st, "%s %q", ph.name, tt.ns)
			assert.Empty(t, cmp.Diff(ph.want, st), "%s %q", ph.name, tt.ns)
			if ph.want.Code == 403 {
				assert.True(t, api.HasStatusCause(err, api.NamespaceTerminatingCause))
			}
		}
		if tt.noLookup {
			assert.Empty(t, lookups, "a cluster-scoped object looks up no namespace")
		}
	}

	// Without a way to read namespaces the plugin admits.
	a := &Attributes{Operation: Create, Namespace: "missing"}
	assert.NoError(t, l.Admit(context.Background(), a))
	assert.NoError(t, l.Recheck(context.Background(), a))
}

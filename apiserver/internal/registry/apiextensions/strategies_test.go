package apiextensions

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// TestCh01_Strategy_CRDPrepareForCreate checks the CRD strategy's create: the status the
// naming and establishing controllers write (NamesAccepted and Established, at the
// request's time in UTC, to the second), whatever the body's status said.
func TestCh01_Strategy_CRDPrepareForCreate(t *testing.T) {
	s := NewStrategy()
	assert.False(t, s.NamespaceScoped())
	assert.True(t, s.HasStatus())
	assert.True(t, s.HasGeneration())
	assert.False(t, s.HasScale())
	assert.True(t, s.AllowUnconditionalUpdate())
	assert.Equal(t, map[string][]string{"v1": {"status"}}, s.GetResetFields())

	est := time.FixedZone("EST", -5*3600)
	tests := []struct {
		name   string
		now    time.Time
		edit   func(o *api.Unstructured)
		wantTS string
		want   func(ts string) map[string]any
	}{
		{name: "foo", now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), wantTS: "2026-03-04T05:06:07Z",
			edit: func(o *api.Unstructured) { o.Object["status"] = map[string]any{"conditions": []any{"bogus"}} }},
		{name: "another zone, fractions dropped", now: time.Date(2026, 3, 4, 23, 0, 0, 999, est), wantTS: "2026-03-05T04:00:00Z"},
		{name: "no short names nor categories", now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), wantTS: "2026-01-01T00:00:00Z",
			edit: func(o *api.Unstructured) {
				names := o.Object["spec"].(map[string]any)["names"].(map[string]any)
				delete(names, "shortNames")
				delete(names, "categories")
			}},
	}
	for _, tt := range tests {
		o := fooCRD()
		if tt.edit != nil {
			tt.edit(o)
		}
		spec := o.DeepCopy().Object["spec"]
		s.PrepareForCreate(rest.Context{Now: api.NewTime(tt.now)}, o)
		names := map[string]any{"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"}
		if tt.name != "no short names nor categories" {
			names["shortNames"] = []any{"fo"}
			names["categories"] = []any{"all"}
		}
		want := map[string]any{
			"acceptedNames": names,
			"conditions": []any{
				map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": tt.wantTS},
				map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": tt.wantTS},
			},
			"storedVersions": []any{"v1"},
		}
		assert.Empty(t, cmp.Diff(want, o.Object["status"]), tt.name)
		assert.Empty(t, cmp.Diff(spec, o.Object["spec"]), "%s: the spec is not touched", tt.name)
	}
}

// TestCh01_Strategy_CRDValidate checks the CRD strategy's checks on a valid CRD, on a few
// broken ones, and the immutable fields of an update; and that an update keeps the stored
// status.
func TestCh01_Strategy_CRDValidate(t *testing.T) {
	s := NewStrategy()
	assert.Empty(t, s.Validate(fooCRD()), "a valid CRD")
	tests := []struct {
		name string
		edit func(spec map[string]any, o *api.Unstructured)
		want []string // the fields of the causes
	}{
		{"name is not plural.group", func(_ map[string]any, o *api.Unstructured) { o.SetName("bars.example.com") }, []string{"metadata.name"}},
		{"group without a dot", func(spec map[string]any, o *api.Unstructured) {
			spec["group"] = "example"
			o.SetName("foos.example")
		}, []string{"spec.group"}},
		{"bad scope", func(spec map[string]any, _ *api.Unstructured) { spec["scope"] = "Global" }, []string{"spec.scope"}},
		{"two storage versions", func(spec map[string]any, _ *api.Unstructured) {
			spec["versions"].([]any)[0].(map[string]any)["storage"] = true
		}, []string{"spec.versions"}},
		{"protected group without approval", func(spec map[string]any, o *api.Unstructured) {
			spec["group"] = "samplecontroller.k8s.io"
			o.SetName("foos.samplecontroller.k8s.io")
		}, []string{"metadata.annotations[api-approved.kubernetes.io]"}},
	}
	for _, tt := range tests {
		o := fooCRD()
		tt.edit(o.Object["spec"].(map[string]any), o)
		var fields []string
		for _, c := range s.Validate(o) {
			fields = append(fields, c.Field)
		}
		assert.Equal(t, tt.want, fields, tt.name)
	}

	old := fooCRD()
	s.PrepareForCreate(rest.Context{Now: api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}, old)
	upd := fooCRD()
	spec := upd.Object["spec"].(map[string]any)
	spec["scope"] = "Cluster"
	spec["group"] = "other.com"
	spec["names"].(map[string]any)["kind"] = "Bar"
	spec["names"].(map[string]any)["plural"] = "bars"
	spec["names"].(map[string]any)["singular"] = "bar"
	var fields []string
	for _, c := range s.ValidateUpdate(upd, old) {
		fields = append(fields, c.Field)
		assert.Contains(t, c.Message, "field is immutable")
	}
	assert.Equal(t, []string{"spec.scope", "spec.names.kind", "spec.group", "spec.names.plural"}, fields)
	assert.Empty(t, s.ValidateUpdate(fooCRD(), old), "singular and the rest may change")

	upd.Object["status"] = map[string]any{}
	upd.SetGeneration(1)
	s.PrepareForUpdate(rest.Context{}, upd, old)
	assert.Empty(t, cmp.Diff(old.Object["status"], upd.Object["status"]), "the status is the status subresource's")
	assert.Equal(t, int64(2), upd.GetGeneration(), "a spec change moves the generation")
}

// TestCh01_Strategy_ServingOf checks the serving state of a CRD's served version: the
// storage version when served, its schema, columns and scale, keyed by uid and
// resourceVersion.
func TestCh01_Strategy_ServingOf(t *testing.T) {
	o := fooCRD()
	spec := ReadSpec(o)
	i := ServedVersion(spec)
	require.Equal(t, 1, i, "the served storage version")
	cs := ServingOf(o, spec, i)
	assert.Equal(t, "uid-foo/7", cs.Key)
	require.NotNil(t, cs.Schema)
	assert.Equal(t, "object", cs.Schema.Type)
	assert.Contains(t, cs.Schema.Properties, "spec")
	assert.NotNil(t, cs.Printer)
	assert.Equal(t, &Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.availableReplicas"}, cs.Scale)
	assert.Equal(t, "object", cs.OpenAPI["type"])

	for _, tt := range []struct {
		name     string
		versions []Version
		want     int
	}{
		{"storage not served: the first served", []Version{{Name: "a"}, {Name: "b", Served: true}, {Name: "c", Storage: true}, {Name: "d", Served: true}}, 1},
		{"none served", []Version{{Name: "a", Storage: true}}, -1},
		{"none", nil, -1},
		{"storage served", []Version{{Name: "a", Served: true}, {Name: "b", Served: true, Storage: true}}, 1},
	} {
		assert.Equal(t, tt.want, ServedVersion(Spec{Versions: tt.versions}), tt.name)
	}
}

// TestCh01_Strategy_CustomResource checks a custom resource's strategy: its flags from the
// CRD, a create's status dropped when the status subresource exists, and objects checked
// against the schema in the atomic pointer, which a CRD update swaps.
func TestCh01_Strategy_CustomResource(t *testing.T) {
	crd := fooCRD()
	spec := ReadSpec(crd)
	var serving atomic.Pointer[Serving]
	s := NewCustomResourceStrategy(true, true, true, &serving)
	assert.True(t, s.NamespaceScoped())
	assert.True(t, s.HasStatus())
	assert.True(t, s.HasScale())
	assert.True(t, s.HasGeneration())
	assert.False(t, s.AllowUnconditionalUpdate(), "custom resources need a resourceVersion on update")
	cluster := NewCustomResourceStrategy(false, false, false, &serving)
	assert.False(t, cluster.NamespaceScoped())
	assert.False(t, cluster.HasStatus())
	assert.Nil(t, cluster.GetResetFields())

	status := map[string]any{"availableReplicas": int64(3)}
	o := foo(map[string]any{"deploymentName": "d"}, status)
	s.PrepareForCreate(rest.Context{}, o)
	assert.NotContains(t, o.Object, "status", "with a status subresource only it writes the status")
	o = foo(map[string]any{"deploymentName": "d"}, status)
	cluster.PrepareForCreate(rest.Context{}, o)
	assert.Equal(t, status, o.Object["status"], "without one the body's status is written")

	bad := foo(map[string]any{"replicas": int64(20)}, nil)
	assert.Empty(t, s.Validate(bad), "no serving state yet: nothing to check against")

	serving.Store(ServingOf(crd, spec, 1))
	tests := []struct {
		name string
		obj  *api.Unstructured
		want []string
	}{
		{"valid", foo(map[string]any{"deploymentName": "d", "replicas": int64(3)}, nil), nil},
		{"missing required", foo(map[string]any{"replicas": int64(3)}, nil), []string{"spec.deploymentName"}},
		{"above the maximum", foo(map[string]any{"deploymentName": "d", "replicas": int64(20)}, nil), []string{"spec.replicas"}},
		{"wrong type", foo(map[string]any{"deploymentName": int64(1)}, nil), []string{"spec.deploymentName"}},
		{"status checked too", foo(map[string]any{"deploymentName": "d"}, map[string]any{"availableReplicas": "x"}), []string{"status.availableReplicas"}},
	}
	for _, tt := range tests {
		var fields []string
		for _, c := range s.Validate(tt.obj) {
			fields = append(fields, c.Field)
		}
		assert.Equal(t, tt.want, fields, tt.name)
	}

	assert.Equal(t, []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid, Field: "spec.replicas",
		Message: "Invalid value: 20: spec.replicas in body should be less than or equal to 10"}},
		s.Validate(foo(map[string]any{"deploymentName": "d", "replicas": int64(20)}, nil)), "kube-openapi's message")

	// The CRD's update swaps the schema: v1beta1's accepts anything.
	serving.Store(ServingOf(crd, spec, 0))
	assert.Empty(t, s.Validate(foo(map[string]any{"replicas": int64(20)}, nil)))
}

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

// TestCh01_Strategy_CRDPrepareForCreate checks the CRD strategy's create: whatever the
// body's status said, the status is the one the real server stores before any controller
// has seen the CRD (no conditions, empty accepted names, the storage version stored), and
// the controllers then write the accepted names, NamesAccepted, Established and, for a
// protected group, the API approval condition, at the write's time in UTC.
func TestCh01_Strategy_CRDPrepareForCreate(t *testing.T) {
	s := NewStrategy()
	assert.False(t, s.NamespaceScoped())
	assert.True(t, s.HasStatus())
	assert.True(t, s.HasGeneration())
	assert.False(t, s.HasScale())
	assert.False(t, s.AllowUnconditionalUpdate(), "an update needs a resourceVersion")
	assert.Equal(t, map[string][]string{"v1": {"status"}}, s.GetResetFields())

	o := fooCRD()
	o.Object["status"] = map[string]any{"conditions": []any{"bogus"}}
	spec := o.DeepCopy().Object["spec"]
	s.PrepareForCreate(rest.Context{}, o)
	assert.Empty(t, cmp.Diff(map[string]any{"conditions": nil, "acceptedNames": map[string]any{"plural": "", "kind": ""},
		"storedVersions": []any{"v1"}}, o.Object["status"]))
	assert.Empty(t, cmp.Diff(spec, o.Object["spec"]), "the spec is not touched")

	now := api.NewTime(time.Date(2026, 3, 4, 23, 0, 0, 0, time.FixedZone("EST", -5*3600)))
	const ts = "2026-03-05T04:00:00Z"
	named := NamingStatus(o, nil, now)
	require.NotNil(t, named)
	names := map[string]any{"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList", "shortNames": []any{"fo"}, "categories": []any{"all"}}
	assert.Empty(t, cmp.Diff(map[string]any{"acceptedNames": names, "storedVersions": []any{"v1"}, "conditions": []any{
		map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": ts},
		map[string]any{"type": "Established", "status": "False", "reason": "Installing", "message": "the initial names have been accepted", "lastTransitionTime": ts},
	}}, named.Object["status"]))
	assert.Nil(t, NamingStatus(named, nil, now), "nothing more to do")
	est := EstablishedStatus(named, now)
	require.NotNil(t, est)
	assert.Equal(t, map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted",
		"message": "the initial names have been accepted", "lastTransitionTime": ts}, findCondition(statusOf(est), "Established"))
	assert.Nil(t, EstablishedStatus(est, now))
	assert.Nil(t, ApprovalStatus(est, now), "example.com is not a protected group")

	// Another CRD of the group has accepted the kind: a conflict, and no Established.
	other := fooCRD()
	other.SetName("bars.example.com")
	other.Object["status"] = map[string]any{"acceptedNames": map[string]any{"plural": "bars", "kind": "Foo", "shortNames": []any{"fo"}}}
	conflict := NamingStatus(o, []*api.Unstructured{other}, now)
	require.NotNil(t, conflict)
	assert.Equal(t, "KindConflict", findCondition(statusOf(conflict), "NamesAccepted")["reason"])
	assert.Equal(t, `"Foo" is already in use`, findCondition(statusOf(conflict), "NamesAccepted")["message"])
	assert.Equal(t, "NotAccepted", findCondition(statusOf(conflict), "Established")["reason"])
	assert.False(t, Serves(conflict))
}

// TestCh01_Strategy_CRDValidate checks the CRD strategy's checks on a valid CRD, on a few
// broken ones, and the immutable fields of an update; and that an update keeps the stored
// status.
func TestCh01_Strategy_CRDValidate(t *testing.T) {
	s := NewStrategy()
	created := func() *api.Unstructured {
		o := fooCRD()
		s.PrepareForCreate(rest.Context{}, o)
		return o
	}
	assert.Empty(t, s.Validate(created()), "a valid CRD")
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
		}, []string{"spec.versions", "status.storedVersions"}},
		{"protected group without approval", func(spec map[string]any, o *api.Unstructured) {
			spec["group"] = "samplecontroller.k8s.io"
			o.SetName("foos.samplecontroller.k8s.io")
		}, []string{"metadata.annotations[api-approved.kubernetes.io]"}},
	}
	for _, tt := range tests {
		o := fooCRD()
		tt.edit(o.Object["spec"].(map[string]any), o)
		s.PrepareForCreate(rest.Context{}, o)
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
	assert.Equal(t, []string{"spec.group", "spec.names.plural"}, fields, "scope and kind may change until the CRD is Established")
	established := EstablishedStatus(NamingStatus(old, nil, api.Time{}), api.Time{})
	fields = nil
	for _, c := range s.ValidateUpdate(upd, established) {
		fields = append(fields, c.Field)
	}
	assert.Equal(t, []string{"spec.scope", "spec.names.kind", "spec.group", "spec.names.plural"}, fields)
	assert.Empty(t, s.ValidateUpdate(fooCRD(), established), "singular and the rest may change")

	upd.Object["status"] = map[string]any{}
	upd.SetGeneration(1)
	s.PrepareForUpdate(rest.Context{}, upd, old)
	assert.Empty(t, cmp.Diff(old.Object["status"], upd.Object["status"]), "the status is the status subresource's")
	assert.Equal(t, int64(2), upd.GetGeneration(), "a spec change moves the generation")
}

// TestCh01_Strategy_ServingOf checks the serving state of a CRD: every served version with
// its own schema, columns and subresources, the home version (the storage version when
// served), keyed by uid and resourceVersion.
func TestCh01_Strategy_ServingOf(t *testing.T) {
	cs := ServingOf(fooCRD())
	assert.Equal(t, "uid-foo/7", cs.Key)
	assert.Equal(t, "v1", cs.Home)
	assert.Equal(t, "v1", cs.Storage)
	require.Len(t, cs.Versions, 2)
	v1 := cs.Version("v1")
	require.NotNil(t, v1.Schema)
	assert.Contains(t, v1.Schema.Properties, "spec")
	assert.NotNil(t, v1.Printer)
	assert.True(t, v1.HasStatus)
	assert.True(t, v1.HasScale)
	assert.Equal(t, &Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.availableReplicas"}, v1.Scale)
	assert.Equal(t, "object", v1.OpenAPI["type"])
	beta := cs.Version("v1beta1")
	assert.False(t, beta.HasStatus, "v1beta1 declares no subresources")
	assert.Same(t, v1, cs.Version("v2"), "an unknown version is served as the home version")

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
		assert.Equal(t, tt.want, HomeVersion(Spec{Versions: tt.versions}), tt.name)
	}
	deprecated := fooCRD()
	deprecated.Object["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["deprecated"] = true
	assert.Equal(t, "example.com/v1beta1 Foo is deprecated; use example.com/v1 Foo", ServingOf(deprecated).DeprecationWarningText("v1beta1"))
	assert.Empty(t, ServingOf(deprecated).DeprecationWarningText("v1"))
}

// TestCh01_Strategy_CustomResource checks a custom resource's strategy: its flags from the
// CRD, a create's status dropped when the status subresource exists, and objects checked
// against the schema in the atomic pointer, which a CRD update swaps.
func TestCh01_Strategy_CustomResource(t *testing.T) {
	crd := fooCRD()
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

	serving.Store(ServingOf(crd))
	tests := []struct {
		name string
		obj  *api.Unstructured
		want []string
	}{
		{"valid", foo(map[string]any{"deploymentName": "d", "replicas": int64(3)}, nil), nil},
		{"missing required", foo(map[string]any{"replicas": int64(3)}, nil), []string{"spec.deploymentName"}},
		{"above the maximum", foo(map[string]any{"deploymentName": "d", "replicas": int64(20)}, nil), []string{"spec.replicas"}},
		{"wrong type", foo(map[string]any{"deploymentName": int64(1)}, nil), []string{"spec.deploymentName"}},
		{"status checked too, at the scale path as well", foo(map[string]any{"deploymentName": "d"}, map[string]any{"availableReplicas": "x"}),
			[]string{"status.availableReplicas", ".status.availableReplicas"}},
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

	// An object of another version is checked with that version's schema: v1beta1's
	// accepts anything.
	beta := foo(map[string]any{"replicas": int64(20)}, nil)
	beta.SetAPIVersion("example.com/v1beta1")
	assert.Empty(t, s.Validate(beta))
}

package statefulset

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

func testSet(t *testing.T, spec map[string]any) *statefulSet {
	t.Helper()
	u := &api.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "StatefulSet",
		"metadata": map[string]any{"name": "web", "namespace": "ns", "uid": "set-uid"},
		"spec":     spec,
	}}
	s, err := parseSet(u)
	require.NoError(t, err)
	return s
}

// TestCh14_StatefulSet_Ordinals: pod names parse to parent and ordinal as upstream's
// regular expression does; names without an ordinal are -1.
func TestCh14_StatefulSet_Ordinals(t *testing.T) {
	cases := []struct {
		pod    string
		parent string
		ord    int
	}{
		{"web-0", "web", 0},
		{"web-12", "web", 12},
		{"my-web-3", "my-web", 3},
		{"web", "", -1},
		{"web-x", "", -1},
		{"web-99999999999", "web", -1},
	}
	for _, tc := range cases {
		p, o := parentAndOrdinal(tc.pod)
		require.Equal(t, tc.ord, o, tc.pod)
		if tc.ord >= 0 {
			require.Equal(t, tc.parent, p, tc.pod)
		}
	}
}

// TestCh14_StatefulSet_NewPod: a pod from the set has its stable identity, its revision
// label, and a volume per claim template replacing a template volume of the same name.
func TestCh14_StatefulSet_NewPod(t *testing.T) {
	s := testSet(t, map[string]any{
		"replicas":    int64(2),
		"serviceName": "svc",
		"selector":    map[string]any{"matchLabels": map[string]any{"app": "web"}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec": map[string]any{"volumes": []any{
				map[string]any{"name": "data", "emptyDir": map[string]any{}},
				map[string]any{"name": "cfg", "emptyDir": map[string]any{}},
			}},
		},
		"volumeClaimTemplates": []any{map[string]any{"metadata": map[string]any{"name": "data", "labels": map[string]any{"tier": "db"}}}},
	})
	p := newPod(s, 1, "web-abc")
	require.Equal(t, "web-1", p.GetName())
	require.Empty(t, p.GetGenerateName())
	require.Equal(t, map[string]string{"app": "web", podNameLabel: "web-1", podIndexLabel: "1", revisionLabel: "web-abc"}, p.GetLabels())
	require.Equal(t, "web-1", app.NestedString(p.Object, "spec", "hostname"))
	require.Equal(t, "svc", app.NestedString(p.Object, "spec", "subdomain"))
	vols, _ := app.Nested(p.Object, "spec", "volumes")
	require.Equal(t, []any{
		map[string]any{"name": "data", "persistentVolumeClaim": map[string]any{"claimName": "data-web-1"}},
		map[string]any{"name": "cfg", "emptyDir": map[string]any{}},
	}, vols)
	require.True(t, identityMatches(s, p))
	claims := newClaims(s, 1)
	require.Len(t, claims, 1)
	require.Equal(t, "data-web-1", claims[0].GetName())
	require.Equal(t, map[string]string{"tier": "db", "app": "web"}, claims[0].GetLabels())
}

// TestCh14_StatefulSet_RevisionRoundTrip: a revision's data restores the template it was
// taken from.
func TestCh14_StatefulSet_RevisionRoundTrip(t *testing.T) {
	tmpl := map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}, "spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "v1"}}}}
	s := testSet(t, map[string]any{"template": tmpl})
	rev := &api.Unstructured{Object: map[string]any{"data": revisionPatch(s)}}
	other := testSet(t, map[string]any{"template": map[string]any{"spec": map[string]any{}}})
	restored := applyRevision(other, rev)
	require.Equal(t, tmpl, restored.Spec.Template)
	require.Empty(t, other.Spec.Template["metadata"], "applyRevision does not touch its argument")
}

// TestCh14_StatefulSet_ClaimOwnerRefs: the owner references a claim should carry under each
// retention policy, and the claims left alone.
func TestCh14_StatefulSet_ClaimOwnerRefs(t *testing.T) {
	tr := true
	s := testSet(t, map[string]any{"replicas": int64(1)})
	pod := &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "web-0", "uid": "pod-uid"}}}
	setRef := api.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &tr, BlockOwnerDeletion: &tr}
	podRef := api.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "web-0", UID: "pod-uid", Controller: &tr, BlockOwnerDeletion: &tr}
	other := api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "x", UID: "x-uid"}
	foreign := api.OwnerReference{APIVersion: "v1", Kind: "Thing", Name: "y", UID: "y-uid", Controller: &tr}
	cases := []struct {
		name             string
		refs             []api.OwnerReference
		wantSet, wantPod bool
		want             []api.OwnerReference
		changed, leave   bool
	}{
		{"retain: nothing to add", nil, false, false, nil, false, false},
		{"retain: our ref removed", []api.OwnerReference{setRef, other}, false, false, []api.OwnerReference{other}, true, false},
		{"set deletion", []api.OwnerReference{other}, true, false, []api.OwnerReference{other, setRef}, true, false},
		{"scaled down: set ref moves to pod", []api.OwnerReference{setRef}, false, true, []api.OwnerReference{podRef}, true, false},
		{"already right", []api.OwnerReference{setRef}, true, false, []api.OwnerReference{setRef}, false, false},
		{"stale set ref left alone", []api.OwnerReference{{Kind: "StatefulSet", Name: "web", UID: "old"}}, true, false, nil, false, true},
		{"another controller left alone", []api.OwnerReference{foreign}, true, false, nil, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, changed, leave := desiredClaimRefs(tc.refs, s, pod, tc.wantSet, tc.wantPod)
			require.Equal(t, tc.leave, leave)
			require.Equal(t, tc.changed, changed)
			if !leave {
				require.Equal(t, tc.want, got)
			}
		})
	}
}

package deployment_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/deployment"
)

// TestCh14_Deployment_Fenceposts: maxSurge rounds up, maxUnavailable down, and both at 0
// make maxUnavailable 1 (ResolveFenceposts).
func TestCh14_Deployment_Fenceposts(t *testing.T) {
	tests := []struct {
		surge, unavailable any
		replicas           int32
		wantS, wantU       int32
	}{
		{"25%", "25%", 3, 1, 0},
		{"25%", "25%", 4, 1, 1},
		{"25%", "25%", 10, 3, 2},
		{int64(2), int64(0), 5, 2, 0},
		{int64(0), int64(0), 5, 0, 1},
		{"0%", "0%", 5, 0, 1},
		{nil, nil, 5, 0, 1},
		{"50%", "10%", 7, 4, 0},
		{float64(3), "100%", 7, 3, 7},
	}
	for _, tc := range tests {
		s, u, err := deployment.ResolveFenceposts(tc.surge, tc.unavailable, tc.replicas)
		require.NoError(t, err)
		require.Equal(t, []int32{tc.wantS, tc.wantU}, []int32{s, u}, "%v %v of %d", tc.surge, tc.unavailable, tc.replicas)
	}
	_, _, err := deployment.ResolveFenceposts("3", nil, 5)
	require.Error(t, err, "a string must be a percentage")
}

// TestCh14_Deployment_TemplateHash: the hash is stable, in upstream's alphabet, moves with
// the template and the collision count, and ignores map order; EqualIgnoreHash ignores the
// pod-template-hash label and empty members.
func TestCh14_Deployment_TemplateHash(t *testing.T) {
	tmpl := func(image string, labels map[string]any) map[string]any {
		return map[string]any{"metadata": map[string]any{"labels": labels},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": image}}}}
	}
	a := tmpl("nginx", map[string]any{"app": "web", "tier": "front"})
	b := tmpl("nginx", map[string]any{"tier": "front", "app": "web"})
	h := deployment.ComputeHash(a, nil)
	require.Equal(t, h, deployment.ComputeHash(b, nil))
	require.Equal(t, h, deployment.ComputeHash(a, nil))
	require.Regexp(t, `^[bcdfghjklmnpqrstvwxz2456789]+$`, h)
	require.NotEqual(t, h, deployment.ComputeHash(tmpl("nginx:2", map[string]any{"app": "web", "tier": "front"}), nil))
	one := int32(1)
	require.NotEqual(t, h, deployment.ComputeHash(a, &one))

	withHash := tmpl("nginx", map[string]any{"app": "web", "tier": "front", "pod-template-hash": h})
	require.True(t, deployment.EqualIgnoreHash(a, withHash))
	require.False(t, deployment.EqualIgnoreHash(a, tmpl("nginx:2", map[string]any{"app": "web", "tier": "front"})))
	empty := tmpl("nginx", map[string]any{"app": "web", "tier": "front"})
	empty["spec"].(map[string]any)["volumes"] = []any{}
	empty["metadata"].(map[string]any)["annotations"] = map[string]any{}
	require.True(t, deployment.EqualIgnoreHash(a, empty), "empty and absent are the same")
	num := tmpl("nginx", map[string]any{"app": "web", "tier": "front"})
	num["spec"].(map[string]any)["terminationGracePeriodSeconds"] = int64(30)
	numF := tmpl("nginx", map[string]any{"app": "web", "tier": "front"})
	numF["spec"].(map[string]any)["terminationGracePeriodSeconds"] = float64(30)
	require.True(t, deployment.EqualIgnoreHash(num, numF))
}

// TestCh14_Deployment_Revisions: LastRevision is the second highest (what undo goes back to).
func TestCh14_Deployment_Revisions(t *testing.T) {
	rs := func(rev string) *api.Unstructured {
		u := &api.Unstructured{Object: map[string]any{"metadata": map[string]any{}}}
		if rev != "" {
			u.SetAnnotations(map[string]string{deployment.RevisionAnnotation: rev})
		}
		return u
	}
	tests := []struct {
		revs      []string
		max, last int64
	}{
		{[]string{"1"}, 1, 0},
		{[]string{"1", "2"}, 2, 1},
		{[]string{"3", "1", "5", "4"}, 5, 4},
		{[]string{"", "2"}, 2, 0},
	}
	for _, tc := range tests {
		var rss []*api.Unstructured
		for _, r := range tc.revs {
			rss = append(rss, rs(r))
		}
		require.Equal(t, tc.max, deployment.MaxRevision(rss), "%v", tc.revs)
		require.Equal(t, tc.last, deployment.LastRevision(rss), "%v", tc.revs)
	}
}

// TestCh14_Deployment_ProportionalScaling: scaling a Deployment in the middle of a rollout
// shares the new replicas among its ReplicaSets in proportion to their sizes (upstream's
// example: 10 replicas, maxSurge 3, maxUnavailable 2, scaled to 15 mid-rollout).
func TestCh14_Deployment_ProportionalScaling(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := startCluster(t)
		obj := deployObject("web", "nginx:1", 10)
		app.NestedMap(obj, "spec")["strategy"] = map[string]any{"type": "RollingUpdate",
			"rollingUpdate": map[string]any{"maxSurge": int64(3), "maxUnavailable": int64(2)}}
		c.Create(t, app.Deployments, "default", obj)
		c.Eventually(t, 30*time.Second, func() bool { readyAll(t, c); return rolledOut(t, c, "web") })
		update(t, c, "web", setImage("nginx:does-not-start")) // the new pods never become ready
		c.Eventually(t, 30*time.Second, func() bool { return sizes(t, c) == "r1=8 r2=5" }, "stuck rollout")
		update(t, c, "web", setReplicas(15))
		// 18 allowed, 13 there: 5 to add; old gets round(8*18/13)-8 = 3, new the other 2
		c.Eventually(t, 30*time.Second, func() bool { return sizes(t, c) == "r1=11 r2=7" }, "proportional: %s", sizes(t, c))
		for _, rs := range replicaSets(t, c) {
			require.Equal(t, "15", rs.GetAnnotations()[deployment.DesiredReplicasAnnotation])
			require.Equal(t, "18", rs.GetAnnotations()[deployment.MaxReplicasAnnotation])
		}
	})
}

package apiserver

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// The status subresource at the HTTP level (docs/behaviour/wire.md U2, U5, P5, 0.3): the main resource
// and …/status each own half of the object, and generation follows the spec alone. These
// are the server half of chapter 00's status-subresource section.

// putPod PUTs p to path and decodes the answer.
func putPod(t *testing.T, c *client, path string, p *api.Pod) (int, *api.Pod) {
	t.Helper()
	r := c.do("PUT", path, p)
	if r.code != 200 {
		return r.code, nil
	}
	var out api.Pod
	r.decode(t, &out)
	return r.code, &out
}

// TestCh00_StatusSubresource_Pods_U2_P5: for pods, a PUT on the main resource keeps the
// stored status whatever the body says; a PUT on …/status changes the status and nothing
// else; generation moves on spec changes only.
func TestCh00_StatusSubresource_Pods_U2_P5(t *testing.T) {
	const item = "/api/v1/namespaces/default/pods/a"
	tests := []struct {
		name    string
		path    string
		change  func(p *api.Pod)
		wantRV  bool // a new revision (false: a no-op, 0.3)
		wantGen int64
		check   func(t *testing.T, p *api.Pod)
	}{
		{
			name:    "main: status only is a no-op",
			path:    item,
			change:  func(p *api.Pod) { p.Status.Phase = api.PodRunning; p.Status.PodIP = "10.0.0.1" },
			wantGen: 1,
			check: func(t *testing.T, p *api.Pod) {
				assert.Equal(t, api.PodPending, p.Status.Phase, "status kept")
				assert.Empty(t, p.Status.PodIP)
			},
		},
		{
			name:    "main: spec changes, status ignored, generation bumps",
			path:    item,
			change:  func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:2"; p.Status.Phase = api.PodFailed },
			wantRV:  true,
			wantGen: 2,
			check: func(t *testing.T, p *api.Pod) {
				assert.Equal(t, "nginx:2", p.Spec.Containers[0].Image)
				assert.Equal(t, api.PodPending, p.Status.Phase)
			},
		},
		{
			name:    "main: labels change, generation stays",
			path:    item,
			change:  func(p *api.Pod) { p.Labels = map[string]string{"app": "web"} },
			wantRV:  true,
			wantGen: 1,
			check:   func(t *testing.T, p *api.Pod) { assert.Equal(t, "web", p.Labels["app"]) },
		},
		{
			name: "status: only the status changes, generation stays",
			path: item + "/status",
			change: func(p *api.Pod) {
				p.Status.Phase = api.PodRunning
				p.Spec.Containers[0].Image = "ignored:1"
				p.Labels = map[string]string{"ignored": "yes"}
			},
			wantRV:  true,
			wantGen: 1,
			check: func(t *testing.T, p *api.Pod) {
				assert.Equal(t, api.PodRunning, p.Status.Phase)
				assert.Equal(t, "busybox", p.Spec.Containers[0].Image, "spec kept")
				assert.Empty(t, p.Labels, "metadata kept")
			},
		},
		{
			name:    "status: spec only is a no-op",
			path:    item + "/status",
			change:  func(p *api.Pod) { p.Spec.Containers[0].Image = "ignored:2" },
			wantGen: 1,
			check:   func(t *testing.T, p *api.Pod) { assert.Equal(t, "busybox", p.Spec.Containers[0].Image) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c := newServer(t, Options{})
			created := mustCreate(t, s, "pods", "default", pod("default", "a", nil)).(*api.Pod)
			require.Equal(t, int64(1), created.Generation)
			upd := created.DeepCopy()
			tt.change(upd)
			code, got := putPod(t, c, tt.path, upd)
			require.Equal(t, 200, code)
			assert.Equal(t, tt.wantGen, got.Generation, "generation")
			assert.Equal(t, tt.wantRV, got.ResourceVersion != created.ResourceVersion, "new resourceVersion")
			tt.check(t, got)
			// What GET returns is what the PUT answered.
			var stored api.Pod
			c.get(item).decode(t, &stored)
			assert.Equal(t, got.ResourceVersion, stored.ResourceVersion)
			tt.check(t, &stored)
		})
	}
}

// TestCh00_StatusSubresource_Patch_X1: PATCH follows the same split as PUT.
func TestCh00_StatusSubresource_Patch_X1(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	merge := []string{"Content-Type", "application/merge-patch+json"}

	r := c.do("PATCH", "/api/v1/namespaces/default/pods/a", `{"status":{"phase":"Running"},"metadata":{"labels":{"x":"1"}}}`, merge...)
	require.Equal(t, 200, r.code, "%s", r.body)
	var p api.Pod
	r.decode(t, &p)
	assert.Equal(t, api.PodPending, p.Status.Phase, "a patch of the main resource cannot set the status")
	assert.Equal(t, "1", p.Labels["x"])

	r = c.do("PATCH", "/api/v1/namespaces/default/pods/a/status", `{"status":{"phase":"Running"},"metadata":{"labels":{"x":"2"}}}`, merge...)
	require.Equal(t, 200, r.code, "%s", r.body)
	r.decode(t, &p)
	assert.Equal(t, api.PodRunning, p.Status.Phase)
	assert.Equal(t, "1", p.Labels["x"], "a patch of the status cannot set labels")
	assert.Equal(t, int64(1), p.Generation)
}

// TestCh00_StatusSubresource_Namespace_U5: /api/v1/namespaces/{name}/status is the status of
// the namespace (U5), and the main resource keeps the stored status.
func TestCh00_StatusSubresource_Namespace_U5(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}})
	var ns api.Namespace
	c.get("/api/v1/namespaces/team").decode(t, &ns)
	ns.Status.Phase = api.NamespaceTerminating
	ns.Labels = map[string]string{"env": "dev"}
	r := c.do("PUT", "/api/v1/namespaces/team", &ns)
	require.Equal(t, 200, r.code, "%s", r.body)
	var got api.Namespace
	r.decode(t, &got)
	assert.Equal(t, api.NamespaceActive, got.Status.Phase, "status kept")
	assert.Equal(t, "dev", got.Labels["env"])

	r = c.get("/api/v1/namespaces/team/status")
	require.Equal(t, 200, r.code)
	r.decode(t, &got)
	assert.Equal(t, "team", got.Name)
}

// TestCh00_StatusSubresource_RegisteredKind_P5: a registered kind (a custom resource with the
// status subresource) splits the same way; its generation moves on any change outside
// metadata and status.
func TestCh00_StatusSubresource_RegisteredKind_P5(t *testing.T) {
	widgets := ResourceInfo{Group: "example.dev", Version: "v1", Resource: "widgets", Kind: "Widget", Namespaced: true, ReturnDeletedObject: true}
	_, c := newServer(t, Options{Resources: []ResourceInfo{widgets}})
	const coll = "/apis/example.dev/v1/namespaces/default/widgets"
	r := c.do("POST", coll, `{"apiVersion":"example.dev/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":1}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	decode := func(r response) map[string]any {
		t.Helper()
		require.Equal(t, 200, r.code, "%s", r.body)
		var m map[string]any
		require.NoError(t, json.Unmarshal(r.body, &m))
		return m
	}
	rvOfMap := func(m map[string]any) string { return m["metadata"].(map[string]any)["resourceVersion"].(string) }
	genOf := func(m map[string]any) float64 { return m["metadata"].(map[string]any)["generation"].(float64) }
	cur := decode(c.get(coll + "/w"))

	// Status through the main resource: ignored, so nothing is written.
	cur["status"] = map[string]any{"ready": true}
	got := decode(c.do("PUT", coll+"/w", cur))
	assert.Nil(t, got["status"])
	assert.Equal(t, rvOfMap(cur), rvOfMap(got), "0.3: a no-op keeps the resourceVersion")

	// Status through …/status: written; spec in the same body ignored; generation stays.
	got["status"] = map[string]any{"ready": true}
	got["spec"] = map[string]any{"size": 9}
	got = decode(c.do("PUT", coll+"/w/status", got))
	assert.Equal(t, map[string]any{"ready": true}, got["status"])
	assert.Equal(t, map[string]any{"size": float64(1)}, got["spec"])
	assert.Equal(t, float64(1), genOf(got))

	// Spec through the main resource: generation 2, status kept even though the body drops it.
	delete(got, "status")
	got["spec"] = map[string]any{"size": 2}
	got = decode(c.do("PUT", coll+"/w", got))
	assert.Equal(t, float64(2), genOf(got))
	assert.Equal(t, map[string]any{"ready": true}, got["status"])
}

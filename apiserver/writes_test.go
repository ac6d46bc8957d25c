package apiserver

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_Create checks C1, C2, C4, T2: 201 with server-set fields; kind and apiVersion may
// be omitted; a second create is 409 AlreadyExists; generateName gets 5 characters.
func TestCh01_Create(t *testing.T) {
	s, c := newServer(t, Options{})
	r := c.do("POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"a","uid":"mine","creationTimestamp":"2001-01-01T00:00:00Z"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	var p api.Pod
	r.decode(t, &p)
	assert.Equal(t, "Pod", p.Kind)
	assert.Equal(t, "v1", p.APIVersion)
	assert.Equal(t, "default", p.Namespace)
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`), p.UID, "N8: client uid discarded")
	assert.NotEqual(t, 2001, p.CreationTimestamp.Year())
	assert.Equal(t, rvString(s), p.ResourceVersion)
	assert.Equal(t, int64(1), p.Generation, "C2: pods start at generation 1")
	assert.Equal(t, api.PodPending, p.Status.Phase)

	r = c.do("POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`)
	assert.Equal(t, 409, r.code)
	assert.Equal(t, api.StatusReasonAlreadyExists, r.status(t).Reason)

	r = c.do("POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"generateName":"cfg-"}}`)
	require.Equal(t, 201, r.code)
	var cm api.ConfigMap
	r.decode(t, &cm)
	assert.Regexp(t, `^cfg-[a-z0-9]{5}$`, cm.Name)
	assert.Zero(t, cm.Generation, "C2: configmaps have no generation")

	// a long generateName is cut to 58 characters before the suffix, as the real server does
	long := strings.Repeat("x", 70)
	r = c.do("POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"generateName":"`+long+`"}}`)
	require.Equal(t, 201, r.code)
	r.decode(t, &cm)
	assert.Regexp(t, `^x{58}[a-z0-9]{5}$`, cm.Name)

	r = c.do("POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`)
	require.Equal(t, 201, r.code)
	var ns api.Namespace
	r.decode(t, &ns)
	assert.Equal(t, api.NamespaceActive, ns.Status.Phase)
	assert.Empty(t, ns.Namespace)
}

// TestCh01_UpdateConcurrency checks P2, P3, P5, T12 and T13.
func TestCh01_UpdateConcurrency(t *testing.T) {
	s, c := newServer(t, Options{})
	created := mustCreate(t, s, "pods", "default", pod("default", "a", nil)).(*api.Pod)
	body := func(p *api.Pod) []byte { b, _ := json.Marshal(p); return b }

	stale := created.DeepCopy()
	stale.Labels = map[string]string{"v": "1"}
	r := c.do("PUT", "/api/v1/namespaces/default/pods/a", body(stale))
	require.Equal(t, 200, r.code)
	var v1 api.Pod
	r.decode(t, &v1)
	assert.Equal(t, int64(1), v1.Generation, "P5: a label change leaves generation alone")

	stale.Labels = map[string]string{"v": "2"}
	r = c.do("PUT", "/api/v1/namespaces/default/pods/a", body(stale))
	assert.Equal(t, 409, r.code, "T12: stale RV")
	assert.Equal(t, api.StatusReasonConflict, r.status(t).Reason)

	noRV := v1.DeepCopy()
	noRV.ResourceVersion = ""
	noRV.Spec.Containers[0].Image = "other" // one of the few pod spec fields an update may change
	r = c.do("PUT", "/api/v1/namespaces/default/pods/a", body(noRV))
	require.Equal(t, 200, r.code, "T12: no RV is unconditional")
	var v2 api.Pod
	r.decode(t, &v2)
	assert.Equal(t, int64(2), v2.Generation, "P5: a spec change bumps generation")
	assert.Equal(t, created.UID, v2.UID)
	assert.Equal(t, created.CreationTimestamp, v2.CreationTimestamp)

	// T13: a no-op PUT keeps the RV and sends no event.
	st := c.watch("/api/v1/namespaces/default/pods?watch=1&resourceVersion=" + v2.ResourceVersion)
	r = c.do("PUT", "/api/v1/namespaces/default/pods/a", body(&v2))
	require.Equal(t, 200, r.code)
	var same api.Pod
	r.decode(t, &same)
	assert.Equal(t, v2.ResourceVersion, same.ResourceVersion)
	assert.Equal(t, v2.ResourceVersion, rvString(s), "0.3: nothing written")
	setLabels(t, s, "default", "a", map[string]string{"next": "1"})
	assert.Equal(t, "MODIFIED a@"+rvString(s), st.next().short(t), "the first event is the real change")

	// P4: a body uid other than the stored one.
	wrong := same.DeepCopy()
	wrong.ResourceVersion, wrong.UID = "", "other"
	r = c.do("PUT", "/api/v1/namespaces/default/pods/a", body(wrong))
	assert.Equal(t, 409, r.code)
	assert.Contains(t, r.status(t).Message, "Precondition failed: UID in precondition: other")
}

// TestCh01_RegisteredKind checks §1 U1: a registered group kind is
// served under /apis/{g}/{v}, stored as Unstructured, with P3's per-resource switch.
func TestCh01_RegisteredKind(t *testing.T) {
	widgets := ResourceInfo{Group: "example.dev", Version: "v1", Resource: "widgets", Kind: "Widget", Namespaced: true, ShortNames: []string{"wd"}, ReturnDeletedObject: true}
	s, c := newServer(t, Options{Resources: []ResourceInfo{widgets}})
	r := c.do("POST", "/apis/example.dev/v1/namespaces/default/widgets", `{"apiVersion":"example.dev/v1","kind":"Widget","metadata":{"name":"web"},"spec":{"replicas":2}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	l := c.list(t, "/apis/example.dev/v1/widgets")
	assert.Equal(t, "WidgetList", l.Kind)
	assert.Equal(t, "example.dev/v1", l.APIVersion)
	assert.Equal(t, []string{"default/web"}, l.names())
	obj, err := s.Get(context.Background(), "wd", "default", "web")
	require.NoError(t, err)
	u := obj.(*api.Unstructured)
	assert.Equal(t, int64(1), u.GetGeneration())

	u.Object["spec"] = map[string]any{"replicas": int64(3)}
	u2, err := s.Update(context.Background(), "widgets.example.dev", "default", u)
	require.NoError(t, err)
	assert.Equal(t, int64(2), u2.(*api.Unstructured).GetGeneration(), "P5: custom kinds bump on any non-metadata change")

	r = c.do("POST", "/apis/example.dev/v1/namespaces/default/widgets", `{"apiVersion":"example.dev/v1","kind":"Widget","metadata":{"name":"w"},"size":1}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	r = c.do("PUT", "/apis/example.dev/v1/namespaces/default/widgets/w", `{"apiVersion":"example.dev/v1","kind":"Widget","metadata":{"name":"w"},"size":2}`)
	require.Equal(t, 422, r.code, "P3: custom resources need a resourceVersion")
	assert.Equal(t, `widgets.example.dev "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`, r.status(t).Message)

	require.Error(t, s.Register(widgets), "registered twice")
	require.Error(t, s.Register(ResourceInfo{Version: "v1", Resource: "Bad/x", Kind: "X"}))
}

// TestCh01_Patch checks X1, X3 and X5 over HTTP for our kinds.
func TestCh01_Patch(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", map[string]string{"keep": "1", "drop": "1"}))
	patch := func(ct, body string) (int, api.Pod) {
		r := c.do("PATCH", "/api/v1/namespaces/default/pods/a", body, "Content-Type", ct)
		var p api.Pod
		if r.code == 200 {
			r.decode(t, &p)
		}
		return r.code, p
	}
	code, p := patch("application/merge-patch+json", `{"metadata":{"labels":{"drop":null,"new":"x"}}}`)
	require.Equal(t, 200, code)
	assert.Equal(t, map[string]string{"keep": "1", "new": "x"}, p.Labels)
	assert.Equal(t, rvString(s), p.ResourceVersion)

	// A pod update may change little of the spec but the images: the patches change those.
	code, p = patch("application/strategic-merge-patch+json", `{"spec":{"containers":[{"name":"c","image":"x"}]}}`)
	require.Equal(t, 200, code)
	require.Len(t, p.Spec.Containers, 1, "X3: containers merge by name")
	assert.Equal(t, "x", p.Spec.Containers[0].Image)

	code, p = patch("application/json-patch+json", `[{"op":"replace","path":"/spec/containers/0/image","value":"y"}]`)
	require.Equal(t, 200, code)
	assert.Equal(t, "y", p.Spec.Containers[0].Image)
	assert.Equal(t, int64(3), p.Generation, "two spec changes")

	before := rvString(s)
	code, p = patch("application/merge-patch+json", `{"metadata":{"labels":{"new":"x"}}}`)
	require.Equal(t, 200, code)
	assert.Equal(t, before, p.ResourceVersion, "0.3: a no-op patch writes nothing")

	code, _ = patch("application/merge-patch+json", `{"metadata":{"resourceVersion":"2"}}`)
	assert.Equal(t, 409, code, "X5: a stale RV in the patch")
	code, _ = patch("application/merge-patch+json", `{"metadata":{"name":"b"}}`)
	assert.Equal(t, 400, code, "X5: renaming")

	// X4: apply creates a missing object, then merges.
	r := c.do("PATCH", "/api/v1/namespaces/default/configmaps/cfg?fieldManager=me", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"a":"1"}}`, "Content-Type", "application/apply-patch+yaml")
	require.Equal(t, 201, r.code, "%s", r.body)
	r = c.do("PATCH", "/api/v1/namespaces/default/configmaps/cfg?fieldManager=me", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"b":"2"}}`, "Content-Type", "application/apply-patch+yaml")
	require.Equal(t, 200, r.code, "%s", r.body)
	var cm api.ConfigMap
	r.decode(t, &cm)
	assert.Equal(t, "2", cm.Data["b"])

	// The Go API takes the same patch types.
	out, err := s.Patch(context.Background(), "pods", "default", "a", api.MergePatchType, []byte(`{"metadata":{"labels":{"go":"1"}}}`))
	require.NoError(t, err)
	assert.Equal(t, "1", out.(*api.Pod).Labels["go"])
}

// TestCh01_StatusSubresource checks U2/U5: PUT on …/status changes only the status.
func TestCh01_StatusSubresource(t *testing.T) {
	s, c := newServer(t, Options{})
	created := mustCreate(t, s, "pods", "default", pod("default", "a", nil)).(*api.Pod)
	upd := created.DeepCopy()
	upd.Status.Phase = api.PodRunning
	upd.Labels = map[string]string{"ignored": "yes"}
	b, _ := json.Marshal(upd)
	r := c.do("PUT", "/api/v1/namespaces/default/pods/a/status", b)
	require.Equal(t, 200, r.code, "%s", r.body)
	var p api.Pod
	r.decode(t, &p)
	assert.Equal(t, api.PodRunning, p.Status.Phase)
	assert.Empty(t, p.Labels)
	assert.Equal(t, 200, c.get("/api/v1/namespaces/default/pods/a/status").code)
	assert.Equal(t, 404, c.get("/api/v1/namespaces/default/configmaps/x/status").code)
	r = c.get("/api/v1/namespaces/default")
	require.Equal(t, 200, r.code)
	assert.Equal(t, 200, c.get("/api/v1/namespaces/default/status").code, "U5: status of namespace default")
}

// TestCh01_DeleteResponses checks D2 and D4: pods answer with the object at the delete RV,
// configmaps with a Success Status.
func TestCh01_DeleteResponses(t *testing.T) {
	s, c := newServer(t, Options{})
	cm := mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}}).(*api.ConfigMap)
	r := c.do("DELETE", "/api/v1/namespaces/default/configmaps/cfg", `{"propagationPolicy":"Background"}`)
	require.Equal(t, 200, r.code)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"cfg","kind":"configmaps","uid":"`+cm.UID+`"}}`, string(r.body))
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	r = c.do("DELETE", "/api/v1/namespaces/default/pods/a", nil)
	require.Equal(t, 200, r.code)
	var p api.Pod
	r.decode(t, &p)
	assert.Equal(t, rvString(s), p.ResourceVersion)
	assert.Equal(t, 404, c.get("/api/v1/namespaces/default/pods/a").code, "T6: gone at once")
}

// TestCh01_Finalizers checks D3: an object with finalizers is marked (MODIFIED) and goes
// (DELETED) once an update empties them.
func TestCh01_Finalizers(t *testing.T) {
	s, c := newServer(t, Options{})
	ctx := context.Background()
	p := pod("default", "a", nil)
	p.Finalizers = []string{"example.com/f"}
	mustCreate(t, s, "pods", "default", p)
	st := c.watch("/api/v1/namespaces/default/pods?watch=1&resourceVersion=" + rvString(s))
	r := c.do("DELETE", "/api/v1/namespaces/default/pods/a", nil)
	require.Equal(t, 200, r.code)
	var marked api.Pod
	r.decode(t, &marked)
	require.NotNil(t, marked.DeletionTimestamp)
	assert.Equal(t, "MODIFIED a@"+rvString(s), st.next().short(t))
	before := rvString(s)
	r = c.do("DELETE", "/api/v1/namespaces/default/pods/a", nil)
	require.Equal(t, 200, r.code)
	assert.Equal(t, before, rvString(s), "a second delete of a marked object writes nothing")

	marked.Finalizers = nil
	_, err := s.Update(ctx, "pods", "default", &marked)
	require.NoError(t, err)
	assert.Equal(t, "DELETED a@"+rvString(s), st.next().short(t))
	_, err = s.Get(ctx, "pods", "default", "a")
	assert.True(t, api.IsNotFound(err))
}

// TestCh01_NamespaceLifecycle checks NS1–NS4: deleting a namespace marks it Terminating,
// deletes its contents, and removes it once empty; finalizer-held contents keep it.
// It runs with NamespaceDeletionInServer: the server empties the namespace itself.
func TestCh01_NamespaceLifecycle(t *testing.T) {
	s, c := newServer(t, Options{NamespaceDeletion: NamespaceDeletionInServer})
	ctx := context.Background()
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}})
	mustCreate(t, s, "pods", "team", pod("team", "a", nil))
	held := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "held", Finalizers: []string{"x/y"}}}
	mustCreate(t, s, "configmaps", "team", held)
	nsWatch := c.watch("/api/v1/namespaces?watch=1&resourceVersion=" + rvString(s))

	r := c.do("DELETE", "/api/v1/namespaces/team", nil)
	require.Equal(t, 200, r.code)
	var ns api.Namespace
	r.decode(t, &ns)
	assert.Equal(t, api.NamespaceTerminating, ns.Status.Phase, "NS4")
	require.NotNil(t, ns.DeletionTimestamp)
	assert.Equal(t, "MODIFIED", nsWatch.next().Type)
	assert.Equal(t, 404, c.get("/api/v1/namespaces/team/pods/a").code, "contents deleted")
	assert.Equal(t, 403, c.do("POST", "/api/v1/namespaces/team/pods", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`).code, "NS2")

	cm, err := s.Get(ctx, "configmaps", "team", "held")
	require.NoError(t, err)
	require.NotNil(t, cm.(*api.ConfigMap).DeletionTimestamp)
	cm.(*api.ConfigMap).Finalizers = nil
	_, err = s.Update(ctx, "configmaps", "team", cm)
	require.NoError(t, err)
	assert.Equal(t, "DELETED team@"+rvString(s), nsWatch.next().short(t), "gone once empty")
	assert.Equal(t, 404, c.get("/api/v1/namespaces/team").code)
	assert.Equal(t, 404, c.do("POST", "/api/v1/namespaces/team/pods", `{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`).code, "NS1")

	// An empty namespace goes at once.
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "empty"}})
	out, err := s.Delete(ctx, "namespaces", "", "empty", nil)
	require.NoError(t, err)
	assert.Equal(t, rvString(s), out.(*api.Namespace).ResourceVersion)
	_, err = s.Get(ctx, "namespaces", "", "empty")
	assert.True(t, api.IsNotFound(err))
}

// TestCh01_DeleteCollection checks D6: DELETE on a collection with a selector.
func TestCh01_DeleteCollection(t *testing.T) {
	s, c := newServer(t, Options{})
	for i, app := range []string{"a", "b", "a"} {
		mustCreate(t, s, "pods", "default", pod("default", "p"+strconv.Itoa(i), map[string]string{"app": app}))
	}
	r := c.do("DELETE", "/api/v1/namespaces/default/pods?labelSelector=app%3Da", nil)
	require.Equal(t, 200, r.code, "%s", r.body)
	var l wireList
	r.decode(t, &l)
	assert.Equal(t, []string{"default/p0", "default/p2"}, l.names())
	assert.Equal(t, []string{"default/p1"}, c.list(t, "/api/v1/pods").names())
	assert.Equal(t, 405, c.do("DELETE", "/api/v1/namespaces", nil).code, "namespaces have no deletecollection")
}

// TestCh01_DeepCopy checks H-8: objects handed in and out are never the server's.
func TestCh01_DeepCopy(t *testing.T) {
	checkNoLeak(t)
	s := New(Options{})
	defer s.Close()
	ctx := context.Background()
	in := pod("default", "a", map[string]string{"k": "v"})
	out := mustCreate(t, s, "pods", "default", in).(*api.Pod)
	in.Labels["k"] = "changed-in"
	out.Labels["k"] = "changed-out"
	got, err := s.Get(ctx, "pods", "default", "a")
	require.NoError(t, err)
	assert.Equal(t, "v", got.(*api.Pod).Labels["k"])
	list, err := s.List(ctx, "pods", "", api.ListOptions{})
	require.NoError(t, err)
	list.(*api.PodList).Items[0].Labels["k"] = "changed-list"
	got, _ = s.Get(ctx, "pods", "default", "a")
	assert.Equal(t, "v", got.(*api.Pod).Labels["k"])
	assert.True(t, strings.HasPrefix(got.(*api.Pod).UID, got.(*api.Pod).UID[:8]))
}

package kubernetes_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/kubernetes"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/rest"
)

// Tests of the typed clientset against the simulated apiserver over HTTP. Production code
// never imports apiserver; tests may.

func startServer(t *testing.T) (*apiserver.Server, *rest.Config) {
	t.Helper()
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	_, err := srv.Create(context.Background(), "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}})
	require.NoError(t, err)
	return srv, &rest.Config{Host: srv.URL()}
}

func newClientset(t *testing.T, cfg *rest.Config) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	return cs
}

func newPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx:1"}}}}
}

// TestCh00_ClientsetPods: every PodInterface call, typed in and typed out.
func TestCh00_ClientsetPods(t *testing.T) {
	_, cfg := startServer(t)
	pods := newClientset(t, cfg).CoreV1().Pods("demo")
	ctx := context.Background()

	created, err := pods.Create(ctx, newPod("web"), api.CreateOptions{FieldManager: "ch00"})
	require.NoError(t, err)
	assert.Equal(t, "demo", created.Namespace)
	assert.Equal(t, "Pod", created.Kind)
	assert.Equal(t, api.PodPending, created.Status.Phase)

	got, err := pods.Get(ctx, "web", api.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, created.UID, got.UID)

	_, err = pods.Create(ctx, newPod("db"), api.CreateOptions{})
	require.NoError(t, err)
	list, err := pods.List(ctx, api.ListOptions{LabelSelector: ""})
	require.NoError(t, err)
	assert.Equal(t, "PodList", list.Kind)
	assert.Equal(t, []string{"db", "web"}, podNames(list))

	got.Spec.Containers[0].Image = "nginx:2"
	updated, err := pods.Update(ctx, got, api.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "nginx:2", updated.Spec.Containers[0].Image)
	assert.Equal(t, int64(2), updated.Generation, "P5: a spec change bumps generation")

	updated.Status.Phase = api.PodRunning
	running, err := pods.UpdateStatus(ctx, updated, api.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, api.PodRunning, running.Status.Phase)
	assert.Equal(t, int64(2), running.Generation, "a status write leaves generation alone")

	patched, err := pods.Patch(ctx, "web", api.StrategicMergePatchType, []byte(`{"metadata":{"labels":{"app":"web"}}}`), api.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, "web", patched.Labels["app"])
	patched, err = pods.Patch(ctx, "web", api.MergePatchType, []byte(`{"status":{"podIP":"10.0.0.7"}}`), api.PatchOptions{}, "status")
	require.NoError(t, err)
	assert.Equal(t, "10.0.0.7", patched.Status.PodIP)

	require.NoError(t, pods.Delete(ctx, "web", api.DeleteOptions{}))
	_, err = pods.Get(ctx, "web", api.GetOptions{})
	assert.True(t, api.IsNotFound(err), "%v", err)

	require.NoError(t, pods.DeleteCollection(ctx, api.DeleteOptions{}, api.ListOptions{}))
	list, err = pods.List(ctx, api.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list.Items)
}

func podNames(l *api.PodList) []string {
	var out []string
	for _, p := range l.Items {
		out = append(out, p.Name)
	}
	return out
}

// TestCh00_ClientsetConfigMapsAndNamespaces: the other two kinds, one namespaced without
// status, one cluster-scoped.
func TestCh00_ClientsetConfigMapsAndNamespaces(t *testing.T) {
	_, cfg := startServer(t)
	core := newClientset(t, cfg).CoreV1()
	ctx := context.Background()

	cms := core.ConfigMaps("demo")
	cm, err := cms.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}, Data: map[string]string{"k": "v"}}, api.CreateOptions{})
	require.NoError(t, err)
	cm.Data["k"] = "w"
	cm, err = cms.Update(ctx, cm, api.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "w", cm.Data["k"])
	cm, err = cms.Patch(ctx, "cfg", api.JSONPatchType, []byte(`[{"op":"add","path":"/data/x","value":"1"}]`), api.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"k": "w", "x": "1"}, cm.Data)
	cmList, err := cms.List(ctx, api.ListOptions{})
	require.NoError(t, err)
	require.Len(t, cmList.Items, 1)
	require.NoError(t, cms.Delete(ctx, "cfg", api.DeleteOptions{}))

	nss := core.Namespaces()
	ns, err := nss.Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}}, api.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, api.NamespaceActive, ns.Status.Phase)
	assert.Empty(t, ns.Namespace, "cluster-scoped")
	ns.Labels = map[string]string{"env": "dev"}
	ns, err = nss.Update(ctx, ns, api.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "dev", ns.Labels["env"])
	_, err = nss.UpdateStatus(ctx, ns, api.UpdateOptions{})
	require.NoError(t, err)
	nsList, err := nss.List(ctx, api.ListOptions{})
	require.NoError(t, err)
	var names []string
	for _, n := range nsList.Items {
		names = append(names, n.Name)
	}
	assert.Equal(t, []string{"default", "demo", "kube-public", "kube-system", "team"}, names)
	require.NoError(t, nss.Delete(ctx, "team", api.DeleteOptions{}))
	// No namespace controller runs beside this server, so the namespace stays Terminating,
	// as on a real server without kube-controller-manager.
	ns, err = nss.Get(ctx, "team", api.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, api.NamespaceTerminating, ns.Status.Phase)
	assert.NotNil(t, ns.DeletionTimestamp)
}

// TestCh00_ClientsetWatch: Watch streams typed pods; List then Watch from the list's RV sees
// exactly what happened after it (W11).
func TestCh00_ClientsetWatch(t *testing.T) {
	_, cfg := startServer(t)
	pods := newClientset(t, cfg).CoreV1().Pods("demo")
	ctx := context.Background()
	_, err := pods.Create(ctx, newPod("a"), api.CreateOptions{})
	require.NoError(t, err)
	list, err := pods.List(ctx, api.ListOptions{})
	require.NoError(t, err)

	w, err := pods.Watch(ctx, api.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()
	_, err = pods.Create(ctx, newPod("b"), api.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, pods.Delete(ctx, "a", api.DeleteOptions{}))

	var got []string
	for len(got) < 2 {
		select {
		case ev := <-w.ResultChan():
			p, ok := ev.Object.(*api.Pod)
			require.True(t, ok, "typed event object, got %T", ev.Object)
			got = append(got, string(ev.Type)+" "+p.Name)
		case <-time.After(10 * time.Second):
			t.Fatal("no event")
		}
	}
	assert.Equal(t, []string{string(watch.Added) + " b", string(watch.Deleted) + " a"}, got)
}

// instantClock makes the client's Retry-After waits fire at once, so a test can exhaust the
// retries of a 429 without waiting ten real seconds.
type instantClock struct{ clock.RealClock }

type firedTimer struct{ c chan time.Time }

func (f firedTimer) C() <-chan time.Time      { return f.c }
func (f firedTimer) Stop() bool               { return false }
func (f firedTimer) Reset(time.Duration) bool { return false }

func (instantClock) NewTimer(time.Duration) clock.Timer {
	c := make(chan time.Time, 1)
	c <- time.Now()
	return firedTimer{c}
}

// TestCh00_ClientsetTypedErrors_S1_S2: every failure the server can give comes back as an error
// the api.Is* predicates recognise (S1, S2): the clientset adds nothing and loses nothing.
func TestCh00_ClientsetTypedErrors_S1_S2(t *testing.T) {
	srv, cfg := startServer(t)
	cfg.Clock = instantClock{}
	core := newClientset(t, cfg).CoreV1()
	pods := core.Pods("demo")
	ctx := context.Background()
	existing, err := pods.Create(ctx, newPod("a"), api.CreateOptions{})
	require.NoError(t, err)
	stale := existing.DeepCopy()
	existing.Labels = map[string]string{"v": "2"}
	_, err = pods.Update(ctx, existing, api.UpdateOptions{})
	require.NoError(t, err)

	var once sync.Once
	tests := []struct {
		name string
		call func() error
		is   func(error) bool
		code int32
	}{
		{"NotFound: get a missing pod", func() error { _, err := pods.Get(ctx, "nope", api.GetOptions{}); return err }, api.IsNotFound, 404},
		{"AlreadyExists: create twice", func() error { _, err := pods.Create(ctx, newPod("a"), api.CreateOptions{}); return err }, api.IsAlreadyExists, 409},
		{"Conflict: update from a stale read", func() error { _, err := pods.Update(ctx, stale, api.UpdateOptions{}); return err }, api.IsConflict, 409},
		{"Invalid: a name that is not DNS-1123", func() error { _, err := pods.Create(ctx, newPod("Bad_Name"), api.CreateOptions{}); return err }, api.IsInvalid, 422},
		{"BadRequest: namespace mismatch", func() error {
			p := newPod("x")
			p.Namespace = "other"
			_, err := pods.Create(ctx, p, api.CreateOptions{})
			return err
		}, api.IsBadRequest, 400},
		{"Forbidden: delete namespace default", func() error { return core.Namespaces().Delete(ctx, "default", api.DeleteOptions{}) }, api.IsForbidden, 403},
		{"NotFound: create in a missing namespace", func() error {
			_, err := core.Pods("missing").Create(ctx, newPod("x"), api.CreateOptions{})
			return err
		}, api.IsNotFound, 404},
		{"ResourceExpired: an exact list at a compacted RV", func() error {
			once.Do(srv.CompactAll)
			_, err := pods.List(ctx, api.ListOptions{ResourceVersion: stale.ResourceVersion, ResourceVersionMatch: api.ResourceVersionMatchExact})
			return err
		}, api.IsResourceExpired, 410},
		{"Gone: a 410 without a Status (older servers)", func() error {
			srv.FailNext(apiserver.FailRule{Verb: "get", Resource: "pods", Count: 1, Code: 410})
			_, err := pods.Get(ctx, "a", api.GetOptions{})
			return err
		}, api.IsGone, 410},
		{"TooManyRequests: 429 beyond the 10 retries", func() error {
			srv.FailNext(apiserver.FailRule{Verb: "list", Resource: "pods", Count: 11, Code: 429, RetryAfterSeconds: 1})
			_, err := pods.List(ctx, api.ListOptions{})
			return err
		}, api.IsTooManyRequests, 429},
		{"MethodNotSupported: PUT on the collection", func() error {
			return core.RESTClient().Put().Namespace("demo").Resource("pods").Body(newPod("x")).Do(ctx).Error()
		}, api.IsMethodNotSupported, 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.Error(t, err)
			assert.True(t, tt.is(err), "predicate false for %T: %v", err, err)
			st, ok := err.(*api.Status)
			require.True(t, ok, "want *api.Status, got %T", err)
			assert.Equal(t, tt.code, st.Code)
		})
	}
	// The 429 rule was used up by exactly 1+10 requests: the 12th list succeeds.
	_, err = pods.List(ctx, api.ListOptions{})
	require.NoError(t, err)
}

// TestCh00_ClientsetBadInput: nil objects, empty names and a nil Config are errors, never
// panics, and the caller's Config is not changed.
func TestCh00_ClientsetBadInput(t *testing.T) {
	_, err := kubernetes.NewForConfig(nil)
	require.Error(t, err)
	_, err = kubernetes.NewForConfig(&rest.Config{})
	require.Error(t, err)

	_, cfg := startServer(t)
	cfg.Scheme = api.NewScheme() // would decode everything as Unstructured; the clientset ignores it
	cs := newClientset(t, cfg)
	assert.NotNil(t, cfg.Scheme, "the caller's Config is left alone")
	ctx := context.Background()
	pods := cs.CoreV1().Pods("demo")

	_, err = pods.Create(ctx, nil, api.CreateOptions{})
	assert.ErrorContains(t, err, "needs an object")
	_, err = pods.Update(ctx, nil, api.UpdateOptions{})
	assert.ErrorContains(t, err, "needs an object")
	_, err = pods.UpdateStatus(ctx, &api.Pod{}, api.UpdateOptions{})
	assert.ErrorContains(t, err, "metadata.name")
	_, err = pods.Get(ctx, "", api.GetOptions{})
	assert.ErrorContains(t, err, "resource name may not be empty")
	_, err = pods.Get(ctx, "a/b", api.GetOptions{})
	assert.ErrorContains(t, err, "may not contain '/'")
	p, err := pods.Create(ctx, newPod("typed"), api.CreateOptions{})
	require.NoError(t, err, "typed decode despite the empty Scheme in the Config")
	assert.Equal(t, "typed", p.Name)
	require.NotNil(t, cs.Discovery())
}

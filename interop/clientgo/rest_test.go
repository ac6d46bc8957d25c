package clientgo_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// object is what pods and configmaps have in common for the REST client tests.
type object interface {
	runtime.Object
	metav1.Object
}

// put sends obj with PUT through client-go's REST client and decodes the answer into a new
// object of obj's type.
func put(ctx context.Context, rc rest.Interface, resource string, obj object) (object, int, error) {
	out := obj.DeepCopyObject().(object)
	var code int
	err := rc.Put().Namespace(obj.GetNamespace()).Resource(resource).Name(obj.GetName()).
		Body(obj).Do(ctx).StatusCode(&code).Into(out)
	return out, code, err
}

func withLabel(obj object, k, v string) object {
	out := obj.DeepCopyObject().(object)
	labels := map[string]string{}
	for lk, lv := range out.GetLabels() {
		labels[lk] = lv
	}
	labels[k] = v
	out.SetLabels(labels)
	return out
}

// TestInterop_T12_PutResourceVersion: through client-go's REST client, a PUT carrying a
// stale resourceVersion is 409 Conflict (apierrors.IsConflict, E20), and a PUT without one
// is an unconditional 200 (T12), for pods and configmaps.
func TestInterop_T12_PutResourceVersion(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	rc := env.Clientset(t).CoreV1().RESTClient()
	ctx := context.Background()

	tests := []struct {
		resource string
		obj      object
	}{
		{"pods", &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
		}},
		{"configmaps", &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"},
			Data:       map[string]string{"k": "v"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.resource, func(t *testing.T) {
			created := tc.obj.DeepCopyObject().(object)
			require.NoError(t, rc.Post().Namespace("default").Resource(tc.resource).Body(tc.obj).Do(ctx).Into(created))
			v1RV := created.GetResourceVersion()

			updated, code, err := put(ctx, rc, tc.resource, withLabel(created, "rev", "1"))
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, code)
			require.NotEqual(t, v1RV, updated.GetResourceVersion())

			// The copy read before the update is stale now.
			_, code, err = put(ctx, rc, tc.resource, withLabel(created, "rev", "stale"))
			require.Error(t, err)
			assert.True(t, apierrors.IsConflict(err), "want 409 Conflict, got %v", err)
			assert.Equal(t, http.StatusConflict, code)
			assert.Contains(t, err.Error(), "the object has been modified; please apply your changes to the latest version and try again")

			// Without a resourceVersion the update is unconditional.
			noRV := withLabel(updated, "rev", "2")
			noRV.SetResourceVersion("")
			last, code, err := put(ctx, rc, tc.resource, noRV)
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, code)
			assert.Equal(t, "2", last.GetLabels()["rev"])
			assert.Greater(t, mustAtoi(t, last.GetResourceVersion()), mustAtoi(t, updated.GetResourceVersion()))
		})
	}
	puts := env.Recorder.Matching(func(r wiretest.Request) bool { return r.Verb() == "update" })
	var codes []int
	for _, r := range puts {
		codes = append(codes, r.Status)
	}
	assert.Equal(t, []int{200, 409, 200, 200, 409, 200}, codes, "what went over the wire")
}

// TestInterop_T13_NoOpPutKeepsRVAndSendsNoEvent: a PUT that changes nothing answers 200
// with the same resourceVersion, bumps no revision and sends no watch event; the next
// changing PUT is the first event the watch sees (0.3, R16, T13).
func TestInterop_T13_NoOpPutKeepsRVAndSendsNoEvent(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cs := env.Clientset(t)
	rc := cs.CoreV1().RESTClient()
	ctx := context.Background()

	cm, err := cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "quiet"}, Data: map[string]string{"k": "v"},
	}, metav1.CreateOptions{})
	require.NoError(t, err)

	w := watchConfigMaps(t, rc, metav1.ListOptions{ResourceVersion: cm.ResourceVersion})
	revBefore := env.Server.ResourceVersion()

	same, code, err := put(ctx, rc, "configmaps", cm)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, cm.ResourceVersion, same.GetResourceVersion(), "a no-op PUT keeps the RV")
	assert.Equal(t, revBefore, env.Server.ResourceVersion(), "and writes no revision")

	changed := cm.DeepCopy()
	changed.Data["k"] = "v2"
	after, _, err := put(ctx, rc, "configmaps", changed)
	require.NoError(t, err)
	require.NotEqual(t, cm.ResourceVersion, after.GetResourceVersion())

	ev := nextEvent(t, w)
	assert.Equal(t, watch.Modified, ev.Type)
	got := ev.Object.(*corev1.ConfigMap)
	assert.Equal(t, after.GetResourceVersion(), got.ResourceVersion, "the first event is the changing PUT")
	assert.Equal(t, "v2", got.Data["k"])

	watches := env.Recorder.Matching(func(r wiretest.Request) bool { return r.Verb() == "watch" })
	require.Len(t, watches, 1)
	assert.Equal(t, []string{"MODIFIED"}, wiretest.EventTypes(watches[0].Events()), "nothing on the wire for the no-op PUT")
}

// TestInterop_T14_SelectorWatchSeesRelabels: a watch with labelSelector app=a sees a relabel
// from a to b as DELETED carrying the previous (matching) state at the new RV, and the
// relabel back as ADDED; objects that never match produce nothing (W14, T14).
func TestInterop_T14_SelectorWatchSeesRelabels(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cs := env.Clientset(t)
	cms := cs.CoreV1().ConfigMaps("default")
	ctx := context.Background()

	x, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x", Labels: map[string]string{"app": "a"}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	w := watchConfigMaps(t, cs.CoreV1().RESTClient(), metav1.ListOptions{LabelSelector: "app=a", ResourceVersion: x.ResourceVersion})

	relabel := func(name, app string) *corev1.ConfigMap {
		t.Helper()
		out, err := cms.Patch(ctx, name, types.MergePatchType, []byte(`{"metadata":{"labels":{"app":"`+app+`"}}}`), metav1.PatchOptions{})
		require.NoError(t, err)
		return out
	}

	toB := relabel("x", "b")
	ev := nextEvent(t, w)
	assert.Equal(t, watch.Deleted, ev.Type)
	gone := ev.Object.(*corev1.ConfigMap)
	assert.Equal(t, "x", gone.Name)
	assert.Equal(t, "a", gone.Labels["app"], "DELETED carries the last matching state")
	assert.Equal(t, toB.ResourceVersion, gone.ResourceVersion, "at the relabel's RV")

	// Never matching: no event.
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "y", Labels: map[string]string{"app": "b"}}}, metav1.CreateOptions{})
	require.NoError(t, err)

	toA := relabel("x", "a")
	ev = nextEvent(t, w)
	assert.Equal(t, watch.Added, ev.Type)
	back := ev.Object.(*corev1.ConfigMap)
	assert.Equal(t, "x", back.Name)
	assert.Equal(t, toA.ResourceVersion, back.ResourceVersion)

	watches := env.Recorder.Matching(func(r wiretest.Request) bool { return r.Verb() == "watch" })
	require.Len(t, watches, 1)
	assert.Equal(t, "app=a", watches[0].Query.Get("labelSelector"))
	assert.Equal(t, []string{"DELETED", "ADDED"}, wiretest.EventTypes(watches[0].Events()))
}

// TestInterop_T15_Bookmarks: with allowWatchBookmarks=true and a short BookmarkPeriod,
// BOOKMARKs arrive carrying kind and apiVersion, and their RVs follow the store's revision
// even when the watched namespace is quiet (W16, W17); with it false none arrive during a
// whole watch (T15). The stream is read raw, as bytes, through client-go's REST client.
func TestInterop_T15_Bookmarks(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{BookmarkPeriod: 50 * time.Millisecond})
	cs := env.Clientset(t)
	rc := cs.CoreV1().RESTClient()
	ctx := context.Background()

	// Writes elsewhere move the global revision without an event on the watched namespace.
	writes := 0
	writeElsewhere := func() uint64 {
		t.Helper()
		writes++
		_, err := env.Server.Create(ctx, "configmaps", "kube-public", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "tick-" + strconv.Itoa(writes)}})
		require.NoError(t, err)
		return env.Server.ResourceVersion()
	}

	t.Run("allowed", func(t *testing.T) {
		env.Recorder.Reset()
		start := strconv.FormatUint(env.Server.ResourceVersion(), 10)
		frames, stop := rawWatch(t, rc, metav1.ListOptions{ResourceVersion: start, AllowWatchBookmarks: true})
		defer stop()

		// Three rounds: write elsewhere, then wait for the bookmark that reports it.
		var marks []uint64
		for range 3 {
			target := writeElsewhere()
			for {
				f := frames()
				require.Equal(t, "BOOKMARK", f.Type, "the watched namespace is quiet")
				assert.Equal(t, "ConfigMap", f.Object.Kind)
				assert.Equal(t, "v1", f.Object.APIVersion)
				assert.Empty(t, f.Object.Metadata.Annotations, "only the watch-list end bookmark is annotated (W7)")
				rv := uint64(mustAtoi(t, f.Object.Metadata.ResourceVersion))
				if len(marks) > 0 {
					require.GreaterOrEqual(t, rv, marks[len(marks)-1], "RVs on a stream never go back")
				}
				marks = append(marks, rv)
				if rv >= target {
					break
				}
			}
		}
		assert.GreaterOrEqual(t, len(marks), 3)
		assert.Greater(t, marks[len(marks)-1], marks[0], "bookmark RVs rise with the store's revision")
	})

	t.Run("not allowed", func(t *testing.T) {
		env.Recorder.Reset()
		start := strconv.FormatUint(env.Server.ResourceVersion(), 10)
		timeout := int64(1) // 20 bookmark periods
		frames, stop := rawWatch(t, rc, metav1.ListOptions{ResourceVersion: start, TimeoutSeconds: &timeout})
		defer stop()
		_, err := cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "live"}}, metav1.CreateOptions{})
		require.NoError(t, err)
		writeElsewhere()

		var seen []string
		for f := frames(); f.Type != ""; f = frames() {
			seen = append(seen, f.Type)
		}
		assert.Equal(t, []string{"ADDED"}, seen, "the whole watch, until its timeout: no BOOKMARK")
		watches := env.Recorder.Matching(func(r wiretest.Request) bool { return r.Verb() == "watch" })
		require.Len(t, watches, 1)
		assert.True(t, watches[0].Done, "the server ended the watch at timeoutSeconds (W18)")
		assert.NotContains(t, watches[0].Query, "allowWatchBookmarks")
	})
}

// wireFrame is one raw watch frame as JSON.
type wireFrame struct {
	Type   string `json:"type"`
	Object struct {
		Kind       string `json:"kind"`
		APIVersion string `json:"apiVersion"`
		Metadata   struct {
			ResourceVersion string            `json:"resourceVersion"`
			Annotations     map[string]string `json:"annotations"`
		} `json:"metadata"`
	} `json:"object"`
}

// rawWatch opens a configmaps watch in default through client-go's REST client and returns
// a function reading the next frame (Type "" at the end of the stream) and one closing the
// stream. Reads are bounded by waitTimeout.
func rawWatch(t *testing.T, rc rest.Interface, opts metav1.ListOptions) (next func() wireFrame, stop func()) {
	t.Helper()
	opts.Watch = true
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	body, err := rc.Get().Namespace("default").Resource("configmaps").
		VersionedParams(&opts, scheme.ParameterCodec).Stream(ctx)
	if err != nil {
		cancel()
		require.NoError(t, err)
	}
	dec := json.NewDecoder(body)
	next = func() wireFrame {
		t.Helper()
		var f wireFrame
		if err := dec.Decode(&f); err != nil {
			require.ErrorIs(t, err, io.EOF, "reading the watch stream")
			return wireFrame{}
		}
		return f
	}
	return next, func() {
		cancel()
		_ = body.Close()
	}
}

// watchConfigMaps opens a typed configmaps watch in default through client-go's REST client,
// stopped when the test ends.
func watchConfigMaps(t *testing.T, rc rest.Interface, opts metav1.ListOptions) watch.Interface {
	t.Helper()
	opts.Watch = true
	w, err := rc.Get().Namespace("default").Resource("configmaps").
		VersionedParams(&opts, scheme.ParameterCodec).Watch(context.Background())
	require.NoError(t, err)
	t.Cleanup(w.Stop)
	return w
}

// nextEvent receives one event, failing after waitTimeout.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	timer := time.NewTimer(waitTimeout)
	defer timer.Stop()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "the watch closed")
		return ev
	case <-timer.C:
		t.Fatal("no watch event in time")
	}
	return watch.Event{}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "resourceVersion %q", s)
	return n
}

package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/rest"
)

// contentTypes records the Content-Type of every request and response.
type contentTypes struct {
	mu        sync.Mutex
	sent, got []string
	next      http.RoundTripper
}

func (c *contentTypes) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, r.Method+" "+r.Header.Get("Content-Type"))
	if err == nil {
		c.got = append(c.got, resp.Header.Get("Content-Type"))
	}
	return resp, err
}

// TestCh02_ProtobufClient checks Config.ContentType protobuf: objects go in protobuf, the
// answers come back in protobuf and decode into the same Go objects as JSON would, errors
// included, and a watch reads length-delimited protobuf frames.
func TestCh02_ProtobufClient(t *testing.T) {
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	rec := &contentTypes{next: http.DefaultTransport}
	c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL(), ContentType: "application/vnd.kubernetes.protobuf", Transport: rec})
	require.NoError(t, err)
	ctx := context.Background()

	w, err := c.Get().Namespace("default").Resource("pods").VersionedParams(&api.ListOptions{Watch: true}).Watch(ctx)
	require.NoError(t, err)
	defer w.Stop()

	var created api.Pod
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}}}
	require.NoError(t, c.Post().Namespace("default").Resource("pods").Body(pod).Do(ctx).Into(&created))
	assert.Equal(t, "web", created.Name)
	assert.NotEmpty(t, created.UID)
	assert.Equal(t, api.RestartPolicyAlways, created.Spec.RestartPolicy, "defaulted by the server")

	var list api.PodList
	require.NoError(t, c.Get().Namespace("default").Resource("pods").Do(ctx).Into(&list))
	require.Len(t, list.Items, 1)
	assert.Equal(t, created.ResourceVersion, list.Items[0].ResourceVersion)

	err = c.Get().Namespace("default").Resource("pods").Name("ghost").Do(ctx).Error()
	assert.True(t, api.IsNotFound(err), "%v", err)

	ev := <-w.ResultChan()
	assert.Equal(t, watch.Added, ev.Type)
	got, ok := ev.Object.(*api.Pod)
	require.True(t, ok, "%T", ev.Object)
	assert.Equal(t, "web", got.Name)

	require.NoError(t, c.Delete().Namespace("default").Resource("pods").Name("web").Body(&api.DeleteOptions{}).Do(ctx).Error())
	ev = <-w.ResultChan()
	assert.Equal(t, watch.Deleted, ev.Type)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	assert.Equal(t, []string{"GET ", "POST application/vnd.kubernetes.protobuf", "GET ", "GET ", "DELETE application/vnd.kubernetes.protobuf"}, rec.sent)
	assert.Equal(t, []string{"application/vnd.kubernetes.protobuf;stream=watch", "application/vnd.kubernetes.protobuf",
		"application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf"}, rec.got)
}

// TestCh02_ContentTypeMustBeKnown checks that Config.ContentType takes only the two encodings.
func TestCh02_ContentTypeMustBeKnown(t *testing.T) {
	for _, ct := range []string{"", "application/json", "application/vnd.kubernetes.protobuf"} {
		_, err := rest.RESTClientFor(&rest.Config{Host: "http://127.0.0.1:1", ContentType: ct})
		assert.NoError(t, err, ct)
	}
	_, err := rest.RESTClientFor(&rest.Config{Host: "http://127.0.0.1:1", ContentType: "application/yaml"})
	assert.ErrorContains(t, err, `Config.ContentType "application/yaml"`)
}

// TestCh02_ProtobufClientReadsTyped checks that a protobuf answer and a protobuf watch event
// are read straight into the typed view, with no JSON between (the view keeps the protobuf
// message), and that the result equals what the JSON client reads, the fields the view does
// not model included: an Update of the protobuf-read pod keeps its env.
func TestCh02_ProtobufClientReadsTyped(t *testing.T) {
	srv := apiserver.NewTestServer(t, apiserver.Options{})
	ctx := context.Background()
	pb, err := rest.RESTClientFor(&rest.Config{Host: srv.URL(), ContentType: "application/vnd.kubernetes.protobuf"})
	require.NoError(t, err)
	js, err := rest.RESTClientFor(&rest.Config{Host: srv.URL()})
	require.NoError(t, err)
	w, err := pb.Get().Namespace("default").Resource("pods").VersionedParams(&api.ListOptions{Watch: true}).Watch(ctx)
	require.NoError(t, err)
	defer w.Stop()

	_, err = srv.Create(ctx, "pods", "default", &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx",
			"env": []any{map[string]any{"name": "MODE", "value": "fast"}}}}}}})
	require.NoError(t, err)

	kept := func(p *api.Pod) bool { _, ok := p.Unmodeled.Protobuf(); return ok }
	var fromPB, fromJSON api.Pod
	require.NoError(t, pb.Get().Namespace("default").Resource("pods").Name("web").Do(ctx).Into(&fromPB))
	require.NoError(t, js.Get().Namespace("default").Resource("pods").Name("web").Do(ctx).Into(&fromJSON))
	assert.True(t, kept(&fromPB), "read from protobuf, not from JSON")
	assert.Empty(t, cmp.Diff(fromJSON, fromPB))
	a, err := json.Marshal(fromPB)
	require.NoError(t, err)
	b, err := json.Marshal(fromJSON)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), string(a))

	obj, err := pb.Get().Namespace("default").Resource("pods").Do(ctx).Get()
	require.NoError(t, err)
	list, ok := obj.(*api.PodList)
	require.True(t, ok, "%T", obj)
	require.Len(t, list.Items, 1)
	assert.True(t, kept(&list.Items[0]))
	assert.Equal(t, "PodList", list.Kind)

	ev := <-w.ResultChan()
	evPod, ok := ev.Object.(*api.Pod)
	require.True(t, ok, "%T", ev.Object)
	assert.True(t, kept(evPod))
	assert.Equal(t, "Pod", evPod.Kind)
	assert.Empty(t, cmp.Diff(fromJSON, *evPod))

	fromPB.Labels = map[string]string{"changed": "yes"}
	var updated api.Pod
	require.NoError(t, pb.Put().Namespace("default").Resource("pods").Name("web").Body(&fromPB).Do(ctx).Into(&updated))
	assert.Equal(t, "yes", updated.Labels["changed"])
	var raw api.Unstructured
	require.NoError(t, js.Get().Namespace("default").Resource("pods").Name("web").Do(ctx).Into(&raw))
	containers, _ := raw.Object["spec"].(map[string]any)["containers"].([]any)
	require.Len(t, containers, 1)
	assert.Equal(t, []any{map[string]any{"name": "MODE", "value": "fast"}}, containers[0].(map[string]any)["env"])
}

package rest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

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

package apiserver

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

const protobufType = "application/vnd.kubernetes.protobuf"

// TestCh02_ProtobufBodies checks N2 and CG1 with protobuf: a create, an update and a delete
// in protobuf, as client-go's typed clients send them by default, store what the same JSON
// would; the answers come in protobuf when asked for, lists and errors included.
func TestCh02_ProtobufBodies(t *testing.T) {
	s, c := newServer(t, Options{Resources: []ResourceInfo{fooResource}})
	codec := iprotobuf.Codec()
	podGVK := api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	body, err := codec.Encode(podGVK, map[string]any{
		"metadata": map[string]any{"name": "web", "labels": map[string]any{"app": "web"}},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27",
			"env":       []any{map[string]any{"name": "MODE", "value": "prod"}},
			"resources": map[string]any{"limits": map[string]any{"cpu": "500m"}}}}},
	})
	require.NoError(t, err)
	both := "application/vnd.kubernetes.protobuf, application/json"

	r := c.do("POST", "/api/v1/namespaces/default/pods", body, "Content-Type", protobufType, "Accept", both)
	require.Equal(t, 201, r.code, "%q", r.body)
	require.Equal(t, protobufType, r.header.Get("Content-Type"))
	gvk, created, err := codec.Decode(r.body)
	require.NoError(t, err)
	assert.Equal(t, podGVK, gvk)
	assert.Equal(t, "500m", created["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["resources"].(map[string]any)["limits"].(map[string]any)["cpu"])

	// The same object over JSON.
	var asJSON map[string]any
	c.get("/api/v1/namespaces/default/pods/web").decode(t, &asJSON)
	assert.Equal(t, asJSON["metadata"].(map[string]any)["uid"], created["metadata"].(map[string]any)["uid"])
	assert.Equal(t, "ClusterFirst", asJSON["spec"].(map[string]any)["dnsPolicy"], "defaulted like a JSON body")

	// Update in protobuf.
	created["metadata"].(map[string]any)["labels"] = map[string]any{"app": "web", "tier": "front"}
	body, err = codec.Encode(podGVK, created)
	require.NoError(t, err)
	r = c.do("PUT", "/api/v1/namespaces/default/pods/web", body, "Content-Type", protobufType, "Accept", both)
	require.Equal(t, 200, r.code, "%q", r.body)

	// A list in protobuf.
	r = c.do("GET", "/api/v1/namespaces/default/pods", nil, "Accept", both)
	require.Equal(t, 200, r.code)
	gvk, list, err := codec.Decode(r.body)
	require.NoError(t, err)
	assert.Equal(t, "PodList", gvk.Kind)
	require.Len(t, list["items"], 1)
	assert.Equal(t, map[string]any{"app": "web", "tier": "front"}, list["items"].([]any)[0].(map[string]any)["metadata"].(map[string]any)["labels"])

	// An error in protobuf: a Status.
	r = c.do("GET", "/api/v1/namespaces/default/pods/ghost", nil, "Accept", both)
	require.Equal(t, 404, r.code)
	gvk, st, err := codec.Decode(r.body)
	require.NoError(t, err)
	assert.Equal(t, "Status", gvk.Kind)
	assert.Equal(t, `pods "ghost" not found`, st["message"])

	// A garbage body is the decoder's 400; nothing is written.
	rv := rvString(s)
	r = c.do("POST", "/api/v1/namespaces/default/pods", "k8s\x00\x0a\x03abc", "Content-Type", protobufType)
	require.Equal(t, 400, r.code)
	assert.Contains(t, r.status(t).Message, "the object provided is unrecognized (must be of type Pod):")
	r = c.do("POST", "/api/v1/namespaces/default/pods", "not protobuf", "Content-Type", protobufType)
	require.Equal(t, 400, r.code)
	// Another kind in the envelope.
	cm, err := codec.Encode(api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, map[string]any{"metadata": map[string]any{"name": "x"}})
	require.NoError(t, err)
	r = c.do("POST", "/api/v1/namespaces/default/pods", cm, "Content-Type", protobufType)
	require.Equal(t, 400, r.code)
	assert.Equal(t, `ConfigMap in version "v1" cannot be handled as a Pod`, r.status(t).Message)
	// A custom resource takes JSON only, as on the real server.
	r = c.do("POST", "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos", cm, "Content-Type", protobufType)
	require.Equal(t, 415, r.code)
	assert.Equal(t, rv, rvString(s), "nothing written")

	// Delete with protobuf DeleteOptions (a dry run: nothing goes).
	opts, err := codec.Encode(api.GroupVersionKind{Group: "meta.k8s.io", Version: "v1", Kind: "DeleteOptions"},
		map[string]any{"dryRun": []any{"All"}})
	require.NoError(t, err)
	r = c.do("DELETE", "/api/v1/namespaces/default/pods/web", opts, "Content-Type", protobufType, "Accept", both)
	require.Equal(t, 200, r.code, "%q", r.body)
	assert.Equal(t, rv, rvString(s), "a dry run")
}

// TestCh02_ProtobufWatch checks that a protobuf watch streams length-delimited WatchEvents,
// bookmarks included.
func TestCh02_ProtobufWatch(t *testing.T) {
	s, c := newServer(t, Options{})
	req, err := http.NewRequest("GET", c.base+"/api/v1/namespaces/default/pods?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf;stream=watch, application/json")
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	resp, err := c.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, "application/vnd.kubernetes.protobuf;stream=watch", resp.Header.Get("Content-Type"))
	fr := pb.NewLengthDelimitedFrameReader(resp.Body)
	next := func() (string, map[string]any) {
		frame, err := fr.ReadFrame()
		require.NoError(t, err)
		typ, _, obj, err := iprotobuf.Codec().DecodeWatchEvent(frame)
		require.NoError(t, err)
		return typ, obj
	}
	typ, obj := next()
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, "a", obj["metadata"].(map[string]any)["name"])
	typ, obj = next()
	assert.Equal(t, "BOOKMARK", typ)
	assert.Equal(t, "true", obj["metadata"].(map[string]any)["annotations"].(map[string]any)["k8s.io/initial-events-end"])
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	typ, obj = next()
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, "b", obj["metadata"].(map[string]any)["name"])
}

// TestCh02_ProtobufTruncatedBodies checks that every prefix of a valid protobuf body is a
// 400 (or decodes to a smaller object), never a panic or a 500.
func TestCh02_ProtobufTruncatedBodies(t *testing.T) {
	s, c := newServer(t, Options{})
	body, err := iprotobuf.Codec().Encode(api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
		map[string]any{"metadata": map[string]any{"name": "x"}, "data": map[string]any{"k": strings.Repeat("v", 40)}})
	require.NoError(t, err)
	for i := 0; i < len(body); i++ {
		resp, err := c.hc.Post(c.base+"/api/v1/namespaces/default/configmaps", protobufType, bytes.NewReader(body[:i]))
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		assert.Less(t, resp.StatusCode, 500, "prefix %d", i)
	}
	_ = s
}

// TestCh02_ProtobufCoversEveryBuiltin checks that every built-in kind, and Scale, has a
// protobuf message, so no built-in answers 406 to client-go's default Accept. That includes
// CustomResourceDefinition, whose schema types have JSON forms of their own (an items that is
// a schema or a list, an additionalProperties that is a bool or a schema: api/protobuf
// schema_or.go).
func TestCh02_ProtobufCoversEveryBuiltin(t *testing.T) {
	for _, ri := range registry.BuiltinInfos() {
		assert.True(t, iprotobuf.Codec().Recognizes(ri.GVK()), "%v", ri.GVK())
	}
	assert.True(t, iprotobuf.Codec().Recognizes(scaleGVK))
}

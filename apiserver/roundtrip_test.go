package apiserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/clientcmd"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// roundtripDir holds one realistic manifest per served kind, named <group or core>_<kind>.yaml
// in lower case (core_pod.yaml, apps_deployment.yaml, events.k8s.io_event.yaml). A file may
// hold several documents: the last is the kind's object, the ones before it are objects it
// needs (created first, deleted after). interop/ reads the same files.
const roundtripDir = "testdata/roundtrip"

// servedKind is one group/kind the server serves, at the version and resource its
// manifest names.
type servedKind struct {
	group, kind string
	versions    map[string]api.APIResource // by version
}

func kindKey(group, kind string) string {
	if group == "" {
		group = "core"
	}
	return strings.ToLower(group + "_" + kind)
}

// servedKinds reads every served group/kind from discovery, subresources left out.
func servedKinds(t *testing.T, c *client) map[string]*servedKind {
	t.Helper()
	var groups api.APIGroupList
	c.get("/apis").decode(t, &groups)
	gvs := []string{"v1"}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gvs = append(gvs, v.GroupVersion)
		}
	}
	out := map[string]*servedKind{}
	for _, gv := range gvs {
		path := "/apis/" + gv
		if gv == "v1" {
			path = "/api/v1"
		}
		var list api.APIResourceList
		c.get(path).decode(t, &list)
		group, version, ok := strings.Cut(gv, "/")
		if !ok {
			group, version = "", gv
		}
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			key := kindKey(group, r.Kind)
			if out[key] == nil {
				out[key] = &servedKind{group: group, kind: r.Kind, versions: map[string]api.APIResource{}}
			}
			out[key].versions[version] = r
		}
	}
	return out
}

// roundtripManifests reads every file of roundtripDir as JSON objects, by kind key.
func roundtripManifests(t *testing.T) map[string][]map[string]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(roundtripDir, "*.yaml"))
	require.NoError(t, err)
	out := map[string][]map[string]any{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var objs []map[string]any
		for _, doc := range clientcmd.SplitYAMLDocuments(data) {
			js, err := clientcmd.YAMLToJSON(doc)
			require.NoError(t, err, f)
			var obj map[string]any
			require.NoError(t, json.Unmarshal(js, &obj), f)
			objs = append(objs, obj)
		}
		require.NotEmpty(t, objs, f)
		out[strings.ToLower(strings.TrimSuffix(filepath.Base(f), ".yaml"))] = objs
	}
	return out
}

// TestCh01_RoundTripEveryKind takes the manifest of every kind the server serves through
// create, get, update, merge patch, strategic merge patch and delete, as far as the kind's
// verbs go (a review is only created; a kind that cannot be created is read), once in JSON
// and once in protobuf (bodies and answers), and checks at each step that the JSON and
// protobuf views of the stored object agree and that the change is there. A served kind
// without a manifest, and a manifest of a kind not served, fail.
func TestCh01_RoundTripEveryKind(t *testing.T) {
	_, c := newServer(t, Options{})
	served := servedKinds(t, c)
	manifests := roundtripManifests(t)
	for key := range served {
		assert.Contains(t, manifests, key, "%s is served but %s/%s.yaml is missing", key, roundtripDir, key)
	}
	keys := make([]string, 0, len(manifests))
	for key := range manifests {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		sk, ok := served[key]
		if !assert.True(t, ok, "%s/%s.yaml names a kind the server does not serve", roundtripDir, key) {
			continue
		}
		objs := manifests[key]
		obj := objs[len(objs)-1]
		gv := obj["apiVersion"].(string)
		_, version, ok := strings.Cut(gv, "/")
		if !ok {
			version = gv
		}
		res, ok := sk.versions[version]
		require.True(t, ok, "%s: version %s is not served", key, version)
		require.Equal(t, sk.kind, obj["kind"], key)
		t.Run(key, func(t *testing.T) {
			for _, enc := range []roundtripEncoding{jsonEncoding, protobufEncoding} {
				t.Run(enc.name, func(t *testing.T) {
					rt := roundtrip{t: t, c: c, enc: enc, group: sk.group, version: version, res: res}
					rt.run(objs[:len(objs)-1], obj)
				})
			}
		})
	}
}

// roundtripEncoding is how bodies are sent and answers asked for.
type roundtripEncoding struct {
	name, contentType string
}

var (
	jsonEncoding     = roundtripEncoding{"json", "application/json"}
	protobufEncoding = roundtripEncoding{"protobuf", negotiation.ProtobufType}
)

type roundtrip struct {
	t              *testing.T
	c              *client
	enc            roundtripEncoding
	group, version string
	res            api.APIResource
}

// collection is the path of the resource's objects in namespace ns.
func (rt roundtrip) collection(group, version, resource string, namespaced bool, ns string) string {
	p := "/apis/" + group + "/" + version
	if group == "" {
		p = "/api/" + version
	}
	if namespaced {
		p += "/namespaces/" + ns
	}
	return p + "/" + resource
}

func namespaceOf(obj map[string]any) string {
	if ns, _, _ := api.NestedString(obj, "metadata", "namespace"); ns != "" {
		return ns
	}
	return "default"
}

func (rt roundtrip) run(needs []map[string]any, obj map[string]any) {
	t, c := rt.t, rt.c
	// The objects the kind's object needs, created in JSON through discovery's paths.
	for _, n := range needs {
		path := rt.pathOf(n)
		r := c.do(http.MethodPost, path, n)
		require.Contains(t, []int{http.StatusCreated, http.StatusConflict}, r.code, "%s: %s", path, r.body)
		name, _, _ := api.NestedString(n, "metadata", "name")
		// gracePeriodSeconds=0: a pod the binding bound would otherwise wait for a kubelet
		t.Cleanup(func() { c.do(http.MethodDelete, path+"/"+name+"?gracePeriodSeconds=0", nil) })
	}
	ns := namespaceOf(obj)
	base := rt.collection(rt.group, rt.version, rt.res.Name, rt.res.Namespaced, ns)
	name, _, _ := api.NestedString(obj, "metadata", "name")
	item := base + "/" + name
	verbs := rt.res.Verbs

	if !slices.Contains(verbs, "create") {
		// A kind that cannot be created (componentstatuses): its collection, and the
		// manifest's object if the server has one of that name, read in both encodings.
		rt.list(base)
		if name != "" && rt.c.get(item).code == http.StatusOK {
			rt.get(item)
		}
		return
	}
	created := rt.send(http.MethodPost, base, rt.body(obj), rt.enc.contentType, http.StatusCreated)
	if !slices.Contains(verbs, "get") && created["kind"] == "Status" {
		// A binding answers a Success Status, as the real BindingREST does.
		assert.Equal(t, "Success", created["status"])
		return
	}
	assert.Equal(t, obj["kind"], created["kind"])
	if name != "" {
		assert.Equal(t, name, field(created, "metadata", "name"))
	}
	if !slices.Contains(verbs, "get") || name == "" {
		return // a review: created, answered, never stored
	}
	got := rt.get(item)
	if rt.group == "apiextensions.k8s.io" {
		// A CRD's controllers (names, established) write it once more after the create,
		// as on the real server: the GET answers their state, stable from then on.
		assert.Empty(t, cmp.Diff(got, rt.get(item)), "GET answers the same twice")
	} else {
		assert.Empty(t, cmp.Diff(created, got), "GET answers what the create answered")
	}

	if slices.Contains(verbs, "update") {
		upd := deepCopyMap(got)
		setLabel(upd, "roundtrip-update", rt.enc.name)
		after := rt.send(http.MethodPut, item, rt.body(upd), rt.enc.contentType, http.StatusOK)
		assert.Equal(t, rt.enc.name, labelOf(after, "roundtrip-update"))
		assert.NotEqual(t, field(got, "metadata", "resourceVersion"), field(after, "metadata", "resourceVersion"))
		assert.Empty(t, cmp.Diff(after, rt.get(item)))
	}
	if slices.Contains(verbs, "patch") {
		// Every kind a fresh server serves is built in: strategic merge patch applies.
		patches := []struct{ contentType, label string }{
			{"application/merge-patch+json", "roundtrip-merge"},
			{"application/strategic-merge-patch+json", "roundtrip-strategic"},
		}
		for _, p := range patches {
			body := []byte(`{"metadata":{"labels":{"` + p.label + `":"` + rt.enc.name + `"}}}`)
			after := rt.send(http.MethodPatch, item, body, p.contentType, http.StatusOK)
			assert.Equal(t, rt.enc.name, labelOf(after, p.label), p.contentType)
			assert.Empty(t, cmp.Diff(after, rt.get(item)))
		}
	}
	if slices.Contains(verbs, "delete") {
		r := c.do(http.MethodDelete, item, nil, "Accept", rt.enc.contentType)
		require.Contains(t, []int{http.StatusOK, http.StatusAccepted}, r.code, "DELETE %s: %s", item, r.body)
		if g := c.get(item); g.code == http.StatusOK && (strings.Contains(string(g.body), "-protection") || strings.Contains(string(g.body), `"orphan"`)) {
			// The StorageObjectInUseProtection finalizer: its controller lifts it once nothing
			// uses the object; and the orphan finalizer the v1 ReplicationController and the
			// batch/v1 Job get by default, which the garbage collector lifts. No controller
			// runs here, so the test does.
			r = c.do(http.MethodPatch, item, []byte(`{"metadata":{"finalizers":null}}`), "Content-Type", "application/merge-patch+json")
			require.Equal(t, http.StatusOK, r.code, "PATCH %s: %s", item, r.body)
		}
		if g := c.get(item); g.code == http.StatusOK && strings.Count(item, "/") == 4 && strings.HasPrefix(item, "/api/v1/namespaces/") {
			// A Terminating namespace waits for the namespace controller's finalize; no
			// controller runs here, so the test finalizes it (it is empty).
			var ns map[string]any
			require.NoError(t, json.Unmarshal(g.body, &ns))
			ns["spec"] = map[string]any{"finalizers": []any{}}
			r = c.do(http.MethodPut, item+"/finalize", ns)
			require.Equal(t, http.StatusOK, r.code, "PUT %s/finalize: %s", item, r.body)
		}
		require.Eventually(t, func() bool { return c.get(item).code == http.StatusNotFound },
			5*time.Second, 10*time.Millisecond, "%s is still there after DELETE", item)
	}
}

// list reads a collection in the encoding and checks that its items, read in the other
// encoding, are the same objects.
func (rt roundtrip) list(path string) {
	rt.t.Helper()
	listKind := api.GroupVersionKind{Group: rt.group, Version: rt.version, Kind: rt.res.Kind + "List"}
	var encoded [][]byte
	for _, accept := range []string{rt.enc.contentType, otherEncoding(rt.enc).contentType} {
		r := rt.c.do(http.MethodGet, path, nil, "Accept", accept)
		require.Equal(rt.t, http.StatusOK, r.code, "GET %s (%s): %s", path, accept, r.body)
		view := rt.decode(r)
		delete(view, "metadata") // the list's resourceVersion may move between the reads
		pb, err := iprotobuf.Encode(listKind, view)
		require.NoError(rt.t, err)
		encoded = append(encoded, pb)
	}
	assert.True(rt.t, bytes.Equal(encoded[0], encoded[1]), "GET %s: the JSON and protobuf lists differ", path)
}

// pathOf is the collection path of another object, found by its apiVersion and kind.
func (rt roundtrip) pathOf(obj map[string]any) string {
	gv, _ := obj["apiVersion"].(string)
	group, version, ok := strings.Cut(gv, "/")
	if !ok {
		group, version = "", gv
	}
	for key, sk := range servedKinds(rt.t, rt.c) {
		if key == kindKey(group, obj["kind"].(string)) {
			r := sk.versions[version]
			return rt.collection(group, version, r.Name, r.Namespaced, namespaceOf(obj))
		}
	}
	rt.t.Fatalf("%s %s is not served", gv, obj["kind"])
	return ""
}

// body is obj in the encoding: its JSON, or its protobuf envelope.
func (rt roundtrip) body(obj map[string]any) []byte {
	data, err := json.Marshal(obj)
	require.NoError(rt.t, err)
	if rt.enc.contentType != negotiation.ProtobufType {
		return data
	}
	gvk := api.GroupVersionKind{Group: rt.group, Version: rt.version, Kind: rt.res.Kind}
	pb, err := iprotobuf.Encode(gvk, roundTripTree(rt.t, data))
	require.NoError(rt.t, err, "encoding the manifest in protobuf")
	return pb
}

// send sends body and returns the answer, read from the encoding asked for, after checking
// that the same object read in the other encoding is the same.
func (rt roundtrip) send(method, path string, body []byte, contentType string, code int) map[string]any {
	rt.t.Helper()
	r := rt.c.do(method, path, body, "Content-Type", contentType, "Accept", rt.enc.contentType)
	require.Equal(rt.t, code, r.code, "%s %s: %s", method, path, r.body)
	return rt.decode(r)
}

// get reads the object in the encoding, and checks that the other encoding reads the same.
func (rt roundtrip) get(path string) map[string]any {
	rt.t.Helper()
	var views []map[string]any
	for _, accept := range []string{rt.enc.contentType, otherEncoding(rt.enc).contentType} {
		r := rt.c.do(http.MethodGet, path, nil, "Accept", accept)
		require.Equal(rt.t, http.StatusOK, r.code, "GET %s (%s): %s", path, accept, r.body)
		views = append(views, rt.decode(r))
	}
	// The same object: the JSON view may leave out zero values the protobuf view spells
	// out (a Go-typed server writes both), so they are compared in protobuf.
	gvk := api.GroupVersionKind{Group: rt.group, Version: rt.version, Kind: rt.res.Kind}
	var encoded [][]byte
	for _, v := range views {
		pb, err := iprotobuf.Encode(gvk, v)
		require.NoError(rt.t, err)
		encoded = append(encoded, pb)
	}
	if !bytes.Equal(encoded[0], encoded[1]) {
		rt.t.Errorf("GET %s: the JSON and protobuf views differ:\n%s", path, cmp.Diff(views[0], views[1]))
	}
	return views[0]
}

func otherEncoding(e roundtripEncoding) roundtripEncoding {
	if e == jsonEncoding {
		return protobufEncoding
	}
	return jsonEncoding
}

// decode reads an answer by its Content-Type into a JSON tree (int64 and float64 numbers).
func (rt roundtrip) decode(r response) map[string]any {
	rt.t.Helper()
	ct := r.header.Get("Content-Type")
	if strings.HasPrefix(ct, negotiation.ProtobufType) {
		_, tree, err := iprotobuf.Decode(r.body)
		require.NoError(rt.t, err)
		return tree
	}
	require.True(rt.t, strings.HasPrefix(ct, "application/json"), "Content-Type %q", ct)
	return roundTripTree(rt.t, r.body)
}

// roundTripTree decodes JSON with the numbers of the protobuf decoder: int64 when integral.
func roundTripTree(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v map[string]any
	require.NoError(t, dec.Decode(&v))
	return numbers(v).(map[string]any)
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	}
	return v
}

func field(obj map[string]any, path ...string) any {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

func labelOf(obj map[string]any, key string) any { return field(obj, "metadata", "labels", key) }

func setLabel(obj map[string]any, key, value string) {
	meta := obj["metadata"].(map[string]any)
	labels, _ := meta["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		meta["labels"] = labels
	}
	labels[key] = value
}

func deepCopyMap(m map[string]any) map[string]any {
	return api.DeepCopyJSONValue(m).(map[string]any)
}

package apiserver

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cost"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// TestCh01_HostileEnumAmplification sends many bad values against a long enum. Spelled in
// full, every cause repeats the whole enum, and the answer is thousands of times the
// request (the probe's 8 KB object got a 680 MB Status). The answer stays bounded: each
// cause lists a few KiB of the valid values and says how many more there are, and the list
// of causes ends in a "too many errors" cause once the Status reaches its size cap.
func TestCh01_HostileEnumAmplification(t *testing.T) {
	_, c := newServer(t, Options{})
	enum := make([]any, 2000)
	for i := range enum {
		enum[i] = fmt.Sprintf("value-%05d", i)
	}
	crd := fooCRD(t, func(m map[string]any) {
		spec := at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties")
		spec["tags"] = map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": enum}}
	})
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	bad := make([]any, 1000)
	for i := range bad {
		bad[i] = fmt.Sprintf("bad-%d", i)
	}
	r = c.do(http.MethodPost, foosPath, foo("amplified", map[string]any{"deploymentName": "x", "tags": bad}))
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Less(t, len(r.body), 3*api.MaxStatusBytes, "the Status is bounded")
	st := r.status(t)
	causes := st.Details.Causes
	require.NotEmpty(t, causes)
	assert.Less(t, len(causes), len(bad), "the causes are cut short")
	first := causes[0]
	assert.Equal(t, "spec.tags[0]", first.Field)
	assert.True(t, strings.HasPrefix(first.Message, `Unsupported value: "bad-0": supported values: "value-00000", "value-00001"`), first.Message)
	assert.Regexp(t, `, and \d+ more$`, first.Message)
	last := causes[len(causes)-1]
	assert.Equal(t, api.CauseTypeTooMany, last.Type)
	assert.Regexp(t, `^too many errors, \d+ more not shown$`, last.Message)
	assert.Regexp(t, `too many errors, \d+ more not shown\]$`, st.Message)
}

// configMapOf returns a ConfigMap whose one value takes size bytes.
func configMapOf(name string, size int, fill byte) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name},
		"data": map[string]any{"v": strings.Repeat(string(fill), size)}}
}

// TestCh01_HostileHistoryBytes rewrites a 1 MiB ConfigMap more times than the history's
// byte bound holds. A history bounded only by count (10,000 events) kept every version, 1.8
// MB of heap per update, until the server died near update 1,600 under a 6 GB cap. Now the
// oldest events go once their bytes pass HistoryBytes, and a watch from one of them is 410.
func TestCh01_HostileHistoryBytes(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		updates  int
		retained int // most events the history may still hold
	}{
		{"default bound", Options{}, 80, DefaultHistoryBytes >> 20},
		{"set bound", Options{HistoryBytes: 4 << 20}, 12, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newServer(t, tc.opts)
			path := "/api/v1/namespaces/default/configmaps"
			r := c.do(http.MethodPost, path, configMapOf("big", 1<<20, 'a'))
			require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
			first := s.store.ResourceVersion()
			for i := range tc.updates {
				r = c.do(http.MethodPut, path+"/big", configMapOf("big", 1<<20, byte('b'+i%20)))
				require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			}
			rev, oldest := s.store.ResourceVersion(), s.store.OldestResourceVersion()
			assert.LessOrEqual(t, rev-oldest, uint64(tc.retained), "events retained")
			assert.Positive(t, rev-oldest, "the newest event is kept")
			ev := c.watch(fmt.Sprintf("%s?watch=true&resourceVersion=%d", path, first)).next()
			require.Equal(t, "ERROR", ev.Type, "a watch from a dropped event")
			var st api.Status
			require.NoError(t, json.Unmarshal(ev.Object, &st))
			assert.Equal(t, int32(http.StatusGone), st.Code)
		})
	}
}

// TestCh01_HostileStoreQuota fills the store past its quota. Writes that would pass it are
// refused as etcd's "database space exceeded" is upstream (500, no reason, etcd's text);
// reads, deletes and writes that shrink still work, and room made by a delete can be used.
func TestCh01_HostileStoreQuota(t *testing.T) {
	s, c := newServer(t, Options{StoreQuotaBytes: 6 << 20})
	path := "/api/v1/namespaces/default/configmaps"
	created := 0
	var refused response
	for i := range 10 {
		r := c.do(http.MethodPost, path, configMapOf(fmt.Sprintf("cm-%d", i), 1<<20, 'a'))
		if r.code != http.StatusCreated {
			refused = r
			break
		}
		created++
	}
	require.Equal(t, 5, created, "5 MiB of objects fit under 6 MiB, 6 do not")
	require.Equal(t, http.StatusInternalServerError, refused.code, "%s", refused.body)
	st := refused.status(t)
	assert.Equal(t, api.StatusReason(""), st.Reason)
	assert.Equal(t, "etcdserver: mvcc: database space exceeded", st.Message)
	rv := s.store.ResourceVersion()
	r := c.do(http.MethodPost, path, configMapOf("cm-x", 1<<20, 'a'))
	assert.Equal(t, http.StatusInternalServerError, r.code)
	assert.Equal(t, rv, s.store.ResourceVersion(), "a refused create writes nothing")

	r = c.do(http.MethodPut, path+"/cm-0", configMapOf("cm-0", 1<<10, 'b'))
	assert.Equal(t, http.StatusOK, r.code, "an update that shrinks: %s", r.body)
	r = c.do(http.MethodPost, path, configMapOf("cm-5", 1<<20, 'a'))
	require.Equal(t, http.StatusCreated, r.code, "room made by an update: %s", r.body)
	rv = s.store.ResourceVersion()
	r = c.do(http.MethodPut, path+"/cm-0", configMapOf("cm-0", 1<<20, 'c'))
	assert.Equal(t, http.StatusInternalServerError, r.code, "an update that grows past the quota")
	assert.Equal(t, rv, s.store.ResourceVersion(), "nothing was written")
	r = c.do(http.MethodDelete, path+"/cm-1", nil)
	assert.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.do(http.MethodPost, path, configMapOf("cm-again", 1<<20, 'a'))
	assert.Equal(t, http.StatusCreated, r.code, "room made by a delete: %s", r.body)
	assert.Equal(t, http.StatusOK, c.get(path).code)
}

// pbField is one length-delimited protobuf field.
func pbField(num int, data []byte) []byte {
	b := binary.AppendUvarint(nil, uint64(num<<3|2))
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// TestCh01_HostileProtobufEmptyElements posts a protobuf Pod of many empty containers, two
// bytes each. Filled in with their Go zero values, re-encoded and validated, each became a
// whole container (the probe's 3 MB body took 19.5 s and 1.9 GB). Bytes that declare more
// elements than an honest encoding of their length holds are refused with a 400, and
// nothing is written. A pod with a few honest containers still decodes.
func TestCh01_HostileProtobufEmptyElements(t *testing.T) {
	s, c := newServer(t, Options{})
	envelope := func(pod []byte) []byte {
		typeMeta := append(pbField(1, []byte("v1")), pbField(2, []byte("Pod"))...)
		return append([]byte("k8s\x00"), append(pbField(1, typeMeta), pbField(2, pod)...)...)
	}
	podOf := func(name string, containers [][]byte) []byte {
		var spec []byte
		for _, c := range containers {
			spec = append(spec, pbField(2, c)...)
		}
		return append(pbField(1, pbField(1, []byte(name))), pbField(2, spec)...)
	}
	empty := make([][]byte, 100_000)
	rv := rvString(s)
	r := c.do(http.MethodPost, "/api/v1/namespaces/default/pods", envelope(podOf("empty", empty)), "Content-Type", protobufType)
	require.Equal(t, http.StatusBadRequest, r.code, "%.300s", r.body)
	assert.Contains(t, r.status(t).Message, "declare more elements than they can hold")
	assert.Equal(t, rv, rvString(s), "nothing written")

	honest := [][]byte{append(pbField(1, []byte("a")), pbField(2, []byte("nginx"))...)}
	r = c.do(http.MethodPost, "/api/v1/namespaces/default/pods", envelope(podOf("honest", honest)), "Content-Type", protobufType)
	assert.Equal(t, http.StatusCreated, r.code, "%.300s", r.body)
}

// TestCh01_ProtobufDecodeComplexity decodes a PodList of n and of 8n pods, and a Pod of n
// and of 8n containers: the allocations grow linearly.
func TestCh01_ProtobufDecodeComplexity(t *testing.T) {
	codec := iprotobuf.Codec()
	podList := func(n int) []byte {
		items := make([]any, n)
		for i := range items {
			items[i] = map[string]any{"metadata": map[string]any{"name": fmt.Sprintf("p%d", i), "labels": map[string]any{"a": "b"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}
		}
		b, err := codec.Encode(api.GroupVersionKind{Version: "v1", Kind: "PodList"}, map[string]any{"items": items})
		require.NoError(t, err)
		return b
	}
	podOfContainers := func(n int) []byte {
		cs := make([]any, n)
		for i := range cs {
			cs[i] = map[string]any{"name": fmt.Sprintf("c%d", i), "image": "nginx"}
		}
		b, err := codec.Encode(api.GroupVersionKind{Version: "v1", Kind: "Pod"}, map[string]any{"metadata": map[string]any{"name": "p"}, "spec": map[string]any{"containers": cs}})
		require.NoError(t, err)
		return b
	}
	for name, build := range map[string]func(int) []byte{"pod list": podList, "containers": podOfContainers} {
		t.Run(name, func(t *testing.T) {
			small, large := build(200), build(1600)
			allocs := func(b []byte) float64 {
				return testing.AllocsPerRun(2, func() {
					_, _, err := codec.Decode(b)
					require.NoError(t, err)
				})
			}
			a1, a8 := allocs(small), allocs(large)
			t.Logf("n=200: %d bytes, %.0f allocs; 8n: %d bytes, %.0f allocs", len(small), a1, len(large), a8)
			assert.LessOrEqual(t, a8/a1, 10.0)
		})
	}
}

// TestCh01_HostileInitialListTimeout opens a watch with timeoutSeconds=1 and an initial list
// far larger than the socket buffers, and never reads. The timer started only after the
// initial list was written, so the watch stayed open (and counted against the cap) for as
// long as the write timeout let the list trickle out: 60-110 s in the probe. Now the watch
// ends at timeoutSeconds plus at most a second of write grace, as the limits promise.
func TestCh01_HostileInitialListTimeout(t *testing.T) {
	s, c := newServer(t, Options{})
	const size = 16 << 10
	n := stallBytes/size + 1
	for i := range n {
		mustCreate(t, s, "pods", "default", paddedPod(fmt.Sprintf("pad%05d", i), size))
	}
	rc := dialTiny(t, c.base)
	openRawWatch(t, rc, "/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1")
	opened := time.Now()
	require.Eventually(t, func() bool { return watchServing() == 0 }, 10*time.Second, 10*time.Millisecond,
		"the watch stuck in its initial list outlived its timeoutSeconds")
	assert.Less(t, time.Since(opened), 4*time.Second, "ended at timeoutSeconds, long before the write timeout")
	data := requireServerClosed(t, rc)
	assert.Less(t, bytes.Count(data, []byte(`"type":"ADDED"`)), n, "the initial list was cut, not delivered in full")
}

// readUntilEnd reads a watch stream to its end and counts its events by type.
func readUntilEnd(st *stream) map[string]int {
	counts := map[string]int{}
	for line := range st.lines {
		var ev wireEvent
		if json.Unmarshal([]byte(line), &ev) == nil {
			counts[ev.Type]++
		}
	}
	return counts
}

// TestCh01_HostileBulkDeleteWatchers deletes 10,000 objects (2,500 under -race) at once, by
// deleting their CRD, by a DeleteCollection and by deleting their namespace, with one watcher
// that reads and one that never does. The deletes were committed faster than any consumer
// takes events, into 1,000-slot queues: the reading watcher got about 1,000 DELETED, then an
// ERROR, and its client kept the rest as ghosts. Now the writer waits for room: the reading
// watcher gets every DELETED and, for the CRD, a clean end; only the watcher that does not
// read is stopped.
func TestCh01_HostileBulkDeleteWatchers(t *testing.T) {
	const n = bulkObjects
	tests := []struct {
		name, path string
		setup      func(t *testing.T, s *Server, c *client)
		delete     func(c *client) response
		wantEnd    bool // the stream ends without an ERROR once the resource is gone
	}{
		{"CRD deletion", foosPath, func(t *testing.T, s *Server, c *client) {
			createFooCRD(t, c)
			for i := range n {
				_, err := s.Create(context.Background(), "foos", "default", &api.Unstructured{Object: foo(fmt.Sprintf("f%05d", i), map[string]any{"deploymentName": "d"})})
				require.NoError(t, err)
			}
		}, func(c *client) response {
			return c.do(http.MethodDelete, crdPath+"/foos.samplecontroller.k8s.io", nil)
		}, true},
		{"DeleteCollection", "/api/v1/namespaces/default/configmaps", func(t *testing.T, s *Server, c *client) {
			for i := range n {
				_, err := s.Create(context.Background(), "configmaps", "default", &api.Unstructured{Object: map[string]any{
					"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprintf("c%05d", i)}}})
				require.NoError(t, err)
			}
		}, func(c *client) response {
			return c.do(http.MethodDelete, "/api/v1/namespaces/default/configmaps", nil)
		}, false},
		{"namespace deletion", "/api/v1/namespaces/big/configmaps", func(t *testing.T, s *Server, c *client) {
			r := c.do(http.MethodPost, "/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "big"}})
			require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
			for i := range n {
				_, err := s.Create(context.Background(), "configmaps", "big", &api.Unstructured{Object: map[string]any{
					"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprintf("c%05d", i)}}})
				require.NoError(t, err)
			}
		}, func(c *client) response {
			// The server only marks the namespace Terminating; its content goes by the
			// namespace controller's DeleteCollection, played here as it does it.
			if r := c.do(http.MethodDelete, "/api/v1/namespaces/big", nil); r.code != http.StatusOK {
				return r
			}
			return c.do(http.MethodDelete, "/api/v1/namespaces/big/configmaps", nil)
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A short write timeout: the watcher that does not read is closed soon after it
			// is stopped.
			s, c := newServer(t, Options{WatchWriteTimeout: 2 * time.Second})
			tc.setup(t, s, c)
			rv := s.ResourceVersion()
			rc := dialTiny(t, c.base)
			openRawWatch(t, rc, fmt.Sprintf("%s?watch=1&resourceVersion=%d", tc.path, rv))
			reader := c.watch(fmt.Sprintf("%s?watch=1&resourceVersion=%d", tc.path, rv))
			defer reader.close()
			require.Eventually(t, func() bool { return len(s.Watchers()) == 2 }, 10*time.Second, time.Millisecond)

			done := make(chan response, 1)
			go func() { done <- tc.delete(c) }()
			var counts map[string]int
			if tc.wantEnd {
				counts = readUntilEnd(reader)
			} else {
				for counts = map[string]int{}; counts["DELETED"] < n; {
					ev := reader.next()
					counts[ev.Type]++
					require.NotEqual(t, "ERROR", ev.Type, "after %d DELETED", counts["DELETED"])
				}
			}
			assert.Equal(t, n, counts["DELETED"], "the reading watcher gets every DELETED")
			assert.Zero(t, counts["ERROR"])
			r := <-done
			require.Equal(t, http.StatusOK, r.code, "%.300s", r.body)
			requireServerClosed(t, rc) // the watcher that does not read was stopped
		})
	}
}

// TestCh01_HostileEarlyRefusalCloses declares a small body, sends part of it, and gets an
// answer that needs no body: 401, 403, 405, 415. The answer came at once, but net/http then
// drained the rest of the body until the read deadline, so the connection stayed open for
// BodyReadTimeout (a minute): an unauthenticated client could hold each connection that
// long. Now the connection closes right after the answer, as after a 413.
func TestCh01_HostileEarlyRefusalCloses(t *testing.T) {
	const cms = "/api/v1/namespaces/default/configmaps"
	tests := []struct {
		name         string
		opts         Options
		method, path string
		header       string
		code         int
	}{
		{"401", Options{BearerToken: "secret"}, "POST", cms, "Content-Type: application/json\r\n", 401},
		{"403 cross-origin", Options{}, "POST", cms, "Content-Type: application/json\r\nOrigin: " + evilOrigin + "\r\n", 403},
		{"405", Options{}, "POST", "/api/v1/pods", "Content-Type: application/json\r\n", 405},
		{"413", Options{MaxBodyBytes: 64}, "POST", cms, "Content-Type: application/json\r\n", 413},
		{"415", Options{}, "POST", cms, "Content-Type: application/yaml\r\n", 415},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.BodyReadTimeout = time.Minute
			_, c := newServer(t, tt.opts)
			rc := dialRaw(t, c.base)
			require.NoError(t, rc.SetDeadline(time.Now().Add(20*time.Second)))
			start := time.Now()
			_, err := fmt.Fprintf(rc, "%s %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: 100\r\n\r\n{\"metadata\":",
				tt.method, tt.path, rc.RemoteAddr(), tt.header)
			require.NoError(t, err)
			r, closing := rc.readAnswer(t)
			require.Equal(t, tt.code, r.code, "%s", r.body)
			assert.True(t, closing)
			assert.Empty(t, requireServerClosed(t, rc))
			assert.Less(t, time.Since(start), 5*time.Second, "closed right after the answer, not at BodyReadTimeout")
		})
	}
}

// TestCh01_HostileCustomMetadata writes custom objects whose metadata is not an ObjectMeta,
// by create, merge patch, JSON patch and apply. Each is refused with the real server's 400
// (checked against kube-apiserver v1.36), and nothing is stored: a metadata informer could
// not decode a list holding such an object.
func TestCh01_HostileCustomMetadata(t *testing.T) {
	s, c := newServer(t, Options{})
	createFooCRD(t, c)
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, foosPath, foo("ok", map[string]any{"deploymentName": "d"})).code)
	prefix := `Foo in version "v1alpha1" cannot be handled as a Foo: json: cannot unmarshal `
	body := func(name, md string) string {
		return `{"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","metadata":{"name":"` + name + `",` + md + `},"spec":{"deploymentName":"d"}}`
	}
	tests := []struct {
		name, method, path, ctype, body, want string
	}{
		{"create, annotations a string", http.MethodPost, foosPath, "application/json", body("a1", `"annotations":"x"`),
			"string into Go struct field ObjectMeta.annotations of type map[string]string"},
		{"create, a label a number", http.MethodPost, foosPath, "application/json", body("a2", `"labels":{"a":1}`),
			"number into Go struct field ObjectMeta.labels of type string"},
		{"create, ownerReferences a string", http.MethodPost, foosPath, "application/json", body("a3", `"ownerReferences":"x"`),
			"string into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference"},
		{"create, a finalizer a number", http.MethodPost, foosPath, "application/json", body("a4", `"finalizers":[1]`),
			"number into Go struct field ObjectMeta.finalizers of type string"},
		{"merge patch", http.MethodPatch, foosPath + "/ok", "application/merge-patch+json", `{"metadata":{"labels":{"a":1}}}`,
			"number into Go struct field ObjectMeta.labels of type string"},
		{"JSON patch", http.MethodPatch, foosPath + "/ok", "application/json-patch+json", `[{"op":"add","path":"/metadata/annotations","value":"x"}]`,
			"string into Go struct field ObjectMeta.annotations of type map[string]string"},
		{"apply", http.MethodPatch, foosPath + "/a5?fieldManager=m", "application/apply-patch+yaml", body("a5", `"ownerReferences":"x"`),
			"string into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference"},
	}
	rv := rvString(s)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, tc.path, tc.body, "Content-Type", tc.ctype)
			require.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
			st := r.status(t)
			assert.Equal(t, api.StatusReasonBadRequest, st.Reason)
			assert.Equal(t, prefix+tc.want, st.Message)
		})
	}
	assert.Equal(t, rv, rvString(s), "nothing written")
}

// TestCh01_HostileApplyManagedFields applies objects that carry metadata.managedFields: the
// real server answers 400 "metadata.managedFields must be nil", for built-in and custom
// kinds alike, and stores nothing.
func TestCh01_HostileApplyManagedFields(t *testing.T) {
	s, c := newServer(t, Options{})
	createFooCRD(t, c)
	mf := `"managedFields":[{"manager":"x","operation":"Apply"}]`
	tests := []struct{ name, path, body string }{
		{"custom", foosPath + "/f?fieldManager=m",
			`{"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","metadata":{"name":"f",` + mf + `},"spec":{"deploymentName":"d"}}`},
		{"built-in", "/api/v1/namespaces/default/configmaps/cm?fieldManager=m",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm",` + mf + `}}`},
	}
	rv := rvString(s)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(http.MethodPatch, tc.path, tc.body, "Content-Type", "application/apply-patch+yaml")
			require.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
			assert.Equal(t, "metadata.managedFields must be nil", r.status(t).Message)
		})
	}
	assert.Equal(t, rv, rvString(s), "nothing written")
}

// TestCh01_HostilePatchTypeFirst sends a strategic merge patch to a custom object that does
// not exist. The real server checks the patch type before it looks for the object: 415,
// not 404.
func TestCh01_HostilePatchTypeFirst(t *testing.T) {
	_, c := newServer(t, Options{})
	createFooCRD(t, c)
	r := c.do(http.MethodPatch, foosPath+"/missing", `{"spec":{}}`, "Content-Type", "application/strategic-merge-patch+json")
	require.Equal(t, http.StatusUnsupportedMediaType, r.code, "%s", r.body)
	st := r.status(t)
	assert.Equal(t, api.StatusReasonUnsupportedMediaType, st.Reason)
	assert.Equal(t, "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml", st.Message)
}

// TestCh01_HostileRangeRules sends numbers out of their range: a container port of 70000 and
// of -1, and a Deployment with replicas -1. They were stored; the real server answers 422,
// and so does this one, without storing anything.
func TestCh01_HostileRangeRules(t *testing.T) {
	s, c := newServer(t, Options{})
	pod := func(port int) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":%d}]}]}}`, port)
	}
	tests := []struct{ name, path, body, want string }{
		{"port 70000", "/api/v1/namespaces/default/pods", pod(70000),
			`Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`},
		{"port -1", "/api/v1/namespaces/default/pods", pod(-1),
			`Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: -1: must be between 1 and 65535, inclusive`},
		{"replicas -1", "/apis/apps/v1/namespaces/default/deployments",
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":-1,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
			`Deployment.apps "d" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
	}
	rv := rvString(s)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(http.MethodPost, tc.path, tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			assert.Equal(t, tc.want, r.status(t).Message)
		})
	}
	assert.Equal(t, rv, rvString(s), "nothing written")
}

// TestCh01_HostileQuadraticPaths sends the probe's quadratic requests at n and at 8n through
// the server and counts the work of the loops over their input (package cost): a pod of
// empty containers (each required path was checked against every cause so far: 160 KB took
// 5.8 s), and strategic merge patches of finalizers, merged and deleted (40,000 took 81 s
// and 10 s). The work grows about 8 times, not 64.
func TestCh01_HostileQuadraticPaths(t *testing.T) {
	_, c := newServer(t, Options{})
	finalizers := func(prefix string, n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = fmt.Sprintf("example.com/%s-%d", prefix, i)
		}
		return out
	}
	seq := 0
	withFinalizers := func(t *testing.T, n int) string {
		seq++
		name := fmt.Sprintf("cm-%d", seq)
		r := c.do(http.MethodPost, "/api/v1/namespaces/default/configmaps", map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "finalizers": finalizers("a", n)}})
		require.Equal(t, http.StatusCreated, r.code, "%.300s", r.body)
		return "/api/v1/namespaces/default/configmaps/" + name
	}
	smp := func(t *testing.T, path string, patch any) {
		r := c.do(http.MethodPatch, path, patch, "Content-Type", "application/strategic-merge-patch+json")
		require.Equal(t, http.StatusOK, r.code, "%.300s", r.body)
	}
	tests := []struct {
		name string
		run  func(t *testing.T, n int) func()
	}{
		{"pod of empty containers", func(t *testing.T, n int) func() {
			containers := make([]any, n)
			for i := range containers {
				containers[i] = map[string]any{}
			}
			body := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p"},
				"spec": map[string]any{"containers": containers}}
			return func() {
				r := c.do(http.MethodPost, "/api/v1/namespaces/default/pods", body)
				require.Equal(t, http.StatusUnprocessableEntity, r.code)
			}
		}},
		{"smp merge of finalizers", func(t *testing.T, n int) func() {
			path := withFinalizers(t, n)
			patch := map[string]any{"metadata": map[string]any{"finalizers": finalizers("b", n)}}
			return func() { smp(t, path, patch) }
		}},
		{"smp deleteFromPrimitiveList", func(t *testing.T, n int) func() {
			path := withFinalizers(t, n)
			patch := map[string]any{"metadata": map[string]any{"$deleteFromPrimitiveList/finalizers": finalizers("a", n)}}
			return func() { smp(t, path, patch) }
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			small, large := tc.run(t, 500), tc.run(t, 4000)
			o1, o8 := cost.Measure(small), cost.Measure(large)
			t.Logf("n=500: %d ops; 8n: %d ops", o1, o8)
			require.Positive(t, o1)
			assert.LessOrEqual(t, float64(o8)/float64(o1), 10.0, "operations at 8n over n")
		})
	}
}

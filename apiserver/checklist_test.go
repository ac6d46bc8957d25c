package apiserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_E7_UnknownFieldWarning is the one row of the §10 E-table that succeeds: an
// unknown (or duplicate) field under fieldValidation Warn, the default, is dropped and
// reported in a `Warning: 299 - "…"` header (S5); under Ignore it is dropped silently; under
// Strict it is E6's 400. Creates and updates decode alike.
func TestCh01_E7_UnknownFieldWarning(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}})
	const pods = "/api/v1/namespaces/default/pods"
	tests := []struct {
		name     string
		method   string
		path     string
		body     string
		code     int
		warnings []string
	}{
		{"Warn by default", "POST", pods, `{"metadata":{"name":"a"},"spec":{"bogus":1,"containers":[{"name":"c","image":"x"}]}}`, 201,
			[]string{`299 - "unknown field \"spec.bogus\""`}},
		{"Warn explicit, nested in a list", "POST", pods + "?fieldValidation=Warn",
			`{"metadata":{"name":"b"},"spec":{"containers":[{"name":"c","image":"x","imagee":"x"}]}}`, 201,
			[]string{`299 - "unknown field \"spec.containers[0].imagee\""`}},
		{"Warn on a duplicate field", "POST", pods, `{"metadata":{"name":"c","name":"c"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, 201,
			[]string{`299 - "duplicate field \"metadata.name\""`}},
		{"Ignore", "POST", pods + "?fieldValidation=Ignore", `{"metadata":{"name":"d","bogus":true},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`, 201, nil},
		{"Warn on update", "PUT", "/api/v1/namespaces/default/configmaps/cfg", `{"metadata":{"name":"cfg"},"bogus":1}`, 200,
			[]string{`299 - "unknown field \"bogus\""`}},
		{"Strict is E6", "POST", pods + "?fieldValidation=Strict", `{"metadata":{"name":"e"},"spec":{"bogus":1}}`, 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do(tt.method, tt.path, tt.body, "Content-Type", "application/json")
			require.Equal(t, tt.code, r.code, "%s", r.body)
			assert.Equal(t, tt.warnings, r.header.Values("Warning"))
			if tt.code >= 400 {
				return
			}
			var obj map[string]any
			r.decode(t, &obj)
			assert.NotContains(t, string(r.body), "bogus", "the unknown field is not stored")
			assert.NotContains(t, string(r.body), "imagee")
		})
	}
}

// TestCh01_T12_T13_BothKinds runs T12 and T13 over HTTP for both built-in namespaced kinds:
// a PUT with a stale resourceVersion is 409 Conflict; one without a resourceVersion is an
// unconditional 200; a no-op PUT keeps the resourceVersion, writes nothing and sends no
// watch event.
func TestCh01_T12_T13_BothKinds(t *testing.T) {
	tests := []struct {
		resource string
		create   api.Object
		change   func(m map[string]any)
	}{
		{"pods", pod("default", "x", nil), func(m map[string]any) {
			m["metadata"].(map[string]any)["labels"] = map[string]any{"v": "2"}
		}},
		{"configmaps", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "x"}, Data: map[string]string{"k": "1"}}, func(m map[string]any) {
			m["data"] = map[string]any{"k": "2"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.resource, func(t *testing.T) {
			s, c := newServer(t, Options{})
			mustCreate(t, s, tt.resource, "default", tt.create)
			path := "/api/v1/namespaces/default/" + tt.resource + "/x"
			get := func() map[string]any {
				var m map[string]any
				c.get(path).decode(t, &m)
				return m
			}
			rvIn := func(m map[string]any) string { return m["metadata"].(map[string]any)["resourceVersion"].(string) }

			v1 := get()
			stale := get()
			// Someone else writes first: stale's RV is now out of date.
			v1["metadata"].(map[string]any)["annotations"] = map[string]any{"by": "other"}
			r := c.do("PUT", path, v1)
			require.Equal(t, 200, r.code, "%s", r.body)

			tt.change(stale)
			r = c.do("PUT", path, stale)
			require.Equal(t, 409, r.code, "T12: stale resourceVersion")
			st := r.status(t)
			assert.Equal(t, api.StatusReasonConflict, st.Reason)
			assert.Equal(t, fmt.Sprintf(`Operation cannot be fulfilled on %s "x": the object has been modified; please apply your changes to the latest version and try again`, tt.resource), st.Message)

			delete(stale["metadata"].(map[string]any), "resourceVersion")
			r = c.do("PUT", path, stale)
			require.Equal(t, 200, r.code, "T12: no resourceVersion is unconditional: %s", r.body)
			var written map[string]any
			r.decode(t, &written)
			assert.Equal(t, rvString(s), rvIn(written))

			// T13: PUT back exactly what is stored.
			st2 := c.watch("/api/v1/namespaces/default/" + tt.resource + "?watch=1&resourceVersion=" + rvString(s))
			before := rvString(s)
			r = c.do("PUT", path, written)
			require.Equal(t, 200, r.code)
			var same map[string]any
			r.decode(t, &same)
			assert.Equal(t, before, rvIn(same), "T13: same resourceVersion")
			assert.Equal(t, before, rvString(s), "T13: nothing written")
			// The next event on the watch is the next real change, not the no-op.
			mustCreate(t, s, tt.resource, "default", func() api.Object {
				o := tt.create.DeepCopyObject()
				m, err := api.Accessor(o)
				require.NoError(t, err)
				m.SetName("y")
				m.SetResourceVersion("")
				return o
			}())
			assert.Equal(t, "ADDED y@"+rvString(s), st2.next().short(t), "T13: no event for the no-op")
		})
	}
}

// TestCh01_SlowWatcherHTTP checks W19 and R12 over HTTP: a client that opens a watch and
// stops reading fills its TCP buffers, then its WatchBufferSize events; the server then
// drops it (it leaves Watchers) without ever blocking a writer. When the client reads
// again it gets a gapless run of events from its start RV, then one ERROR event, then the
// end of the stream; a new watch from the last RV it saw resumes with no gap.
func TestCh01_SlowWatcherHTTP(t *testing.T) {
	s, c := newServer(t, Options{WatchBufferSize: 8})
	startRV := s.ResourceVersion()
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", c.base, startRV), nil)
	require.NoError(t, err)
	resp, err := c.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	require.Len(t, s.Watchers(), 1)

	// Large pods fill the socket buffers in a few hundred writes; the bound turns a writer
	// that waits for the watcher into a failure rather than a hang.
	big := strings.Repeat("x", 32<<10)
	const maxWrites = 4000
	writes := 0
	for len(s.Watchers()) > 0 {
		require.Less(t, writes, maxWrites, "the stalled watcher was never closed")
		p := pod("default", fmt.Sprintf("p%05d", writes), nil)
		p.Annotations = map[string]string{"pad": big}
		mustCreate(t, s, "pods", "default", p)
		writes++
	}
	lastWritten := s.ResourceVersion()

	// Now read: a gapless prefix, one ERROR, the end.
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var lines []wireEvent
	for sc.Scan() {
		var ev wireEvent
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
		lines = append(lines, ev)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, lines)
	last := lines[len(lines)-1]
	require.Equal(t, "ERROR", last.Type)
	var st api.Status
	require.NoError(t, json.Unmarshal(last.Object, &st))
	assert.Equal(t, int32(500), st.Code)
	assert.Equal(t, api.StatusReasonInternalError, st.Reason)
	assert.Contains(t, st.Message, "did not keep up with 8 buffered events")
	seen := startRV
	for i, ev := range lines[:len(lines)-1] {
		_, _, name, rv, _ := ev.meta(t)
		require.Equal(t, "ADDED", ev.Type)
		require.Equal(t, fmt.Sprintf("p%05d", i), name, "gapless, in order")
		n, err := strconv.ParseUint(rv, 10, 64)
		require.NoError(t, err)
		require.Equal(t, seen+1, n)
		seen = n
	}
	require.Less(t, seen, lastWritten, "the watcher was closed before it had everything")
	assert.GreaterOrEqual(t, len(lines)-1, 8, "at least the buffered events were delivered")

	// Resume from the last RV seen: the rest, from history, with no gap.
	w := c.watch(fmt.Sprintf("/api/v1/namespaces/default/pods?watch=1&resourceVersion=%d", seen))
	ev := w.next()
	_, _, _, rv, _ := ev.meta(t)
	assert.Equal(t, "ADDED", ev.Type)
	assert.Equal(t, strconv.FormatUint(seen+1, 10), rv)
}

// TestCh01_StrategyWarnings: a kind's strategy may warn about what it stores
// (WarningsOnCreate, WarningsOnUpdate); the warnings reach the client as Warning headers,
// after the decoder's own, as the real server sends them. Ingress warns about its class
// annotation on create only; StorageClass about a deprecated topology label on create and update
// (both as the reference answers).
func TestCh01_StrategyWarnings(t *testing.T) {
	_, c := newServer(t, Options{})
	const ings = "/apis/networking.k8s.io/v1/namespaces/default/ingresses"
	deprecated := `299 - "annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead"`
	r := c.do("POST", ings, `{"metadata":{"name":"web","annotations":{"kubernetes.io/ingress.class":"nginx"}},"bogus":1,"spec":{}}`, "Content-Type", "application/json")
	require.Equal(t, 201, r.code, "%s", r.body)
	assert.Equal(t, []string{`299 - "unknown field \"bogus\""`, deprecated}, r.header.Values("Warning"))
	r = c.do("PUT", ings+"/web", `{"metadata":{"name":"web","annotations":{"kubernetes.io/ingress.class":"nginx"}},"spec":{}}`, "Content-Type", "application/json")
	require.Equal(t, 200, r.code, "%s", r.body)
	assert.Empty(t, r.header.Values("Warning"), "ingresses warn on create only")
	r = c.do("POST", ings, `{"metadata":{"name":"new","annotations":{"kubernetes.io/ingress.class":"nginx"}},"spec":{"ingressClassName":"nginx"}}`, "Content-Type", "application/json")
	require.Equal(t, 201, r.code, "%s", r.body)
	assert.Empty(t, r.header.Values("Warning"), "spec.ingressClassName replaces the annotation")

	// A StorageClass warns about a deprecated topology label on create and on update.
	const scs = "/apis/storage.k8s.io/v1/storageclasses"
	zoned := `299 - "allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.17; use \"topology.kubernetes.io/zone\" instead"`
	r = c.do("POST", scs, `{"metadata":{"name":"zoned"},"provisioner":"example.com/x","allowedTopologies":[{"matchLabelExpressions":[{"key":"failure-domain.beta.kubernetes.io/zone","values":["a"]}]}]}`, "Content-Type", "application/json")
	require.Equal(t, 201, r.code, "%s", r.body)
	assert.Equal(t, []string{zoned}, r.header.Values("Warning"))
	r = c.do("PATCH", scs+"/zoned", `{"metadata":{"labels":{"a":"b"}}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
	assert.Equal(t, []string{zoned}, r.header.Values("Warning"), "the same warning on update")
}

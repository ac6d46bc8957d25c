package nodeinterop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestMain fails the package if any goroutine outlives the tests: the simulator, the HTTP
// server and the readers of the node process must all have stopped.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitTimeout bounds every wait for the node process; a healthy run needs a fraction of it
// (node starts in about half a second).
const waitTimeout = 30 * time.Second

// TestClientNode_InformerSyncsAndSeesAddUpdateDelete: client-node's makeInformer for pods in
// all namespaces syncs with one LIST and one WATCH from the list's resourceVersion, then sees
// a create, an update and a delete as add, update and delete callbacks carrying the server's
// resourceVersions, all over that one WATCH.
func TestClientNode_InformerSyncsAndSeesAddUpdateDelete(t *testing.T) {
	requireNode(t)
	env := startServer(t)
	ctx := context.Background()
	createPod(t, env.srv, "default", "web-1")
	createPod(t, env.srv, "default", "web-2")
	createPod(t, env.srv, "kube-system", "dns")
	want := serverPods(t, env.srv)
	listRV := rvString(env.srv.ResourceVersion())

	ni := startNodeInformer(t, env.kubeconfig)
	evs := ni.awaitEvent("the informer to sync", "synced", "")
	require.Equal(t, []string{"connect", "list", "add", "add", "add", "synced"}, eventNames(evs), "%v", evs)
	assert.Equal(t, listRV, evs[1].RV, "the LIST answers at the current RV")
	assert.Equal(t, len(want), evs[1].Items)
	assert.Equal(t, want, keyRVs(evs[2:5]), "one add per listed pod, with its RV")
	assert.Equal(t, listRV, evs[5].RV, "synced at the list's RV")
	assert.Equal(t, want, ni.cache(), "the cache after sync")

	reqs := env.rec.Requests()
	require.Len(t, reqs, 2, "client-node syncs with a LIST and a WATCH and nothing else: %v", describe(reqs))
	list, w := reqs[0], reqs[1]
	assert.Equal(t, "list", list.Verb())
	assert.Equal(t, "/api/v1/pods", list.Path)
	assert.Empty(t, list.Query, "listPodForAllNamespaces() sends no query: a consistent read")
	assert.Equal(t, http.StatusOK, list.Status)
	assert.Equal(t, "watch", w.Verb())
	assert.Equal(t, "/api/v1/pods", w.Path)
	assert.Equal(t, "true", w.Query.Get("watch"))
	assert.Equal(t, listRV, w.Query.Get("resourceVersion"), "the WATCH starts at the list's RV")
	for _, q := range []string{"allowWatchBookmarks", "sendInitialEvents", "resourceVersionMatch", "timeoutSeconds"} {
		assert.NotContains(t, w.Query, q, "client-node's informer uses neither bookmarks, watch-list nor a watch timeout")
	}
	assert.Equal(t, http.StatusOK, w.Status)

	// Add.
	created := createPod(t, env.srv, "default", "late")
	e := ni.awaitEvent("the add of default/late", "add", "default/late")
	assert.Equal(t, created.ResourceVersion, e[len(e)-1].RV)

	// Update.
	created.Labels = map[string]string{"tier": "frontend"}
	obj, err := env.srv.Update(ctx, "pods", "default", created)
	require.NoError(t, err)
	e = ni.awaitEvent("the update of default/late", "update", "default/late")
	assert.Equal(t, obj.(*api.Pod).ResourceVersion, e[len(e)-1].RV)

	// Delete: the callback gets the last state at the delete's RV.
	_, err = env.srv.Delete(ctx, "pods", "default", "late", nil)
	require.NoError(t, err)
	e = ni.awaitEvent("the delete of default/late", "delete", "default/late")
	assert.Equal(t, rvString(env.srv.ResourceVersion()), e[len(e)-1].RV)

	assert.Equal(t, want, ni.cache(), "the cache equals the server's again")
	reqs = env.rec.Requests()
	require.Len(t, reqs, 2, "the events came over the same WATCH: %v", describe(reqs))
	assert.Equal(t, []string{"ADDED", "MODIFIED", "DELETED"}, wiretest.EventTypes(reqs[1].Events()))
	assert.False(t, reqs[1].Done, "the WATCH is still open")
}

// TestClientNode_CompactionMakesInformerRelist: after one live event, the informer's stream
// loses two events (dropped), the history is compacted past its last RV and the stream is
// closed. client-node re-WATCHes from its last RV and gets 200 + ERROR 410 Expired (W12); it
// then relists with a LIST, reports the missed delete and update, WATCHes again from the new
// list's RV, and its cache equals the server's.
func TestClientNode_CompactionMakesInformerRelist(t *testing.T) {
	requireNode(t)
	env := startServer(t)
	ctx := context.Background()
	for i := range 5 {
		createPod(t, env.srv, "default", fmt.Sprintf("pod-%d", i))
	}

	ni := startNodeInformer(t, env.kubeconfig)
	ni.awaitEvent("the informer to sync", "synced", "")
	createPod(t, env.srv, "default", "seen")
	ni.awaitEvent("the add of default/seen", "add", "default/seen")
	lastRV := rvString(env.srv.ResourceVersion())

	env.srv.DropNextEvents(apiserver.DropRule{Count: 2})
	_, err := env.srv.Delete(ctx, "pods", "default", "pod-0", nil)
	require.NoError(t, err)
	_, err = env.srv.Patch(ctx, "pods", "default", "pod-1", api.MergePatchType, []byte(`{"metadata":{"labels":{"changed":"yes"}}}`))
	require.NoError(t, err)
	want := serverPods(t, env.srv)
	relistRV := rvString(env.srv.ResourceVersion())
	require.NotEqual(t, want, ni.cache(), "the dropped delete and update have not reached the cache")

	env.srv.ResetRequestCounts()
	env.srv.CompactAll()
	env.srv.CloseAllWatches()

	// client-node reconnects (the closed WATCH), reconnects again (the 410) and relists.
	evs := ni.awaitEvent("the relist", "list", "")
	require.Equal(t, []string{"connect", "connect", "list"}, eventNames(evs), "%v", evs)
	assert.Equal(t, relistRV, evs[2].RV)
	assert.Equal(t, len(want), evs[2].Items)
	// The relist reports what the dropped events carried: the delete (with the cached
	// object) and the update (with the listed one).
	evs = ni.awaitEvent("the missed update", "update", "default/pod-1")
	require.Equal(t, []string{"delete", "update"}, eventNames(evs), "%v", evs)
	assert.Equal(t, "default/pod-0", evs[0].Key)
	assert.Equal(t, want["default/pod-1"], evs[1].RV)
	assert.Equal(t, want, ni.cache(), "after the relist the cache equals the server's")

	// The informer watches again: a new pod reaches it.
	createPod(t, env.srv, "default", "after")
	ni.awaitEvent("the add of default/after", "add", "default/after")
	counts := env.srv.RequestCounts() // before serverPods, which the server counts as a list
	assert.Equal(t, serverPods(t, env.srv), ni.cache())

	reqs := env.rec.Requests()
	require.Equal(t, []string{"list", "watch", "watch", "list", "watch"}, wiretest.Verbs(reqs), "%v", describe(reqs))
	assert.True(t, reqs[1].Done, "CloseAllWatches ended the first WATCH")
	resumed := reqs[2]
	assert.Equal(t, lastRV, resumed.Query.Get("resourceVersion"), "the resumed WATCH starts at the last RV seen")
	assert.Equal(t, http.StatusOK, resumed.Status, "a too-old watch RV is never an HTTP 410 (W12)")
	rEvs := resumed.Events()
	require.Len(t, rEvs, 1, "%v", rEvs)
	assert.Equal(t, "ERROR", rEvs[0].Type)
	assert.Equal(t, "Expired", rEvs[0].Reason)
	assert.Equal(t, http.StatusGone, rEvs[0].Code)
	assert.True(t, resumed.Done, "the server ends the stream after the ERROR")
	relist := reqs[3]
	assert.Empty(t, relist.Query, "the relist is a consistent read")
	assert.Equal(t, http.StatusOK, relist.Status)
	rewatch := reqs[4]
	assert.Equal(t, relistRV, rewatch.Query.Get("resourceVersion"), "the new WATCH starts at the relist's RV")
	assert.Equal(t, []string{"ADDED"}, wiretest.EventTypes(rewatch.Events()))
	assert.Equal(t, map[apiserver.RequestKey]int{
		{Verb: "list", Resource: "pods"}:   1,
		{Verb: "watch", Resource: "pods"}:  2,
		{Verb: "create", Resource: "pods"}: 1, // "after", through the Go API
	}, counts, "after the compaction: the resumed WATCH, one LIST, the new WATCH")
}

// --- node and npm -------------------------------------------------------------------------

var (
	npmOnce sync.Once
	npmErr  error
	npmOut  []byte
)

// requireNode skips the test when node or npm is not on PATH, and otherwise installs the
// pinned @kubernetes/client-node into node_modules with `npm ci`, once per test binary.
func requireNode(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIP: %s is not on PATH, so the @kubernetes/client-node interop test cannot run "+
				"(it needs Node.js >= 18 and npm; on Debian: apt-get install nodejs npm)", tool)
		}
	}
	npmOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline")
		npmOut, npmErr = cmd.CombinedOutput()
	})
	if npmErr != nil {
		t.Fatalf("npm ci in interop/node: %v\n%s", npmErr, npmOut)
	}
}

// nodeEvent is one JSON line of informer.mjs (see its header).
type nodeEvent struct {
	Event      string            `json:"event"`
	Key        string            `json:"key,omitempty"`
	RV         string            `json:"rv,omitempty"`
	Items      int               `json:"items,omitempty"`
	Message    string            `json:"message,omitempty"`
	StatusCode int               `json:"statusCode,omitempty"`
	Pods       map[string]string `json:"pods,omitempty"`
}

func (e nodeEvent) String() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// nodeInformer is a running `node informer.mjs KUBECONFIG`. One goroutine reads its stdout
// into events until EOF; the test goroutine consumes them from a cursor.
type nodeInformer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr syncBuffer

	mu      sync.Mutex
	events  []nodeEvent
	exited  bool          // stdout reached EOF
	changed chan struct{} // capacity 1: a new event or EOF
	done    chan struct{} // closed at stdout EOF

	next int // the cursor; only the test goroutine uses it
}

// startNodeInformer runs informer.mjs against the kubeconfig. The process is told to stop,
// and killed if it does not exit, when the test ends (before the server closes).
func startNodeInformer(t *testing.T, kubeconfig string) *nodeInformer {
	t.Helper()
	ni := &nodeInformer{t: t, changed: make(chan struct{}, 1), done: make(chan struct{})}
	ni.cmd = exec.Command("node", "informer.mjs", kubeconfig)
	ni.cmd.Stderr = &ni.stderr
	stdout, err := ni.cmd.StdoutPipe()
	require.NoError(t, err)
	ni.stdin, err = ni.cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, ni.cmd.Start())
	go ni.read(stdout)
	t.Cleanup(ni.stop)
	return ni
}

func (ni *nodeInformer) read(stdout io.Reader) {
	defer close(ni.done)
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		var e nodeEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Event == "" {
			e = nodeEvent{Event: "garbage", Message: sc.Text()}
		}
		ni.mu.Lock()
		ni.events = append(ni.events, e)
		ni.mu.Unlock()
		ni.signal()
	}
	ni.mu.Lock()
	ni.exited = true
	ni.mu.Unlock()
	ni.signal()
}

func (ni *nodeInformer) signal() {
	select {
	case ni.changed <- struct{}{}:
	default:
	}
}

// stop asks the script to stop (and closes its stdin, which also stops it), waits for it to
// exit for up to 10 s, and kills it otherwise.
func (ni *nodeInformer) stop() {
	_, _ = io.WriteString(ni.stdin, "stop\n")
	_ = ni.stdin.Close()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	killed := false
	select {
	case <-ni.done:
	case <-timer.C:
		killed = true
		_ = ni.cmd.Process.Kill()
		<-ni.done
	}
	err := ni.cmd.Wait()
	switch {
	case killed:
		ni.t.Errorf("node did not exit within 10 s of stop; killed it\n%s", ni.transcript())
	case err != nil && !ni.t.Failed():
		ni.t.Errorf("node exited with %v\n%s", err, ni.transcript())
	}
}

// awaitEvent returns the events from the cursor up to and including the first with the given
// name (and key, when not empty), and moves the cursor past it. It fails the test on an
// error, fatal or unreadable line on the way, when node exits, or after waitTimeout.
func (ni *nodeInformer) awaitEvent(what, event, key string) []nodeEvent {
	ni.t.Helper()
	timer := time.NewTimer(waitTimeout)
	defer timer.Stop()
	start := ni.next
	for {
		ni.mu.Lock()
		evs, exited := ni.events, ni.exited
		ni.mu.Unlock()
		for ; ni.next < len(evs); ni.next++ {
			e := evs[ni.next]
			if e.Event == event && (key == "" || e.Key == key) {
				ni.next++
				return evs[start:ni.next]
			}
			switch e.Event {
			case "error", "fatal", "garbage":
				ni.t.Fatalf("waiting for %s, client-node reported %v\n%s", what, e, ni.transcript())
			}
		}
		if exited {
			ni.t.Fatalf("waiting for %s, node exited\n%s", what, ni.transcript())
		}
		select {
		case <-ni.changed:
		case <-timer.C:
			ni.t.Fatalf("waiting for %s: nothing after %s\n%s", what, waitTimeout, ni.transcript())
		}
	}
}

// cache asks the informer for its cache: namespace/name → resourceVersion.
func (ni *nodeInformer) cache() map[string]string {
	ni.t.Helper()
	_, err := io.WriteString(ni.stdin, "cache\n")
	require.NoError(ni.t, err)
	evs := ni.awaitEvent("the cache", "cache", "")
	pods := evs[len(evs)-1].Pods
	if pods == nil {
		pods = map[string]string{}
	}
	return pods
}

// transcript is every line node printed so far, and its stderr, for failure messages.
func (ni *nodeInformer) transcript() string {
	ni.mu.Lock()
	defer ni.mu.Unlock()
	var b strings.Builder
	b.WriteString("node stdout:\n")
	for _, e := range ni.events {
		fmt.Fprintf(&b, "  %v\n", e)
	}
	fmt.Fprintf(&b, "node stderr:\n%s", ni.stderr.String())
	return b.String()
}

// syncBuffer is a bytes.Buffer safe for the copying goroutine of exec and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// --- the simulator ------------------------------------------------------------------------

type env struct {
	srv        *apiserver.Server
	rec        *wiretest.Recorder
	kubeconfig string // path
}

// startServer serves a new simulator over TLS on a free 127.0.0.1 port behind a Recorder,
// and writes a kubeconfig for it that trusts the server's certificate. client-node 1.x
// refuses a plain-http server unless insecure-skip-tls-verify is set, so the test uses TLS,
// as a real cluster does. Both servers are closed when the test ends, the apiserver first so
// that open watches end.
func startServer(t *testing.T) *env {
	t.Helper()
	srv := apiserver.New(apiserver.Options{})
	rec := &wiretest.Recorder{}
	hs := httptest.NewUnstartedServer(rec.Wrap(srv.Handler()))
	hs.StartTLS()
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw})
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: informer-lab
  cluster:
    server: %q
    certificate-authority-data: %q
users:
- name: informer-lab
  user: {}
contexts:
- name: informer-lab
  context:
    cluster: informer-lab
    user: informer-lab
    namespace: default
current-context: informer-lab
`, hs.URL, base64.StdEncoding.EncodeToString(ca))
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(path, []byte(kc), 0o600))
	return &env{srv: srv, rec: rec, kubeconfig: path}
}

// createPod creates a pod in process (no HTTP request is recorded) and returns it.
func createPod(t *testing.T, srv *apiserver.Server, ns, name string) *api.Pod {
	t.Helper()
	obj, err := srv.Create(context.Background(), "pods", ns, &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": "seed"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.27"}}},
	})
	require.NoError(t, err)
	return obj.(*api.Pod)
}

// serverPods returns namespace/name → resourceVersion of every pod the simulator holds.
func serverPods(t *testing.T, srv *apiserver.Server) map[string]string {
	t.Helper()
	obj, err := srv.List(context.Background(), "pods", "", api.ListOptions{})
	require.NoError(t, err)
	list, ok := obj.(*api.PodList)
	require.True(t, ok, "pods list is %T", obj)
	out := make(map[string]string, len(list.Items))
	for _, p := range list.Items {
		out[p.Namespace+"/"+p.Name] = p.ResourceVersion
	}
	return out
}

func rvString(rv uint64) string { return strconv.FormatUint(rv, 10) }

func eventNames(evs []nodeEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Event
	}
	return out
}

func keyRVs(evs []nodeEvent) map[string]string {
	out := make(map[string]string, len(evs))
	for _, e := range evs {
		out[e.Key] = e.RV
	}
	return out
}

// describe renders requests as "GET /api/v1/pods?watch=true&… → 200" for failure messages.
func describe(reqs []wiretest.Request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = fmt.Sprintf("%s %s?%s → %d", r.Method, r.Path, r.Query.Encode(), r.Status)
	}
	return out
}

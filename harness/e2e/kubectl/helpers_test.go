package kubectl_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/harness/cluster"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

// commandTimeout bounds every kubectl run. kubectl against the simulator takes about 0.1 s;
// the bound only turns a hang into a failure.
const commandTimeout = 30 * time.Second

// lineTimeout bounds the wait for one line of a long-running kubectl.
const lineTimeout = 15 * time.Second

// kubectlPath returns kubectl from PATH, or skips the test: the only reason to skip (§3 of
// the package contract).
func kubectlPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on PATH: the kubectl end-to-end suite (docs/behaviour/wire.md §7, T1–T7) needs it; install kubectl 1.27–1.33 to run it")
	}
	return p
}

// exchange is one request as the recording handler saw it.
type exchange struct {
	Method, URI, Accept, ContentType, UserAgent string
	Code                                        int
	// ListRV is metadata.resourceVersion of a non-watch response body, when it has one.
	ListRV string
}

func (e exchange) String() string {
	return fmt.Sprintf("%s %s -> %d (Accept %q, Content-Type %q, rv %q)", e.Method, e.URI, e.Code, e.Accept, e.ContentType, e.ListRV)
}

// recorder is a handler in front of the server that remembers every request, so tests can
// assert on what went over the wire. A request is logged when it arrives (a watch is seen
// while it runs); its code and list RV are filled in when it ends.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	log  []*exchange
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := &exchange{Method: r.Method, URI: r.URL.RequestURI(), Accept: r.Header.Get("Accept"),
		ContentType: r.Header.Get("Content-Type"), UserAgent: r.Header.Get("User-Agent")}
	rec.mu.Lock()
	rec.log = append(rec.log, ex)
	rec.mu.Unlock()
	rw := &recordingWriter{ResponseWriter: w, watch: r.URL.Query().Has("watch")}
	rec.next.ServeHTTP(rw, r)
	var body struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	ex.Code = rw.code
	if !rw.watch && json.Unmarshal(rw.body.Bytes(), &body) == nil {
		ex.ListRV = body.Metadata.ResourceVersion
	}
}

func (rec *recorder) exchanges() []exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := make([]exchange, len(rec.log))
	for i, ex := range rec.log {
		out[i] = *ex
	}
	return out
}

// matching returns the recorded requests of a method whose path (before '?') is path.
func (rec *recorder) matching(method, path string) []exchange {
	var out []exchange
	for _, e := range rec.exchanges() {
		p, _, _ := strings.Cut(e.URI, "?")
		if e.Method == method && p == path {
			out = append(out, e)
		}
	}
	return out
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	rec.log = nil
	rec.mu.Unlock()
}

type recordingWriter struct {
	http.ResponseWriter
	code  int
	watch bool
	body  bytes.Buffer
}

func (w *recordingWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if !w.watch && w.body.Len() < 1<<20 {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

func (w *recordingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// env is one test's world: a server behind a recorder, a kubeconfig and a private HOME.
type env struct {
	t       *testing.T
	kubectl string
	srv     *apiserver.Server
	rec     *recorder
	dir     string
	config  string
	url     string // the server's base URL, when newEnv started it
}

// newEnv starts a server with opts on a loopback port behind a recorder and writes its
// kubeconfig. On failure the test logs every request the server saw.
func newEnv(t *testing.T, opts apiserver.Options) *env {
	t.Helper()
	path := kubectlPath(t)
	opts.Bootstrap = true // the objects a fresh real server has, as kubectl users meet them
	require.NoError(t, opts.Validate())
	srv := apiserver.New(opts)
	rec := &recorder{next: srv.Handler()}
	ts := httptest.NewServer(rec)
	// Cleanups run last-in first-out: the server ends its watches before the listener waits
	// for its connections.
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)
	e := &env{t: t, kubectl: path, srv: srv, rec: rec, dir: t.TempDir(), url: ts.URL}
	e.config = filepath.Join(e.dir, "kubeconfig")
	e.writeKubeconfig(ts.URL, "")
	t.Cleanup(func() {
		if t.Failed() {
			for _, ex := range rec.exchanges() {
				t.Log("wire: " + ex.String())
			}
		}
	})
	return e
}

// newTLSEnv starts a server with StartTLS (no recorder) and uses its own Kubeconfig.
func newTLSEnv(t *testing.T, opts apiserver.Options) *env {
	t.Helper()
	path := kubectlPath(t)
	opts.Bootstrap = true
	srv := apiserver.NewTLSTestServer(t, opts)
	e := &env{t: t, kubectl: path, srv: srv, rec: &recorder{}, dir: t.TempDir()}
	e.config = filepath.Join(e.dir, "kubeconfig")
	require.NoError(t, os.WriteFile(e.config, srv.Kubeconfig(), 0o600))
	return e
}

func (e *env) writeKubeconfig(url, token string) {
	user := "{}"
	if token != "" {
		user = "{token: " + token + "}"
	}
	cfg := "apiVersion: v1\nkind: Config\n" +
		"clusters:\n- name: sim\n  cluster:\n    server: " + url + "\n" +
		"users:\n- name: sim\n  user: " + user + "\n" +
		"contexts:\n- name: sim\n  context: {cluster: sim, user: sim, namespace: default}\n" +
		"current-context: sim\n"
	require.NoError(e.t, os.WriteFile(e.config, []byte(cfg), 0o600))
}

// command builds a kubectl command with the test's kubeconfig, HOME and cache directory.
func (e *env) command(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"--kubeconfig", e.config, "--cache-dir", filepath.Join(e.dir, "cache")}, args...)
	cmd := exec.CommandContext(ctx, e.kubectl, full...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "KUBECONFIG=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "HOME="+e.dir)
	cmd.Dir = e.dir
	return cmd
}

// run runs kubectl to completion and returns its stdout, stderr and error.
func (e *env) run(args ...string) (stdout, stderr string, err error) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := e.command(ctx, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	require.NoError(e.t, ctx.Err(), "kubectl %s did not finish within %v", strings.Join(args, " "), commandTimeout)
	return out.String(), errOut.String(), err
}

// ok runs kubectl and fails the test unless it succeeds; it returns stdout.
func (e *env) ok(args ...string) string {
	e.t.Helper()
	out, errOut, err := e.run(args...)
	require.NoError(e.t, err, "kubectl %s\nstdout: %s\nstderr: %s", strings.Join(args, " "), out, errOut)
	return out
}

// file writes a file into the test's directory and returns its path.
func (e *env) file(name, content string) string {
	e.t.Helper()
	p := filepath.Join(e.dir, name)
	require.NoError(e.t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

// proc is a long-running kubectl whose stdout is read line by line.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	lines  chan string
	done   chan struct{} // closed when the process has exited and its output is drained
	stderr *syncBuffer
}

// start runs kubectl in the background. It is killed (by its own PID) when the test ends.
func (e *env) start(args ...string) *proc {
	e.t.Helper()
	cmd := e.command(context.Background(), args...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(e.t, err)
	p := &proc{t: e.t, cmd: cmd, lines: make(chan string, 1000), done: make(chan struct{}), stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	require.NoError(e.t, cmd.Start())
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		_ = cmd.Wait()
	}()
	e.t.Cleanup(p.stop)
	return p
}

// next returns the next stdout line, failing after lineTimeout.
func (p *proc) next() string {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("kubectl exited before printing the expected line; stderr: %s", p.stderr.String())
		}
		return line
	case <-time.After(lineTimeout):
		p.t.Fatalf("kubectl printed no line within %v; stderr: %s", lineTimeout, p.stderr.String())
	}
	return ""
}

// running reports whether the process is still alive.
func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// stop kills the process by its PID and waits for it.
func (p *proc) stop() {
	if p.running() {
		_ = p.cmd.Process.Kill()
	}
	<-p.done
}

type syncBuffer = cluster.TraceBuffer

// Objects made through the server's Go API: "another client" in the watch tests.

func (e *env) createPod(name string, labels map[string]string, containers ...string) *api.Pod {
	e.t.Helper()
	if len(containers) == 0 {
		containers = []string{"c"}
	}
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
	for _, c := range containers {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: c, Image: "nginx"})
	}
	out, err := e.srv.Create(context.Background(), "pods", "default", p)
	require.NoError(e.t, err)
	return out.(*api.Pod)
}

func (e *env) getPod(name string) *api.Pod {
	e.t.Helper()
	out, err := e.srv.Get(context.Background(), "pods", "default", name)
	require.NoError(e.t, err)
	return out.(*api.Pod)
}

func (e *env) relabel(name string, labels map[string]string) {
	e.t.Helper()
	p := e.getPod(name)
	p.Labels = labels
	_, err := e.srv.Update(context.Background(), "pods", "default", p)
	require.NoError(e.t, err)
}

func (e *env) deletePod(name string) {
	e.t.Helper()
	_, err := e.srv.Delete(context.Background(), "pods", "default", name, nil)
	require.NoError(e.t, err)
}

// waitForWatch waits (bounded) until the server has a watch with the given field selector.
func (e *env) waitForWatch(fieldSelector string) {
	e.t.Helper()
	require.Eventually(e.t, func() bool {
		for _, w := range e.srv.Watchers() {
			if w.FieldSelector == fieldSelector {
				return true
			}
		}
		return false
	}, lineTimeout, time.Millisecond, "no watch with fieldSelector %s", fieldSelector)
}

// fields splits a table row printed by kubectl into its cells.
func fields(line string) []string { return strings.Fields(line) }

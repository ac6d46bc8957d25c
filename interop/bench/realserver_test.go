package bench

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/informer-lab/informer-lab/apiserver"
)

var (
	realRun     = flag.Bool("real", false, "compare `demo serve` with the conformance suite's real kube-apiserver (make bench-real)")
	realRef     = flag.String("real.refserver", "../../conformance/out/refserver", "the reference server binary (make conformance-build)")
	realDemo    = flag.String("real.demo", "", "a built `demo` binary (default: go build ./cmd/demo into a temporary directory)")
	realN       = flag.Int("real.n", 10_000, "ConfigMaps to create, then to sync")
	realConc    = flag.Int("real.concurrency", 16, "goroutines creating the ConfigMaps, on both servers")
	realRounds  = flag.Int("real.rounds", 3, "rounds; each starts both servers afresh, in turns going first; the fastest round of each side counts")
	realSyncs   = flag.Int("real.syncs", 3, "informer syncs per round (the fastest counts)")
	realInProc  = flag.Bool("real.inprocess", false, "serve ours in the test process (apiserver.New + StartTLS, as demo serve does) instead of a demo serve process, so -cpuprofile sees it")
	realOnly    = flag.String("real.only", "", "run one side only: ours or real (to profile one of them)")
	realProfile = flag.String("real.cpuprofile", "", "write a CPU profile of the demo serve process to `FILE` (its --cpuprofile; each round overwrites it, so the last round's stays)")
	realFloor   = flag.Bool("real.floor", true, "also time the creates and the sync against a server doing no work, answering with what ours answered: in the test process (the client's floor) and as a process of its own (the process floor)")
	realTimeout = flag.Duration("real.ready-timeout", 5*time.Minute, "how long a server may take to print its ready line")
)

// benchTarget is one running server, as a client-go program reaches it.
type benchTarget struct {
	kubeconfig string
	stop       func()
}

// TestBenchRealServer starts the reference kube-apiserver (with etcd, no controllers) and our
// `demo serve` (apiserver alone, TLS and a bearer token, as the reference) as processes, one
// at a time, and runs the same client-go program against each: create N ConfigMaps with a
// fixed number of goroutines, then sync a fresh ConfigMap informer (watch-list) to HasSynced.
func TestBenchRealServer(t *testing.T) {
	if !*realRun {
		t.Skip("run with -real (make bench-real)")
	}
	ref, err := filepath.Abs(*realRef)
	require.NoError(t, err)
	if _, err := os.Stat(ref); err != nil && *realOnly != "ours" {
		t.Skipf("no reference server at %s (build it with make conformance-build): %v", ref, err)
	}
	demo := *realDemo
	if demo == "" && !*realInProc && *realOnly != "real" {
		demo = buildDemo(t)
	}
	start := map[string]func(t *testing.T, dir string) *benchTarget{
		"real": func(t *testing.T, dir string) *benchTarget { return startRefserver(t, ref, dir) },
		"ours": func(t *testing.T, dir string) *benchTarget {
			if *realInProc {
				return startInProcess(t, dir)
			}
			return startDemo(t, demo, dir)
		},
	}
	order := [2]string{"real", "ours"}
	var res realResults
	res.n, res.conc = *realN, *realConc
	for round := range max(*realRounds, 1) {
		for i := range 2 {
			side := order[(round+i)%2]
			if *realOnly != "" && side != *realOnly {
				continue
			}
			r := measure(t, side, start[side])
			t.Logf("round %d %s: %s", round+1, side, r)
			res.add(side, r)
		}
	}
	t.Log("\n" + res.table(loadAverage()))
}

// measure starts one server, runs the workload and stops the server.
func measure(t *testing.T, side string, start func(*testing.T, string) *benchTarget) realRound {
	dir := t.TempDir()
	tgt := start(t, dir)
	defer tgt.stop()
	cfg, err := clientcmd.BuildConfigFromFlags("", tgt.kubeconfig)
	require.NoError(t, err)
	// client-go's defaults (QPS 5, burst 10) would make the client's limiter the bottleneck.
	cfg.QPS, cfg.Burst = 1e6, 1_000_000
	ctx := context.Background()
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	const ns = "bench"
	_, err = cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	require.NoError(t, err, side)
	var r realRound
	r.create, err = createConfigMaps(ctx, cs, ns, *realN, *realConc)
	require.NoError(t, err, side)
	for range max(*realSyncs, 1) {
		d, count, reqs, err := syncConfigMaps(ctx, cfg, ns)
		require.NoError(t, err, side)
		require.Equal(t, *realN, count, "%s: the informer's store after sync", side)
		if r.sync == 0 || d < r.sync {
			r.sync = d
		}
		r.requests = reqs
	}
	if *realFloor && side == "ours" {
		uri, accept := watchListRequest(r.requests)
		var rp replay
		rp.stream, rp.streamType, err = captureWatchList(ctx, cfg, uri, accept)
		require.NoError(t, err)
		rp.object, rp.objectType, err = captureObject(ctx, cfg, "/api/v1/namespaces/"+ns+"/configmaps/cm-00000", accept)
		require.NoError(t, err)
		r.createFloor, r.floor = replayRound(t, &rp, ns)
		r.createProcessFloor, r.processFloor = replayProcessRound(t, &rp, ns)
	}
	return r
}

// replayRound times the creates and the informer's sync (best of -real.syncs) against a
// server replaying what ours answered (realserver_floor_test.go), in this process.
func replayRound(t *testing.T, rp *replay, ns string) (create, sync time.Duration) {
	srv := replayServer(rp)
	defer srv.Close()
	defer srv.CloseClientConnections()
	return replayRoundAt(t, srv.URL, ns)
}

// replayRoundAt runs replayRound's workload against the replaying server at url.
func replayRoundAt(t *testing.T, url, ns string) (create, sync time.Duration) {
	cfg := &rest.Config{Host: url, TLSClientConfig: rest.TLSClientConfig{Insecure: true}, QPS: 1e6, Burst: 1_000_000}
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	create, err = createConfigMaps(context.Background(), cs, ns, *realN, *realConc)
	require.NoError(t, err, "creates against the replaying server")
	for range max(*realSyncs, 1) {
		d, count, _, err := syncConfigMaps(context.Background(), cfg, ns)
		require.NoError(t, err, "replayed stream")
		require.Equal(t, *realN, count, "the informer's store after a replayed sync")
		if sync == 0 || d < sync {
			sync = d
		}
	}
	return create, sync
}

// createConfigMaps creates n small ConfigMaps from conc goroutines sharing one clientset.
func createConfigMaps(ctx context.Context, cs kubernetes.Interface, ns string, n, conc int) (time.Duration, error) {
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	begin := time.Now()
	for range max(conc, 1) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%05d", i), Labels: map[string]string{"app": "bench"}},
					Data: map[string]string{"key": fmt.Sprintf("value-%d", i)}}
				if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					once.Do(func() { firstErr = fmt.Errorf("create %s: %w", cm.Name, err) })
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(begin), firstErr
}

// syncConfigMaps runs a fresh ConfigMap informer of namespace ns until HasSynced and returns
// the time from Run to HasSynced, the store's size and the requests its client sent.
func syncConfigMaps(ctx context.Context, base *rest.Config, ns string) (time.Duration, int, []string, error) {
	cfg := rest.CopyConfig(base)
	rec := &requestLog{}
	cfg.Wrap(rec.wrap)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return 0, 0, nil, err
	}
	inf := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns)).Core().V1().ConfigMaps().Informer()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	begin := time.Now()
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	// Poll every millisecond: cache.WaitForCacheSync's 100 ms would round every sync up.
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Minute)
	for !inf.HasSynced() {
		select {
		case <-tick.C:
		case <-deadline:
			return 0, 0, nil, fmt.Errorf("no sync within 5 minutes")
		}
	}
	d := time.Since(begin)
	return d, len(inf.GetStore().ListKeys()), rec.list(), nil
}

// requestLog keeps "VERB path?query<TAB>Accept" of each request a client sent, to show how
// it synced and to send its watch-list request again.
type requestLog struct {
	mu   sync.Mutex
	reqs []string
}

func (l *requestLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		l.mu.Lock()
		l.reqs = append(l.reqs, r.Method+" "+r.URL.RequestURI()+"\t"+r.Header.Get("Accept"))
		l.mu.Unlock()
		return rt.RoundTrip(r)
	})
}

func (l *requestLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reqs...)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// buildDemo builds cmd/demo of the main module (two directories up) once per test run.
func buildDemo(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "demo")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/demo")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/demo: %s", out)
	return bin
}

// startRefserver runs the reference, waits for "ready <url>" and reads its kubeconfig.
func startRefserver(t *testing.T, bin, dir string) *benchTarget {
	_, stop := startProcess(t, dir, exec.Command(bin, "-out", dir), parseRefReady)
	var info struct{ Kubeconfig string }
	b, err := os.ReadFile(filepath.Join(dir, "server.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &info))
	return &benchTarget{kubeconfig: info.Kubeconfig, stop: stop}
}

// startDemo runs `demo serve` as the apiserver alone (no controllers, no nodes, no seeded
// pods, no fault API), over TLS with a bearer token as the reference is, on a free port.
func startDemo(t *testing.T, bin, dir string) *benchTarget {
	kc := filepath.Join(dir, "kubeconfig")
	args := demoServeArgs(kc, randomHex(t))
	if *realProfile != "" {
		p, err := filepath.Abs(*realProfile)
		require.NoError(t, err)
		args = append(args, "--cpuprofile="+p)
	}
	cmd := exec.Command(bin, args...)
	_, stop := startProcess(t, dir, cmd, parseDemoReady)
	return &benchTarget{kubeconfig: kc, stop: stop}
}

// demoServeArgs are the flags of a `demo serve` comparable with the reference.
func demoServeArgs(kubeconfig, token string) []string {
	return []string{"serve", "--lang=en", "--listen=127.0.0.1:0", "--kubeconfig=" + kubeconfig, "--token=" + token,
		"--controllers=none", "--nodes=0", "--seed-pods=0", "--faults=false"}
}

// startInProcess serves ours in this process as demo serve does, for -cpuprofile.
func startInProcess(t *testing.T, dir string) *benchTarget {
	srv := apiserver.New(apiserver.Options{BearerToken: randomHex(t), Authorization: apiserver.AuthorizationAlwaysAllow, Bootstrap: true})
	_, err := srv.StartTLS("127.0.0.1:0")
	require.NoError(t, err)
	kc := filepath.Join(dir, "kubeconfig")
	require.NoError(t, os.WriteFile(kc, srv.Kubeconfig(), 0o600))
	return &benchTarget{kubeconfig: kc, stop: srv.Close}
}

// startProcess starts cmd with its stderr in dir, waits until ready accepts a line of its
// stdout, and returns the URL ready read from it and a stop that sends SIGTERM (SIGKILL
// after 20 s) and waits.
func startProcess(t *testing.T, dir string, cmd *exec.Cmd, ready func(string) (string, bool)) (string, func()) {
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	require.NoError(t, err)
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		logf.Close()
	}
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			if u, ok := ready(sc.Text()); ok && !sent {
				url <- u
				sent = true
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		close(exited)
	}()
	select {
	case u := <-url:
		return u, stop
	case <-exited:
		logf.Close()
		t.Fatalf("%s exited before it was ready; see %s", cmd.Path, logf.Name())
	case <-time.After(*realTimeout):
		stop()
		t.Fatalf("%s not ready after %s; see %s", cmd.Path, *realTimeout, logf.Name())
	}
	return "", nil
}

func randomHex(t *testing.T) string {
	b := make([]byte, 16)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}

// loadAverage is /proc/loadavg's first three fields, for the report ("" elsewhere).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

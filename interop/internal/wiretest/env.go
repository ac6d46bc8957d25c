package wiretest

import (
	"net/http/httptest"
	"sync"
	"testing"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-lab/informer-lab/apiserver"
)

// Env is one simulated apiserver served over loopback HTTP behind a Recorder. It is the
// interop counterpart of apiserver.NewTestServer (and of envtest's Environment).
type Env struct {
	// Server is the simulator: seed it, inject faults and read its state in process.
	Server *apiserver.Server
	// Recorder holds every HTTP request a client sent.
	Recorder *Recorder
	// URL is the base URL, e.g. http://127.0.0.1:41234.
	URL string

	warnings warningRecorder
}

// Start serves a new simulator on a free 127.0.0.1 port behind a Recorder (BodyLimit 0: the
// default). Both are closed when the test ends, the apiserver first so that open watches
// end and the HTTP server's Close does not wait for them.
func Start(tb testing.TB, opts apiserver.Options) *Env {
	tb.Helper()
	return StartWithRecorder(tb, opts, &Recorder{})
}

// StartWithRecorder is Start with a caller-made Recorder (e.g. BodyLimit -1 for benchmarks).
func StartWithRecorder(tb testing.TB, opts apiserver.Options, rec *Recorder) *Env {
	tb.Helper()
	srv := apiserver.New(opts)
	hs := httptest.NewServer(rec.Wrap(srv.Handler()))
	tb.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	return &Env{Server: srv, Recorder: rec, URL: hs.URL}
}

// RESTConfig returns the rest.Config a client-go program needs to talk to the simulator.
//
// The one setting that matters is ContentType. Left empty, client-go v0.37's typed clientsets
// encode request bodies (create, update, the DeleteOptions of a delete) as protobuf
// (application/vnd.kubernetes.protobuf) and there is no fallback to JSON: the simulator,
// which decodes JSON only, answers each such write 415 UnsupportedMediaType (docs/behaviour/wire.md N2,
// CG1). With ContentType "application/json" client-go sends JSON bodies and
// "Accept: application/json, */*". Reads work either way, because client-go decodes an
// answer by its own Content-Type. QPS and Burst are raised from client-go's 5/10 so that
// tests are not throttled on the client side (CG3).
func RESTConfig(url string) *rest.Config {
	return &rest.Config{
		Host:          url,
		ContentConfig: rest.ContentConfig{ContentType: "application/json"},
		QPS:           1000,
		Burst:         1000,
	}
}

// Clientset returns a typed clientset for e.URL configured by RESTConfig. The Warning
// headers it receives (E7) are kept for Warnings instead of being logged by klog.
func (e *Env) Clientset(tb testing.TB) *kubernetes.Clientset {
	tb.Helper()
	return e.ClientsetWith(tb, "application/json")
}

// ClientsetWith is Clientset with rest.Config.ContentType set to contentType ("" is
// client-go's default: protobuf for the typed clients).
func (e *Env) ClientsetWith(tb testing.TB, contentType string) *kubernetes.Clientset {
	tb.Helper()
	cfg := RESTConfig(e.URL)
	cfg.ContentType = contentType
	cfg.WarningHandler = &e.warnings
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		tb.Fatalf("wiretest: clientset: %v", err)
	}
	return cs
}

// Warnings returns the text of every Warning header the clientsets of Clientset received,
// oldest first.
func (e *Env) Warnings() []string {
	e.warnings.mu.Lock()
	defer e.warnings.mu.Unlock()
	return append([]string(nil), e.warnings.msgs...)
}

// warningRecorder is a rest.WarningHandler that keeps the warnings.
type warningRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warningRecorder) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	w.msgs = append(w.msgs, text)
	w.mu.Unlock()
}

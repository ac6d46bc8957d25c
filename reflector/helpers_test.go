package reflector

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// ---------------------------------------------------------------------------------------
// Objects.

func pod(name, rv string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv},
	}
}

func ptrTo[T any](v T) *T { return &v }

// noWatchList is the option most tests use: the classic LIST + WATCH path.
var noWatchList = ptrTo(false)

// zeroJitter is the default backoff with the jitter pinned to its lower bound, so delays are
// exact: 0.8 s, 1.6 s, 3.2 s, …
func zeroJitter() *Backoff {
	b := DefaultBackoff()
	b.Rand = func() float64 { return 0 }
	return &b
}

func objString(obj any) string {
	m, err := api.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return m.GetName() + "@" + m.GetResourceVersion()
}

// ---------------------------------------------------------------------------------------
// recStore records what the reflector does to its store, and keeps the resulting state.

type recStore struct {
	mu        sync.Mutex
	ops       []string
	state     map[string]string // name → RV
	addErr    error
	resyncErr error
	resyncs   int
	onReplace func()
}

func newRecStore() *recStore { return &recStore{state: map[string]string{}} }

func (s *recStore) record(op string, obj any) {
	s.ops = append(s.ops, op+" "+objString(obj))
}

func (s *recStore) Add(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("Add", obj)
	if s.addErr != nil {
		return s.addErr
	}
	m, _ := api.Accessor(obj)
	s.state[m.GetName()] = m.GetResourceVersion()
	return nil
}

func (s *recStore) Update(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("Update", obj)
	m, _ := api.Accessor(obj)
	s.state[m.GetName()] = m.GetResourceVersion()
	return nil
}

func (s *recStore) Delete(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record("Delete", obj)
	m, _ := api.Accessor(obj)
	delete(s.state, m.GetName())
	return nil
}

func (s *recStore) Replace(list []any, rv string) error {
	if s.onReplace != nil {
		s.onReplace()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, len(list))
	s.state = map[string]string{}
	for i, obj := range list {
		names[i] = objString(obj)
		m, _ := api.Accessor(obj)
		s.state[m.GetName()] = m.GetResourceVersion()
	}
	s.ops = append(s.ops, fmt.Sprintf("Replace [%s] rv=%s", strings.Join(names, " "), rv))
	return nil
}

func (s *recStore) Resync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops = append(s.ops, "Resync")
	s.resyncs++
	return s.resyncErr
}

func (s *recStore) Ops() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ops)
}

func (s *recStore) Resyncs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resyncs
}

// State returns name → RV, comparable with a fakesource state once keys are trimmed.
func (s *recStore) State() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.state))
	for k, v := range s.state {
		out["ns/"+k] = v
	}
	return out
}

// bookmarkStore is a recStore that also hears bookmarks and RV updates.
type bookmarkStore struct {
	*recStore
	rvUpdates []string
}

func (s *bookmarkStore) Bookmark(rv string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops = append(s.ops, "Bookmark rv="+rv)
	return nil
}

func (s *bookmarkStore) UpdateResourceVersion(rv string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rvUpdates = append(s.rvUpdates, rv)
}

// ---------------------------------------------------------------------------------------
// A running reflector inside a synctest bubble.

type harness struct {
	t      *testing.T
	src    *fakesource.Source
	store  ReflectorStore
	r      *Reflector
	cancel context.CancelFunc
	done   chan struct{}

	stopOnce    sync.Once
	mu          sync.Mutex
	handlerErrs []error
	born        time.Time
}

// start builds a reflector over lw (src when nil) and runs it. Call only inside synctest.Test.
func start(t *testing.T, src *fakesource.Source, lw listwatch.ListerWatcher, st ReflectorStore, opts ReflectorOptions) *harness {
	t.Helper()
	if lw == nil {
		lw = src
	}
	if opts.Name == "" {
		opts.Name = "test"
	}
	h := &harness{t: t, src: src, store: st, done: make(chan struct{}), born: time.Now()}
	h.r = NewReflectorWithOptions(lw, &api.Pod{}, st, opts)
	h.r.SetWatchErrorHandler(func(_ *Reflector, err error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.handlerErrs = append(h.handlerErrs, err)
	})
	return h
}

func (h *harness) run() *harness {
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() {
		defer close(h.done)
		h.r.RunWithContext(ctx)
	}()
	// A failed require ends the test early; the cleanup still stops the reflector, so the
	// bubble does not report the failure as a deadlock.
	h.t.Cleanup(h.stop)
	synctest.Wait()
	return h
}

// stop cancels the reflector and waits for Run to return; the bubble then checks that no
// goroutine is left. Calling it again does nothing.
func (h *harness) stop() {
	h.stopOnce.Do(func() {
		h.cancel()
		<-h.done
		if h.src != nil {
			h.src.Close()
		}
		synctest.Wait()
	})
}

func (h *harness) errs() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.handlerErrs)
}

// advance moves virtual time forward by d and lets every goroutine settle.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// since returns the virtual time elapsed since the harness was built, for reading call logs.
func (h *harness) since(at time.Time) time.Duration { return at.Sub(h.born) }

// callTimes returns the offsets of the calls of verb since the harness was built.
func (h *harness) callTimes(verb string) []time.Duration {
	var out []time.Duration
	for _, c := range h.src.Calls() {
		if c.Verb == verb {
			out = append(out, h.since(c.At))
		}
	}
	return out
}

func mustAdd(t *testing.T, src *fakesource.Source, name string) string {
	t.Helper()
	rv, err := src.Add(pod(name, ""))
	require.NoError(t, err)
	return rv
}

func mustModify(t *testing.T, src *fakesource.Source, name string) string {
	t.Helper()
	rv, err := src.Modify(pod(name, ""))
	require.NoError(t, err)
	return rv
}

func mustDelete(t *testing.T, src *fakesource.Source, name string) string {
	t.Helper()
	rv, err := src.Delete(pod(name, ""))
	require.NoError(t, err)
	return rv
}

// ---------------------------------------------------------------------------------------
// Log capture.

// logBuffer is a concurrency-safe text log at Debug level without time and level.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines returns the log lines containing every one of subs.
func (b *logBuffer) lines(subs ...string) []string {
	var out []string
	for l := range strings.SplitSeq(strings.TrimSpace(b.String()), "\n") {
		ok := l != ""
		for _, s := range subs {
			ok = ok && strings.Contains(l, s)
		}
		if ok {
			out = append(out, l)
		}
	}
	return out
}

func newLogger(b *logBuffer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}

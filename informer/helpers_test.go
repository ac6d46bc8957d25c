package informer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// profiles are the three queue profiles every §14 test runs under.
var profiles = []Profile{ProfileClassic, ProfileInOrder, ProfileCurrent}

// ---------------------------------------------------------------------------------------
// Objects.

func pod(name, rv string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv},
	}
}

func labelled(name, rv string, labels map[string]string) *api.Pod {
	p := pod(name, rv)
	p.Labels = labels
	return p
}

// show renders an object as "name@rv", a tombstone as "DFSU(name@rv)" (the RV of the last
// known state it carries, or "DFSU(name)" without one).
func show(obj any) string {
	switch o := obj.(type) {
	case store.DeletedFinalStateUnknown:
		_, name, _ := store.SplitMetaNamespaceKey(o.Key)
		if o.Obj == nil {
			return "DFSU(" + name + ")"
		}
		return "DFSU(" + show(o.Obj) + ")"
	case nil:
		return "<nil>"
	}
	m, err := api.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return m.GetName() + "@" + m.GetResourceVersion()
}

func rvOf(obj any) string {
	_, rv, _ := store.KeyAndResourceVersion(obj)
	return rv
}

func keyOf(obj any) string {
	k, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return "?"
	}
	return k
}

// ---------------------------------------------------------------------------------------
// recorder: a handler that keeps one line per call, in the format of the spec's §14 table:
// "ADD p1@1 init", "ADD a@3", "UPD a@3→a@5", "DEL DFSU(p2@2)", "DEL x@4".

type recorder struct {
	mu    sync.Mutex
	lines []string
	// last holds, per key, the last notification: kind ("ADD", "UPD", "DEL") and object.
	last map[string]lastNote
	// gate, when set, stalls every call after its line is recorded until the gate is closed.
	gate chan struct{}
	// onCall, when set, runs inside every call (after the gate), with the recorded line.
	onCall func(line string)
	// changed is signalled (without blocking) after each call.
	changed chan struct{}
}

type lastNote struct {
	kind string
	obj  any
}

func newRecorder() *recorder {
	return &recorder{last: map[string]lastNote{}, changed: make(chan struct{}, 1)}
}

func (r *recorder) record(kind, key string, obj any, line string) {
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.last[key] = lastNote{kind: kind, obj: obj}
	r.mu.Unlock()
	if r.gate != nil {
		<-r.gate
	}
	if r.onCall != nil {
		r.onCall(line)
	}
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

func (r *recorder) OnAdd(obj any, init bool) {
	line := "ADD " + show(obj)
	if init {
		line += " init"
	}
	r.record("ADD", keyOf(obj), obj, line)
}

func (r *recorder) OnUpdate(oldObj, newObj any) {
	r.record("UPD", keyOf(newObj), newObj, "UPD "+show(oldObj)+"→"+show(newObj))
}

func (r *recorder) OnDelete(obj any) {
	r.record("DEL", keyOf(obj), obj, "DEL "+show(obj))
}

// Lines returns every line so far.
func (r *recorder) Lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.lines)
}

// take returns the lines recorded since the last take and forgets them.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.lines
	r.lines = nil
	return out
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines)
}

// lastNotes returns key → last notification.
func (r *recorder) lastNotes() map[string]lastNote {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]lastNote, len(r.last))
	for k, v := range r.last {
		out[k] = v
	}
	return out
}

// ---------------------------------------------------------------------------------------
// Running things inside a synctest bubble.

// running is an informer (or controller) running in a goroutine of the current bubble.
type running struct {
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

// runInBubble runs run(ctx) in a goroutine; the returned stop cancels it and waits for it.
// The test's cleanup stops it too, so a failed require does not leave the bubble deadlocked.
func runInBubble(t *testing.T, run func(ctx context.Context)) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		run(ctx)
	}()
	t.Cleanup(r.stop)
	synctest.Wait()
	return r
}

func (r *running) stop() {
	r.once.Do(func() {
		r.cancel()
		<-r.done
	})
}

// waitUntil lets the bubble run, in virtual steps of 100 ms, until cond holds; it fails the
// test after 10 virtual minutes. Virtual time passes only while every goroutine is blocked,
// so this is the synctest form of a bounded Eventually (backoff delays are seconds long).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 6000 {
		synctest.Wait()
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// advance moves virtual time forward by d and lets every goroutine settle.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// ---------------------------------------------------------------------------------------
// Sources.

// newSource returns a fake source holding the given pods, written in order (RVs 1, 2, …).
func newSource(t *testing.T, names ...string) *fakesource.Source {
	t.Helper()
	src := fakesource.New()
	for _, n := range names {
		_, err := src.Add(pod(n, ""))
		require.NoError(t, err)
	}
	t.Cleanup(src.Close)
	return src
}

func mustAdd(t *testing.T, src *fakesource.Source, obj *api.Pod) string {
	t.Helper()
	rv, err := src.Add(obj)
	require.NoError(t, err)
	return rv
}

func mustModify(t *testing.T, src *fakesource.Source, obj *api.Pod) string {
	t.Helper()
	rv, err := src.Modify(obj)
	require.NoError(t, err)
	return rv
}

func mustDelete(t *testing.T, src *fakesource.Source, name string) string {
	t.Helper()
	rv, err := src.Delete(pod(name, ""))
	require.NoError(t, err)
	return rv
}

// forceRelist makes a reflector that missed writes relist: the history is compacted and every
// watch is closed, so the re-watch from its last RV gets 410 and the next cycle lists (T9).
func forceRelist(src *fakesource.Source) {
	src.Compact()
	src.ResetWatches()
}

// expire ends every watch with a 410 Expired ERROR event, so the reflector relists even if it
// missed nothing.
func expire(src *fakesource.Source) {
	src.SendError(fakesource.NewExpired("too old resource version"))
}

// cacheState returns key → RV of the indexer, comparable with fakesource.Source.State.
func cacheState(s store.Store) map[string]string {
	out := map[string]string{}
	for _, obj := range s.List() {
		out[keyOf(obj)] = rvOf(obj)
	}
	return out
}

// hasPrefixLine reports whether some line starts with prefix.
func hasPrefixLine(lines []string, prefix string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// linesAbout returns the lines that concern the object called name.
func linesAbout(lines []string, name string) []string {
	var out []string
	for _, l := range lines {
		if strings.Contains(l, " "+name+"@") || strings.Contains(l, "("+name+"@") || strings.Contains(l, "("+name+")") {
			out = append(out, l)
		}
	}
	return out
}

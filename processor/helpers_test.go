package processor

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/store"
)

func pod(name, rv string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// tombstone is the informer's DeletedFinalStateUnknown, under a short name for the tests.
type tombstone = store.DeletedFinalStateUnknown

// describeObj renders an object for recorded events: "ns/a@3", a tombstone as "DFSU(ns/a)".
func describeObj(obj any) string {
	switch o := obj.(type) {
	case *api.Pod:
		return o.Namespace + "/" + o.Name + "@" + o.ResourceVersion
	case tombstone:
		return "DFSU(" + o.Key + ")"
	default:
		return fmt.Sprint(obj)
	}
}

// recorder is a handler that records every call as a line. With a gate, each call records its
// line on entry and then waits until the gate is closed: a stalled handler.
type recorder struct {
	mu     sync.Mutex
	events []string
	gate   chan struct{}
	// onCall, if set, runs after the line is recorded (and after the gate), on run's goroutine.
	onCall func(line string)
}

func (r *recorder) record(line string) {
	r.mu.Lock()
	r.events = append(r.events, line)
	r.mu.Unlock()
	if r.gate != nil {
		<-r.gate
	}
	if r.onCall != nil {
		r.onCall(line)
	}
}

func (r *recorder) OnAdd(obj any, init bool) {
	line := "add " + describeObj(obj)
	if init {
		line += " init"
	}
	r.record(line)
}

func (r *recorder) OnUpdate(oldObj, newObj any) {
	r.record("update " + describeObj(oldObj) + "->" + describeObj(newObj))
}

func (r *recorder) OnDelete(obj any) { r.record("delete " + describeObj(obj)) }

// got returns (a copy of) the recorded lines and clears them.
func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

// synced returns an upstream checker and the function that closes it.
func synced(t testing.TB) (DoneChecker, func()) {
	ch := make(chan struct{})
	var once sync.Once
	closeIt := func() { once.Do(func() { close(ch) }) }
	t.Cleanup(closeIt)
	return NewDoneChecker("informer", ch), closeIt
}

// alreadySynced is an upstream checker that is done from the start.
func alreadySynced() DoneChecker {
	ch := make(chan struct{})
	close(ch)
	return NewDoneChecker("informer", ch)
}

// newListener builds a listener with no resync and the default buffer, failing the test on error.
func newListener(t testing.TB, h ResourceEventHandler, upstream DoneChecker, opts ListenerOptions) *ProcessorListener {
	t.Helper()
	l, err := NewProcessorListener(h, 0, 0, time.Now(), InitialBufferSize, upstream, opts)
	require.NoError(t, err)
	return l
}

// stepClock is a clock whose Now is set by the test; only ShouldResync reads it.
type stepClock struct {
	mu              sync.Mutex
	now             time.Time
	clock.RealClock // timers are unused; Now is overridden
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

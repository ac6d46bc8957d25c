package ch07_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

func pod(name, rv string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
}

// show renders an object the way the chapter prints it: "default/a@3", a tombstone as
// "DFSU(default/a)".
func show(obj any) string {
	switch o := obj.(type) {
	case *api.Pod:
		return o.Namespace + "/" + o.Name + "@" + o.ResourceVersion
	case store.DeletedFinalStateUnknown:
		return "DFSU(" + o.Key + ")"
	}
	return fmt.Sprint(obj)
}

// recorder is a handler that records one line per call. With a gate it records the line on
// entry and then waits until the gate is closed: a stalled handler.
type recorder struct {
	mu     sync.Mutex
	events []string
	gate   chan struct{}
}

func (r *recorder) record(line string) {
	r.mu.Lock()
	r.events = append(r.events, line)
	r.mu.Unlock()
	if r.gate != nil {
		<-r.gate
	}
}

func (r *recorder) OnAdd(obj any, init bool) {
	if init {
		r.record("OnAdd " + show(obj) + " (initial list)")
		return
	}
	r.record("OnAdd " + show(obj))
}
func (r *recorder) OnUpdate(o, n any) { r.record("OnUpdate " + show(o) + " -> " + show(n)) }
func (r *recorder) OnDelete(obj any)  { r.record("OnDelete " + show(obj)) }

// take returns the recorded lines and forgets them.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

// informerSynced stands in for the informer's HasSyncedChecker; close the channel to sync it.
func informerSynced() (processor.DoneChecker, chan struct{}) {
	ch := make(chan struct{})
	return processor.NewDoneChecker("informer", ch), ch
}

// listener builds a listener the way the informer does for a handler with the given resync
// period (the informer checking every check), failing the test on error.
func listener(t testing.TB, h processor.ResourceEventHandler, upstream processor.DoneChecker, name string,
	resync, check time.Duration, opts processor.ListenerOptions) *processor.ProcessorListener {
	t.Helper()
	opts.Name = name
	l, err := processor.NewProcessorListener(h, resync, processor.DetermineResyncPeriod(resync, check), time.Now(),
		processor.InitialBufferSize, upstream, opts)
	require.NoError(t, err)
	return l
}

// start runs p until the returned function is called; that function waits for Run to return.
func start(p *processor.SharedProcessor) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	return func() {
		cancel()
		wg.Wait()
	}
}

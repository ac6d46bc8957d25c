package ch09_test

import (
	"bytes"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/workqueue"
)

// sets is the chapter's model of the queue's three sets, drawn after every step.
type sets struct {
	queue      []string
	dirty      map[string]bool
	processing map[string]bool
}

func (s sets) String() string {
	return fmt.Sprintf("queue %-9s dirty %-9s processing %s",
		"["+strings.Join(s.queue, " ")+"]", setString(s.dirty), setString(s.processing))
}

func setString(m map[string]bool) string {
	return "{" + strings.Join(slices.Sorted(maps.Keys(m)), " ") + "}"
}

// lastResult returns the result= attribute of the last trace line.
func lastResult(buf *bytes.Buffer) string {
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	_, after, ok := strings.Cut(lines[len(lines)-1], "result=")
	if !ok {
		return ""
	}
	return strings.Fields(after)[0]
}

// TestCh09_SetsStepByStep walks the queue, dirty and processing sets through the WQ-4
// sequence the spec verified against client-go, plus the steps around it. Every step
// states what the model predicts: the item Get returns, Len (WQ-5), and what the queue's
// trace line says the Add or Done did. `make ch09` prints the sets after each step.
func TestCh09_SetsStepByStep(t *testing.T) {
	steps := []struct {
		op, item   string
		wantResult string // result= of the add/done trace line
		want       sets
	}{
		{"Add", "a", "queued", sets{[]string{"a"}, map[string]bool{"a": true}, nil}},
		{"Add", "b", "queued", sets{[]string{"a", "b"}, map[string]bool{"a": true, "b": true}, nil}},
		{"Add", "a", "dirty", sets{[]string{"a", "b"}, map[string]bool{"a": true, "b": true}, nil}},
		{"Get", "a", "", sets{[]string{"b"}, map[string]bool{"b": true}, map[string]bool{"a": true}}},
		{"Add", "a", "deferred", sets{[]string{"b"}, map[string]bool{"a": true, "b": true}, map[string]bool{"a": true}}},
		{"Add", "a", "dirty", sets{[]string{"b"}, map[string]bool{"a": true, "b": true}, map[string]bool{"a": true}}},
		{"Done", "a", "requeued", sets{[]string{"b", "a"}, map[string]bool{"a": true, "b": true}, nil}},
		{"Get", "b", "", sets{[]string{"a"}, map[string]bool{"a": true}, map[string]bool{"b": true}}},
		{"Done", "b", "finished", sets{[]string{"a"}, map[string]bool{"a": true}, nil}},
		{"Get", "a", "", sets{nil, nil, map[string]bool{"a": true}}},
		{"Done", "a", "finished", sets{nil, nil, nil}},
	}
	var buf bytes.Buffer
	q := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Logger: trace.NewPlainLogger(&buf)})
	defer q.ShutDown()
	for i, s := range steps {
		switch s.op {
		case "Add":
			q.Add(s.item)
		case "Get":
			require.Positive(t, q.Len(), "Get would block")
			item, shutdown := q.Get()
			require.False(t, shutdown)
			require.Equal(t, s.item, item, "step %d", i+1)
		case "Done":
			q.Done(s.item)
		}
		t.Logf("%-2d %-4s %s %-10s → %v", i+1, s.op, s.item, s.wantResult, s.want)
		assert.Equal(t, len(s.want.queue), q.Len(), "step %d: Len counts the queue set only", i+1)
		if s.wantResult != "" {
			assert.Equal(t, s.wantResult, lastResult(&buf), "step %d", i+1)
		}
	}
}

// TestCh09_WQ4_T18_StingyQueue is teaching point T18 and WQ-4 under load: 50 producers keep
// re-adding 20 keys while 10 workers process them. Each key has an in-flight counter that a
// worker increments after Get and decrements before Done; it must never exceed 1 (INV-23:
// no item is returned by Get while it is processing). Each producer also bumps the key's
// version before its Add, and each worker records the version it saw: once everything has
// drained, every key's last processing must have seen its final version (no lost update),
// and there can be no more syncs than Adds (each Get consumes at least one Add).
func TestCh09_WQ4_T18_StingyQueue(t *testing.T) {
	const producers, workers, keys, addsPerProducer = 50, 10, 20, 200
	q := workqueue.NewTyped[int]()

	var (
		inFlight  [keys]atomic.Int32
		maxFlight [keys]atomic.Int32
		version   [keys]atomic.Int64 // bumped by producers before Add
		seen      [keys]atomic.Int64 // highest version a worker read
		syncs     atomic.Int64
	)
	var workerWG sync.WaitGroup
	for range workers {
		workerWG.Go(func() {
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				n := inFlight[k].Add(1)
				for m := maxFlight[k].Load(); n > m && !maxFlight[k].CompareAndSwap(m, n); m = maxFlight[k].Load() {
				}
				v := version[k].Load() // "read the lister": level-triggered
				for s := seen[k].Load(); v > s && !seen[k].CompareAndSwap(s, v); s = seen[k].Load() {
				}
				syncs.Add(1)
				runtime.Gosched() // widen the window in which a second worker could get k
				inFlight[k].Add(-1)
				q.Done(k)
			}
		})
	}
	var producerWG sync.WaitGroup
	for p := range producers {
		producerWG.Go(func() {
			for i := range addsPerProducer {
				k := (p*7 + i) % keys
				version[k].Add(1)
				q.Add(k)
			}
		})
	}
	producerWG.Wait()
	q.ShutDown() // workers drain what is queued, and Done requeues what is dirty (WQ-7)
	workerWG.Wait()

	for k := range keys {
		assert.LessOrEqual(t, maxFlight[k].Load(), int32(1), "key %d was processed by two workers at once", k)
		assert.Equal(t, version[k].Load(), seen[k].Load(), "key %d: the last Add was not followed by a Get", k)
	}
	assert.Zero(t, q.Len())
	total := int64(producers * addsPerProducer)
	assert.LessOrEqual(t, syncs.Load(), total, "every sync consumes at least one Add")
	t.Logf("%d Adds became %d syncs; no key was ever in flight twice", total, syncs.Load())
}

// TestCh09_T17_HundredAddsFewSyncs is teaching point T17 at the queue's level: the queue holds
// keys, not events, so 100 changes to one object cost one or two syncs, and every sync reads the
// newest version ("the lister"). Before a worker takes the key, 100 Adds leave one queued item
// (WQ-1). While a worker holds the key, 100 more Adds only mark it dirty; its Done queues it
// once (WQ-3), and that one sync reads version 200, the final one. Chapter 10 shows the same through a real
// informer and lister.
func TestCh09_T17_HundredAddsFewSyncs(t *testing.T) {
	q := workqueue.NewTyped[string]()
	defer q.ShutDown()
	version := 0 // the object's resourceVersion, as the lister would return it
	update := func(n int) {
		for range n {
			version++
			q.Add("default/web")
		}
	}

	update(100)
	require.Equal(t, 1, q.Len(), "100 Adds before any Get collapse into one queued key")

	var syncs []int
	sync := func(during func()) {
		key, shutdown := q.Get()
		require.False(t, shutdown)
		require.Equal(t, "default/web", key)
		syncs = append(syncs, version) // the sync reads the newest state, not an event
		during()
		q.Done(key)
	}
	sync(func() {
		update(100) // the worker is busy with the key
		require.Zero(t, q.Len(), "Adds during processing are deferred, not queued")
	})
	require.Equal(t, 1, q.Len(), "Done queued the key once for the 100 deferred Adds")
	sync(func() {})
	require.Zero(t, q.Len())

	assert.Equal(t, []int{100, 200}, syncs,
		"200 updates → 2 syncs; each reads the newest version at the time, the last reads the final one")
	t.Logf("200 Adds → %d syncs, reading versions %v", len(syncs), syncs)
}

package ch04_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// TestCh04_Erratum_DeleteIsADelta pins the correction to 《client-go学习》 (section Reflector, its
// DeltaFIFO paragraph), which says a delete drops the key from items but not from queue, and
// that resync later repairs the mismatch. A Delete appends a Deleted delta: the key stays
// queued with its history, queue and items hold the same keys after every call (DF-1, DF-4),
// and the consumer sees the deletion. Resync has nothing to repair.
func TestCh04_Erratum_DeleteIsADelta(t *testing.T) {
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KeyFunction: podKey})
	require.NoError(t, fifo.Add(pod{Name: "pod-1", Value: 1}))
	require.NoError(t, fifo.Add(pod{Name: "pod-2", Value: 2}))
	require.NoError(t, fifo.Delete(pod{Name: "pod-1", Value: 1}))

	assert.Equal(t, []string{"pod-1", "pod-2"}, fifo.ListKeys(), "the deleted key keeps its place in the queue")

	var got []string
	for range 2 {
		_, err := fifo.Pop(func(obj any, _ bool) error {
			for _, d := range obj.(deltafifo.Deltas) {
				got = append(got, string(d.Type)+" "+d.Object.(pod).Name)
			}
			return nil
		})
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"Added pod-1", "Deleted pod-1", "Added pod-2"}, got)
	assert.Empty(t, fifo.ListKeys())
}

// methodNames lists the methods of an interface type, or of a concrete value's method set.
func methodNames(t reflect.Type) map[string]bool {
	names := map[string]bool{}
	for i := range t.NumMethod() {
		names[t.Method(i).Name] = true
	}
	return names
}

// storeReads are the read methods of store.Store that the articles credit DeltaFIFO with.
var storeReads = []string{"Get", "GetByKey", "List"}

// TestCh04_Erratum_DeltaFIFOIsNotAStore pins the correction to 《client-go学习》 (section
// Reflector, its DeltaFIFO paragraph), which says DeltaFIFO implements Store and Queue. Since
// client-go v0.33 DeltaFIFO has no read side at all: it is a Queue (whose write side is the
// ReflectorStore the reflector fills) and nothing else. The informer's Store is the indexer.
func TestCh04_Erratum_DeltaFIFOIsNotAStore(t *testing.T) {
	var fifo any = deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KeyFunction: podKey})

	_, isQueue := fifo.(deltafifo.Queue)
	assert.True(t, isQueue, "DeltaFIFO is a Queue")
	_, isReflectorStore := fifo.(reflector.ReflectorStore)
	assert.True(t, isReflectorStore, "the reflector writes into it")
	_, isStore := fifo.(store.Store)
	assert.False(t, isStore, "DeltaFIFO is not a store.Store")

	methods := methodNames(reflect.TypeOf(fifo))
	for _, read := range storeReads {
		assert.False(t, methods[read], "DeltaFIFO has no %s", read)
	}
}

// TestCh04_Erratum_QueueIsNotAStore pins the correction to 《Informer原理详解》 (section
// 存储相关接口), which says the Queue interface DeltaFIFO implements is also a Store. Since
// client-go v0.33 Queue embeds ReflectorStore (Add, Update, Delete, Replace, Resync) and adds
// Pop, HasSynced and Close: no Get, no List. A Store cannot stand in for a Queue either.
func TestCh04_Erratum_QueueIsNotAStore(t *testing.T) {
	queue := methodNames(reflect.TypeFor[deltafifo.Queue]())
	for name := range methodNames(reflect.TypeFor[deltafifo.ReflectorStore]()) {
		assert.True(t, queue[name], "Queue embeds ReflectorStore's %s", name)
	}
	assert.True(t, queue["Pop"], "Queue adds Pop")
	for _, read := range storeReads {
		assert.False(t, queue[read], "Queue has no %s", read)
	}
	assert.False(t, reflect.TypeFor[deltafifo.Queue]().Implements(reflect.TypeFor[store.Store]()), "a Queue is not a Store")
	assert.False(t, reflect.TypeFor[store.Store]().Implements(reflect.TypeFor[deltafifo.Queue]()), "a Store is not a Queue")

	var realFIFO any = deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{KeyFunction: store.MetaNamespaceKeyFunc, KnownObjects: store.NewStore(store.MetaNamespaceKeyFunc)})
	_, isStore := realFIFO.(store.Store)
	assert.False(t, isStore, "RealFIFO, the other Queue, is no Store either")
}

// TestCh04_Erratum_TheQueueHoldsDeltasNotEvents pins the correction to the runnable-examples
// article (section DeltaFIFO 队列), which says what goes into DeltaFIFO is the watch Event.
// The reflector takes each event apart: ADDED becomes Add, MODIFIED Update, DELETED
// Delete, a BOOKMARK only moves the RV. The queue records Deltas of the DeltaFIFO's own types
// holding the bare object; no watch.Event and no BOOKMARK ever reaches it.
func TestCh04_Erratum_TheQueueHoldsDeltasNotEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		_, err := src.Add(p("a", ""))
		require.NoError(t, err)
		fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
			KeyFunction: store.MetaNamespaceKeyFunc, KnownObjects: store.NewStore(store.MetaNamespaceKeyFunc),
		})
		watchList := false
		r := reflector.NewReflectorWithOptions(src, &api.Pod{}, fifo,
			reflector.ReflectorOptions{Name: "pods", UseWatchList: &watchList})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); r.RunWithContext(ctx) }()
		synctest.Wait()

		_, err = src.Add(p("b", ""))
		require.NoError(t, err)
		_, err = src.Modify(p("a", ""))
		require.NoError(t, err)
		src.Bookmark()
		_, err = src.Delete(p("b", ""))
		require.NoError(t, err)
		synctest.Wait()
		cancel()
		<-done

		fifo.Close()
		var got []string
		for {
			_, err := fifo.Pop(func(obj any, _ bool) error {
				for _, d := range obj.(deltafifo.Deltas) {
					_, isPod := d.Object.(*api.Pod)
					assert.True(t, isPod, "a delta holds the object itself, not a %T", d.Object)
					got = append(got, string(d.Type)+" "+d.Object.(*api.Pod).Name)
				}
				return nil
			})
			if errors.Is(err, deltafifo.ErrFIFOClosed) {
				break
			}
			require.NoError(t, err)
		}
		assert.Equal(t, []string{"Sync a", "Updated a", "Added b", "Deleted b"}, got,
			"the LIST arrives as Sync (Replace without EmitDeltaTypeReplaced), each event as its delta; the bookmark is gone")
	})
}

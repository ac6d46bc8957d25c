package watch_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

func pod(name string) *api.Pod { return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}} }

// drain reads events until the channel is closed.
func drain(ch <-chan watch.Event) []watch.Event {
	var out []watch.Event
	for ev := range ch {
		out = append(out, ev)
	}
	return out
}

func TestAPI_EventTypeWireValues(t *testing.T) {
	tests := []struct {
		got  watch.EventType
		want string
	}{
		{watch.Added, "ADDED"},
		{watch.Modified, "MODIFIED"},
		{watch.Deleted, "DELETED"},
		{watch.Bookmark, "BOOKMARK"},
		{watch.Error, "ERROR"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, string(tt.got))
	}
}

func TestAPI_EmptyWatch(t *testing.T) {
	w := watch.NewEmptyWatch()
	_, ok := <-w.ResultChan()
	assert.False(t, ok, "the channel is closed from the start")
	w.Stop()
	w.Stop()
}

func TestAPI_FakeWatcherDeliversInOrder(t *testing.T) {
	w := watch.NewFake()
	status := &api.Status{Status: api.StatusFailure, Code: 410, Reason: api.StatusReasonExpired}
	go func() {
		w.Add(pod("a"))
		w.Modify(pod("a"))
		w.Action(watch.Bookmark, pod(""))
		w.Delete(pod("a"))
		w.Error(status)
		w.Stop()
	}()
	var got []string
	for _, ev := range drain(w.ResultChan()) {
		got = append(got, string(ev.Type))
	}
	assert.Equal(t, []string{"ADDED", "MODIFIED", "BOOKMARK", "DELETED", "ERROR"}, got)
	assert.True(t, w.IsStopped())
}

func TestAPI_FakeWatcherStopIsIdempotent(t *testing.T) {
	tests := []struct {
		name     string
		watcher  *watch.FakeWatcher
		stoppers int
	}{
		{"unbuffered, stopped twice", watch.NewFake(), 2},
		{"unbuffered, stopped from many goroutines", watch.NewFake(), 16},
		{"buffered, stopped from many goroutines", watch.NewFakeWithChanSize(4, false), 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wg sync.WaitGroup
			for range tt.stoppers {
				wg.Go(tt.watcher.Stop)
			}
			wg.Wait()
			assert.True(t, tt.watcher.IsStopped())
			_, ok := <-tt.watcher.ResultChan()
			assert.False(t, ok, "closed exactly once, and closed")
		})
	}
}

func TestAPI_FakeWatcherStopReleasesBlockedSender(t *testing.T) {
	w := watch.NewFake()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		w.Add(pod("a")) // nobody reads: blocks until Stop (or returns at once if Stop came first)
	}()
	w.Stop()
	<-sent
	assert.Empty(t, drain(w.ResultChan()))
}

func TestAPI_FakeWatcherSendAfterStopIsDropped(t *testing.T) {
	w := watch.NewFakeWithChanSize(1, false)
	w.Stop()
	assert.NotPanics(t, func() { w.Add(pod("a")) })
	assert.Empty(t, drain(w.ResultChan()))
}

func TestAPI_FakeWatcherConcurrentSendersAndStop(t *testing.T) {
	w := watch.NewFakeWithChanSize(8, false)
	var senders sync.WaitGroup
	for i := range 8 {
		senders.Go(func() {
			for j := range 50 {
				w.Add(pod(fmt.Sprintf("p-%d-%d", i, j)))
			}
		})
	}
	received := 0
	for range w.ResultChan() {
		received++
		if received == 100 {
			w.Stop() // the rest of the senders are released or dropped
		}
	}
	senders.Wait()
	assert.GreaterOrEqual(t, received, 100)
	assert.LessOrEqual(t, received, 400)
}

func TestAPI_FakeWatcherReset(t *testing.T) {
	w := watch.NewFakeWithChanSize(1, false)
	w.Stop()
	w.Reset()
	require.False(t, w.IsStopped())
	w.Add(pod("a")) // buffered: does not block
	ev := <-w.ResultChan()
	assert.Equal(t, watch.Added, ev.Type)
	assert.Equal(t, "a", ev.Object.(*api.Pod).Name)
	w.Stop()
}

func ExampleFakeWatcher() {
	w := watch.NewFakeWithChanSize(2, false)
	w.Add(pod("a"))
	w.Delete(pod("a"))
	w.Stop()
	for ev := range w.ResultChan() {
		fmt.Println(ev.Type, ev.Object.(*api.Pod).Name)
	}
	// Output:
	// ADDED a
	// DELETED a
}

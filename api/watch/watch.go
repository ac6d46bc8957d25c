package watch

import (
	"sync"

	"github.com/informer-lab/informer-lab/api"
)

// EventType mirrors watch.EventType.
type EventType string

const (
	// Added mirrors watch.Added: an object was created, or is part of the initial state.
	Added EventType = "ADDED"
	// Modified mirrors watch.Modified: an object changed.
	Modified EventType = "MODIFIED"
	// Deleted mirrors watch.Deleted: an object was deleted, or stopped matching a selector.
	// The object is its last state, with the resourceVersion of the delete.
	Deleted EventType = "DELETED"
	// Bookmark mirrors watch.Bookmark: every change up to the object's resourceVersion has
	// been delivered. The object carries only that resourceVersion.
	Bookmark EventType = "BOOKMARK"
	// Error mirrors watch.Error: the object is an *api.Status, and the watch ends after it.
	Error EventType = "ERROR"
)

// Event mirrors watch.Event: one change seen by a watch.
type Event struct {
	Type   EventType
	Object api.Object
}

// Interface mirrors watch.Interface: what every watch implements.
type Interface interface {
	// Stop ends the watch and closes the result channel. It is safe to call more than once.
	Stop()
	// ResultChan returns the channel of events; it is closed when the watch ends.
	ResultChan() <-chan Event
}

// emptyWatch is a watch that has already ended.
type emptyWatch chan Event

// NewEmptyWatch mirrors watch.NewEmptyWatch: a watch whose channel is already closed, for
// when there is nothing to watch but no error to report.
func NewEmptyWatch() Interface {
	ch := make(chan Event)
	close(ch)
	return emptyWatch(ch)
}

func (w emptyWatch) Stop() {}

func (w emptyWatch) ResultChan() <-chan Event { return w }

// FakeWatcher mirrors watch.FakeWatcher: a watch driven by the test, which calls Add,
// Modify, Delete, Error or Action to send events. Unlike upstream it never panics: an event
// sent after Stop is dropped, and Stop releases a send that is blocked because nobody reads.
type FakeWatcher struct {
	mu      sync.Mutex
	stopped bool
	result  chan Event
	// done is closed by Stop so that a blocked send gives up; sending counts the sends in
	// flight, which Stop waits for before it closes result. Both are replaced by Reset.
	done    chan struct{}
	sending *sync.WaitGroup
}

// NewFake mirrors watch.NewFake: each send blocks until the consumer receives it.
func NewFake() *FakeWatcher { return NewFakeWithChanSize(0, true) }

// NewFakeWithChanSize mirrors watch.NewFakeWithChanSize: sends block only when size events
// are already waiting. blocking is accepted for compatibility and, as upstream, ignored.
func NewFakeWithChanSize(size int, blocking bool) *FakeWatcher {
	return &FakeWatcher{
		result:  make(chan Event, size),
		done:    make(chan struct{}),
		sending: &sync.WaitGroup{},
	}
}

// Stop mirrors FakeWatcher.Stop: it closes the channel once; later calls do nothing.
func (f *FakeWatcher) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.stopped = true
	close(f.done)
	// Senders registered before stopped was set now return (their select sees done), and
	// none can register after it, so waiting here under the lock cannot deadlock.
	f.sending.Wait()
	close(f.result)
}

// IsStopped mirrors FakeWatcher.IsStopped.
func (f *FakeWatcher) IsStopped() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopped
}

// Reset mirrors FakeWatcher.Reset: the watcher is ready for use again, with a new channel
// of the same capacity.
func (f *FakeWatcher) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = false
	f.result = make(chan Event, cap(f.result))
	f.done = make(chan struct{})
	f.sending = &sync.WaitGroup{}
}

// ResultChan mirrors FakeWatcher.ResultChan.
func (f *FakeWatcher) ResultChan() <-chan Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.result
}

// Add mirrors FakeWatcher.Add: it sends an ADDED event.
func (f *FakeWatcher) Add(obj api.Object) { f.Action(Added, obj) }

// Modify mirrors FakeWatcher.Modify: it sends a MODIFIED event.
func (f *FakeWatcher) Modify(obj api.Object) { f.Action(Modified, obj) }

// Delete mirrors FakeWatcher.Delete: it sends a DELETED event with the object's last state.
func (f *FakeWatcher) Delete(lastValue api.Object) { f.Action(Deleted, lastValue) }

// Error mirrors FakeWatcher.Error: it sends an ERROR event, usually with an *api.Status.
// Like upstream it does not stop the watcher; call Stop to end the stream as a server would.
func (f *FakeWatcher) Error(errValue api.Object) { f.Action(Error, errValue) }

// Action mirrors FakeWatcher.Action: it sends an event of any type. It blocks until the
// event is received or buffered, or until Stop; after Stop it does nothing.
func (f *FakeWatcher) Action(action EventType, obj api.Object) {
	f.mu.Lock()
	if f.stopped {
		f.mu.Unlock()
		return
	}
	result, done, sending := f.result, f.done, f.sending
	sending.Add(1)
	f.mu.Unlock()
	defer sending.Done()

	select {
	case result <- Event{Type: action, Object: obj}:
	case <-done:
	}
}

package workqueue

import (
	"log/slog"
	"sync"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Interface mirrors the deprecated workqueue.Interface in client-go util/workqueue/queue.go.
//
// Deprecated: use TypedInterface.
type Interface TypedInterface[any]

// TypedInterface mirrors workqueue.TypedInterface in client-go util/workqueue/queue.go: the
// queue a controller's workers share.
type TypedInterface[T comparable] interface {
	// Add marks item as needing processing (WQ-1).
	Add(item T)
	// Len counts the queued items, not those being processed or delayed (WQ-5).
	Len() int
	// Get blocks for the next item; shutdown is true once the queue is shut down and empty (WQ-2).
	Get() (item T, shutdown bool)
	// Done ends the processing of item and queues it again if it was added meanwhile (WQ-3).
	Done(item T)
	// ShutDown ignores new items and lets workers drain the queued ones (WQ-6).
	ShutDown()
	// ShutDownWithDrain is ShutDown that also waits until nothing is processing (WQ-8).
	ShutDownWithDrain()
	// ShuttingDown reports whether a shutdown has begun (WQ-9).
	ShuttingDown() bool
}

// Queue mirrors workqueue.Queue in client-go util/workqueue/queue.go: the ordering of the
// queued items, pluggable since v0.31. The basic queue calls it under its lock only.
type Queue[T comparable] interface {
	// Touch is called when a queued item is added again; a priority queue may move it.
	Touch(item T)
	// Push queues an item that is not queued yet.
	Push(item T)
	// Len counts the queued items.
	Len() int
	// Pop removes and returns the next item; it is only called when Len() > 0.
	Pop() T
}

// DefaultQueue mirrors workqueue.DefaultQueue: a FIFO on a slice.
func DefaultQueue[T comparable]() Queue[T] {
	return new(queue[T])
}

// queue is our FIFO. client-go reslices its slice on every Pop, so a queue that empties and
// refills keeps reallocating; ours pops by advancing head and rewinds to the start of the
// backing array when it empties (or compacts when the popped prefix dominates), so steady
// Add/Get/Done does not allocate. Touch does nothing: an item keeps its first place.
type queue[T comparable] struct {
	items []T
	head  int // items[:head] were popped
}

// compactAfter is the popped prefix length from which Pop moves the live items down.
const compactAfter = 1024

func (q *queue[T]) Touch(T) {}

func (q *queue[T]) Push(item T) { q.items = append(q.items, item) }

func (q *queue[T]) Len() int { return len(q.items) - q.head }

func (q *queue[T]) Pop() T {
	item := q.items[q.head]
	// Clear the slot: the backing array outlives the pop and must not pin the item.
	var zero T
	q.items[q.head] = zero
	q.head++
	switch {
	case q.head == len(q.items):
		q.items, q.head = q.items[:0], 0
	case q.head >= compactAfter && 2*q.head >= len(q.items):
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	return item
}

// QueueConfig mirrors the deprecated workqueue.QueueConfig.
//
// Deprecated: use TypedQueueConfig.
type QueueConfig = TypedQueueConfig[any]

// TypedQueueConfig mirrors workqueue.TypedQueueConfig in client-go util/workqueue/queue.go.
// MetricsProvider is left out (no metrics here); Logger is ours.
type TypedQueueConfig[T comparable] struct {
	// Name appears as the "queue" attribute of trace lines (client-go uses it for metrics).
	Name string
	// Clock is accepted for parity: the basic queue keeps no time (client-go only uses it
	// for metrics). The delaying queue passes its clock here.
	Clock clock.Clock
	// Queue orders the queued items; nil means DefaultQueue (FIFO).
	Queue Queue[T]
	// Logger receives one Debug hop per add, get, done and shutdown; nil is silent.
	Logger *slog.Logger
}

// New mirrors the deprecated workqueue.New.
//
// Deprecated: use NewTyped.
func New() *Type {
	return NewWithConfig(QueueConfig{})
}

// NewWithConfig mirrors the deprecated workqueue.NewWithConfig.
//
// Deprecated: use NewTypedWithConfig.
func NewWithConfig(config QueueConfig) *Type {
	return NewTypedWithConfig(config)
}

// NewNamed mirrors the deprecated workqueue.NewNamed.
//
// Deprecated: use NewTypedWithConfig.
func NewNamed(name string) *Type {
	return NewWithConfig(QueueConfig{Name: name})
}

// NewTyped mirrors workqueue.NewTyped: a FIFO work queue with no name and no logger.
func NewTyped[T comparable]() *Typed[T] {
	return NewTypedWithConfig(TypedQueueConfig[T]{})
}

// NewTypedWithConfig mirrors workqueue.NewTypedWithConfig.
func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	if config.Queue == nil {
		config.Queue = DefaultQueue[T]()
	}
	q := &Typed[T]{
		queue:      config.Queue,
		dirty:      map[T]struct{}{},
		processing: map[T]struct{}{},
		name:       config.Name,
		logger:     config.Logger,
	}
	q.cond.L = &q.mu
	return q
}

// Type mirrors the deprecated workqueue.Type.
//
// Deprecated: use Typed.
type Type = Typed[any]

// Typed mirrors workqueue.Typed in client-go util/workqueue/queue.go: the basic work queue
// with its queue, dirty and processing sets.
type Typed[T comparable] struct {
	mu   sync.Mutex
	cond sync.Cond // on mu; wakes Get and a draining shutdown

	// queue orders the items waiting for a worker. Each is in dirty and not in processing.
	queue Queue[T]
	// dirty holds every item that needs processing: the queued ones, and the ones added
	// again while being processed (those are not queued until their Done).
	dirty map[T]struct{}
	// processing holds the items handed out by Get and not yet Done.
	processing map[T]struct{}

	shuttingDown bool
	// drain is set by ShutDownWithDrain and cleared by ShutDown, which releases it.
	drain bool

	name   string
	logger *slog.Logger
}

var _ TypedInterface[string] = (*Typed[string])(nil)

// Add mirrors Typed.Add (WQ-1). Its trace line says what happened: queued, dirty (already
// waiting: collapsed), deferred (being processed: Done will queue it) or ignored (shutting
// down). Hops are logged under the lock so that they appear in the order they took effect.
//
//lab:09.1
func (q *Typed[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var result string
	if q.shuttingDown {
		result = "ignored"
	} else {
		// Mark the item dirty and learn from the set's size whether it already was: one map
		// write instead of a lookup followed by a write, on the hottest path of the queue.
		n := len(q.dirty)
		q.dirty[item] = struct{}{}
		switch {
		case len(q.dirty) == n: // already waiting (or added again while processing)
			if !q.isProcessing(item) {
				q.queue.Touch(item)
			}
			result = "dirty"
		case q.isProcessing(item):
			result = "deferred"
		default:
			q.queue.Push(item)
			q.cond.Signal()
			result = "queued"
		}
	}
	if trace.Enabled(q.logger) {
		hop(q.logger, q.name, "add", traceKey(item), slog.String(attrResult, result))
	}
}

// Len mirrors Typed.Len: the number of queued items, for information only (WQ-5).
func (q *Typed[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queue.Len()
}

// Get mirrors Typed.Get (WQ-2). The caller must call Done with the item when it has
// finished; until then nobody else gets it.
//
//lab:09.1
func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.queue.Len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.Len() == 0 {
		// Empty and not waiting any more: we must be shutting down.
		return item, true
	}
	item = q.queue.Pop()
	q.processing[item] = struct{}{}
	delete(q.dirty, item)
	if trace.Enabled(q.logger) {
		hop(q.logger, q.name, "get", traceKey(item))
	}
	return item, false
}

// Done mirrors Typed.Done (WQ-3): the item leaves processing and, if it was added again
// meanwhile, is queued at the tail. Done of an item that is not processing is ignored:
// client-go would queue a dirty one a second time and break INV-23.
//
//lab:09.1
func (q *Typed[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	// Delete first and learn from the set's size whether the item was processing: one map
	// operation instead of a lookup followed by a delete.
	n := len(q.processing)
	delete(q.processing, item)
	if len(q.processing) == n {
		if trace.Enabled(q.logger) {
			hop(q.logger, q.name, "done", traceKey(item), slog.String(attrResult, "unknown"))
		}
		return
	}
	result := "finished"
	if q.isDirty(item) {
		q.queue.Push(item)
		q.cond.Signal()
		result = "requeued"
	} else if len(q.processing) == 0 && q.drain {
		// Nothing is processing any more: wake every ShutDownWithDrain waiting for this.
		// (client-go signals here unconditionally; before a shutdown nobody listens.)
		q.cond.Broadcast()
	}
	if trace.Enabled(q.logger) {
		hop(q.logger, q.name, "done", traceKey(item), slog.String(attrResult, result))
	}
}

// ShutDown mirrors Typed.ShutDown (WQ-6): new items are ignored, workers drain the queued
// ones and then Get reports shutdown. It does not wait for the workers, and it releases a
// ShutDownWithDrain that is still waiting.
func (q *Typed[T]) ShutDown() {
	q.shutDown(false)
}

// ShutDownWithDrain mirrors Typed.ShutDownWithDrain (WQ-8): ShutDown, then wait until no
// item is processing. Queued items are not waited for. Workers that never call Done make it
// wait until a ShutDown releases it.
func (q *Typed[T]) ShutDownWithDrain() {
	q.shutDown(true)
}

func (q *Typed[T]) shutDown(drain bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drain = drain
	q.shuttingDown = true
	q.cond.Broadcast()
	if trace.Enabled(q.logger) {
		hop(q.logger, q.name, "shutdown", "", slog.Bool(attrDrain, drain))
	}
	for drain && q.drain && len(q.processing) != 0 {
		q.cond.Wait()
	}
}

// ShuttingDown mirrors Typed.ShuttingDown (WQ-9).
func (q *Typed[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}

func (q *Typed[T]) isDirty(item T) bool {
	_, ok := q.dirty[item]
	return ok
}

func (q *Typed[T]) isProcessing(item T) bool {
	_, ok := q.processing[item]
	return ok
}

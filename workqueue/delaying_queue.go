package workqueue

import (
	"container/heap"
	"log/slog"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// DelayingInterface mirrors the deprecated workqueue.DelayingInterface in client-go
// util/workqueue/delaying_queue.go.
//
// Deprecated: use TypedDelayingInterface.
type DelayingInterface TypedDelayingInterface[any]

// TypedDelayingInterface mirrors workqueue.TypedDelayingInterface in client-go
// util/workqueue/delaying_queue.go: a queue that can also add an item later, so that a
// failing item is retried without a hot loop.
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item once duration has passed; at once when duration ≤ 0 (WQ-20).
	AddAfter(item T, duration time.Duration)
}

// DelayingQueueConfig mirrors the deprecated workqueue.DelayingQueueConfig.
//
// Deprecated: use TypedDelayingQueueConfig.
type DelayingQueueConfig = TypedDelayingQueueConfig[any]

// TypedDelayingQueueConfig mirrors workqueue.TypedDelayingQueueConfig in client-go
// util/workqueue/delaying_queue.go. MetricsProvider is left out; Logger is a *slog.Logger
// instead of a *klog.Logger.
type TypedDelayingQueueConfig[T comparable] struct {
	// Name appears as the "queue" attribute of trace lines.
	Name string
	// Clock drives the waiting loop; nil means clock.RealClock (WQ-24).
	Clock clock.Clock
	// Queue is the queue items are added to when due; nil means NewTypedWithConfig with the
	// same Name, Clock and Logger.
	Queue TypedInterface[T]
	// Logger receives the requeue hops (and is handed to the default Queue); nil is silent.
	Logger *slog.Logger
}

// NewDelayingQueue mirrors the deprecated workqueue.NewDelayingQueue.
//
// Deprecated: use NewTypedDelayingQueue.
func NewDelayingQueue() DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{})
}

// NewDelayingQueueWithConfig mirrors the deprecated workqueue.NewDelayingQueueWithConfig.
//
// Deprecated: use NewTypedDelayingQueueWithConfig.
func NewDelayingQueueWithConfig(config DelayingQueueConfig) DelayingInterface {
	return NewTypedDelayingQueueWithConfig(config)
}

// TypedNewDelayingQueue mirrors the deprecated workqueue.TypedNewDelayingQueue, a misnamed
// constructor client-go keeps for compatibility.
//
// Deprecated: use NewTypedDelayingQueue.
func TypedNewDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueue[T]()
}

// NewNamedDelayingQueue mirrors the deprecated workqueue.NewNamedDelayingQueue.
//
// Deprecated: use NewDelayingQueueWithConfig.
func NewNamedDelayingQueue(name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name})
}

// NewDelayingQueueWithCustomQueue mirrors the deprecated
// workqueue.NewDelayingQueueWithCustomQueue.
//
// Deprecated: use NewDelayingQueueWithConfig.
func NewDelayingQueueWithCustomQueue(q Interface, name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name, Queue: q})
}

// NewDelayingQueueWithCustomClock mirrors the deprecated
// workqueue.NewDelayingQueueWithCustomClock.
//
// Deprecated: use NewDelayingQueueWithConfig.
func NewDelayingQueueWithCustomClock(c clock.Clock, name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name, Clock: c})
}

// NewTypedDelayingQueue mirrors workqueue.NewTypedDelayingQueue.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{})
}

// NewTypedDelayingQueueWithConfig mirrors workqueue.NewTypedDelayingQueueWithConfig. It
// starts the waiting loop; ShutDown stops it.
func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	c := clock.Or(config.Clock)
	if config.Queue == nil {
		config.Queue = NewTypedWithConfig(TypedQueueConfig[T]{
			Name:   config.Name,
			Clock:  c,
			Logger: config.Logger,
		})
	}
	q := &delayingType[T]{
		TypedInterface:  config.Queue,
		clock:           c,
		heartbeat:       c.NewTicker(maxWait),
		stopCh:          make(chan struct{}),
		loopDone:        make(chan struct{}),
		waitingForAddCh: make(chan waitFor[T], waitingForAddBuffer),
		name:            config.Name,
		logger:          config.Logger,
	}
	go q.waitingLoop()
	return q
}

// maxWait is the heartbeat of the waiting loop, as in client-go: insurance that a due item
// never waits more than 10 s even if a timer were lost.
const maxWait = 10 * time.Second

// waitingForAddBuffer is how many AddAfter requests may be pending before AddAfter blocks.
const waitingForAddBuffer = 1000

// delayingType mirrors client-go's delayingType: a TypedInterface plus the waiting loop.
type delayingType[T comparable] struct {
	TypedInterface[T]

	clock clock.Clock
	// heartbeat wakes the loop at least every maxWait.
	heartbeat clock.Ticker

	// stopCh tells the loop to exit; stopOnce makes ShutDown idempotent.
	stopCh   chan struct{}
	stopOnce sync.Once
	// loopDone is closed when the loop has exited, for whatever reason. ShutDown waits for
	// it, and AddAfter stops waiting on a full channel when it closes.
	loopDone chan struct{}

	// waitingForAddCh feeds the loop; buffered so that AddAfter rarely blocks (WQ-20).
	waitingForAddCh chan waitFor[T]

	name   string
	logger *slog.Logger
}

// waitFor mirrors client-go's waitFor: an item and when it is due. index is its place in
// the heap, kept up to date by Swap so that an earlier AddAfter can move it (heap.Fix).
type waitFor[T any] struct {
	data    T
	readyAt time.Time
	index   int
}

// waitForPriorityQueue mirrors client-go's waitForPriorityQueue: a container/heap min-heap
// on readyAt, so the entry due first is at index 0.
type waitForPriorityQueue[T any] []*waitFor[T]

func (pq waitForPriorityQueue[T]) Len() int { return len(pq) }

func (pq waitForPriorityQueue[T]) Less(i, j int) bool {
	return pq[i].readyAt.Before(pq[j].readyAt)
}

func (pq waitForPriorityQueue[T]) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index = i
	pq[j].index = j
}

// Push is for container/heap only.
func (pq *waitForPriorityQueue[T]) Push(x any) {
	entry := x.(*waitFor[T])
	entry.index = len(*pq)
	*pq = append(*pq, entry)
}

// Pop is for container/heap only.
func (pq *waitForPriorityQueue[T]) Pop() any {
	old := *pq
	n := len(old)
	entry := old[n-1]
	old[n-1] = nil // do not pin the entry through the backing array
	entry.index = -1
	*pq = old[:n-1]
	return entry
}

// peek returns the entry due first; the heap must not be empty.
func (pq waitForPriorityQueue[T]) peek() *waitFor[T] { return pq[0] }

// ShutDown mirrors delayingType.ShutDown (WQ-23): it shuts the queue down and stops the
// waiting loop, whose waiting items are discarded. Unlike client-go it returns only once the
// loop has exited, so a shut-down queue leaves no goroutine behind. It may be called twice.
func (q *delayingType[T]) ShutDown() {
	q.stop(q.TypedInterface.ShutDown)
}

// ShutDownWithDrain is TypedInterface.ShutDownWithDrain followed by stopping the loop.
// client-go does not specialise it, so its loop lingers until the next heartbeat (≤ 10 s);
// ours exits as soon as the drain ends (WQ-23).
func (q *delayingType[T]) ShutDownWithDrain() {
	q.TypedInterface.ShutDownWithDrain()
	q.stop(func() {})
}

// stop runs shutDown and stops the loop once, then waits for the loop to exit.
func (q *delayingType[T]) stop(shutDown func()) {
	q.stopOnce.Do(func() {
		shutDown()
		close(q.stopCh)
	})
	<-q.loopDone
}

// AddAfter mirrors delayingType.AddAfter (WQ-20): dropped while shutting down, added at
// once when duration ≤ 0, else handed to the waiting loop. It blocks while 1000 requests are
// pending, until the loop takes one or stops.
func (q *delayingType[T]) AddAfter(item T, duration time.Duration) {
	if q.ShuttingDown() {
		return
	}
	if trace.Enabled(q.logger) {
		hop(q.logger, q.name, "requeue", traceKey(item), slog.Duration(attrDelay, duration))
	}
	if duration <= 0 {
		q.Add(item)
		return
	}
	select {
	case q.waitingForAddCh <- waitFor[T]{data: item, readyAt: q.clock.Now().Add(duration)}:
	case <-q.stopCh:
	case <-q.loopDone:
	}
}

// waitingLoop mirrors delayingType.waitingLoop (WQ-21). Each turn adds every due entry,
// then sleeps until the next entry is due, a request arrives, the heartbeat ticks or the
// queue stops. It exits when the queue shuts down.
//
//lab:09.2
func (q *delayingType[T]) waitingLoop() {
	defer close(q.loopDone)
	defer q.heartbeat.Stop()

	// One timer, re-armed for the entry due first; never is the channel used when the heap
	// is empty, so that the select blocks only on the other cases.
	var timer clock.Timer
	never := make(<-chan time.Time)
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()

	waiting := &waitForPriorityQueue[T]{}
	byData := map[T]*waitFor[T]{}

	for {
		if q.TypedInterface.ShuttingDown() {
			return
		}
		now := q.clock.Now()
		for waiting.Len() > 0 && !waiting.peek().readyAt.After(now) {
			entry := heap.Pop(waiting).(*waitFor[T])
			delete(byData, entry.data)
			q.Add(entry.data)
		}

		nextReadyAt := never
		if waiting.Len() > 0 {
			wait := waiting.peek().readyAt.Sub(now)
			if timer == nil {
				timer = q.clock.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			nextReadyAt = timer.C()
		}

		select {
		case <-q.stopCh:
			return
		case <-q.heartbeat.C():
		case <-nextReadyAt:
		case entry := <-q.waitingForAddCh:
			q.receive(waiting, byData, entry)
			// Take whatever else is pending before going round, as client-go does.
			for drained := false; !drained; {
				select {
				case entry := <-q.waitingForAddCh:
					q.receive(waiting, byData, entry)
				default:
					drained = true
				}
			}
		}
	}
}

// receive handles one AddAfter request in the loop: add it now if it is already due, else
// keep it waiting.
func (q *delayingType[T]) receive(waiting *waitForPriorityQueue[T], byData map[T]*waitFor[T], entry waitFor[T]) {
	if !entry.readyAt.After(q.clock.Now()) {
		q.Add(entry.data)
		return
	}
	insert(waiting, byData, entry)
}

// insert mirrors client-go's insert: a new item joins the heap; an item already waiting
// keeps the earlier of its two ready times, so a later AddAfter never postpones it (WQ-21).
//
//lab:09.2
func insert[T comparable](waiting *waitForPriorityQueue[T], byData map[T]*waitFor[T], entry waitFor[T]) {
	if existing, ok := byData[entry.data]; ok {
		if entry.readyAt.Before(existing.readyAt) {
			existing.readyAt = entry.readyAt
			heap.Fix(waiting, existing.index)
		}
		return
	}
	e := &entry
	heap.Push(waiting, e)
	byData[entry.data] = e
}

package workqueue

import (
	"log/slog"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// RateLimitingInterface mirrors the deprecated workqueue.RateLimitingInterface in client-go
// util/workqueue/rate_limiting_queue.go.
//
// Deprecated: use TypedRateLimitingInterface.
type RateLimitingInterface TypedRateLimitingInterface[any]

// TypedRateLimitingInterface mirrors workqueue.TypedRateLimitingInterface in client-go
// util/workqueue/rate_limiting_queue.go: a delaying queue whose delays come from a rate
// limiter.
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]
	// AddRateLimited adds item after the delay the rate limiter gives it (WQ-25).
	AddRateLimited(item T)
	// Forget tells the rate limiter to stop tracking item, after a success or when giving
	// up. It does not touch the queue: Done is still required.
	Forget(item T)
	// NumRequeues is how many times the rate limiter has delayed item since its last Forget.
	NumRequeues(item T) int
}

// RateLimitingQueueConfig mirrors the deprecated workqueue.RateLimitingQueueConfig.
//
// Deprecated: use TypedRateLimitingQueueConfig.
type RateLimitingQueueConfig = TypedRateLimitingQueueConfig[any]

// TypedRateLimitingQueueConfig mirrors workqueue.TypedRateLimitingQueueConfig in client-go
// util/workqueue/rate_limiting_queue.go. MetricsProvider is left out; Logger is ours.
type TypedRateLimitingQueueConfig[T comparable] struct {
	// Name appears as the "queue" attribute of trace lines.
	Name string
	// Clock drives the default delaying queue; nil means clock.RealClock.
	Clock clock.Clock
	// DelayingQueue is the queue to wrap; nil means NewTypedDelayingQueueWithConfig with the
	// same Name, Clock and Logger.
	DelayingQueue TypedDelayingInterface[T]
	// Logger receives the forget hops (and is handed to the default DelayingQueue).
	Logger *slog.Logger
}

// NewRateLimitingQueue mirrors the deprecated workqueue.NewRateLimitingQueue. Remember to
// call Forget, or the limiter tracks an item's failures forever.
//
// Deprecated: use NewTypedRateLimitingQueue.
func NewRateLimitingQueue(rateLimiter RateLimiter) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{})
}

// NewRateLimitingQueueWithConfig mirrors the deprecated
// workqueue.NewRateLimitingQueueWithConfig.
//
// Deprecated: use NewTypedRateLimitingQueueWithConfig.
func NewRateLimitingQueueWithConfig(rateLimiter RateLimiter, config RateLimitingQueueConfig) RateLimitingInterface {
	return NewTypedRateLimitingQueueWithConfig[any](rateLimiter, config)
}

// NewNamedRateLimitingQueue mirrors the deprecated workqueue.NewNamedRateLimitingQueue.
//
// Deprecated: use NewRateLimitingQueueWithConfig.
func NewNamedRateLimitingQueue(rateLimiter RateLimiter, name string) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{Name: name})
}

// NewRateLimitingQueueWithDelayingInterface mirrors the deprecated
// workqueue.NewRateLimitingQueueWithDelayingInterface.
//
// Deprecated: use NewRateLimitingQueueWithConfig.
func NewRateLimitingQueueWithDelayingInterface(di DelayingInterface, rateLimiter RateLimiter) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{DelayingQueue: di})
}

// NewTypedRateLimitingQueue mirrors workqueue.NewTypedRateLimitingQueue. Remember to call
// Forget, or the limiter tracks an item's failures forever.
func NewTypedRateLimitingQueue[T comparable](rateLimiter TypedRateLimiter[T]) TypedRateLimitingInterface[T] {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, TypedRateLimitingQueueConfig[T]{})
}

// NewTypedRateLimitingQueueWithConfig mirrors workqueue.NewTypedRateLimitingQueueWithConfig.
// A nil rateLimiter means DefaultTypedControllerRateLimiter (client-go would panic on the
// first AddRateLimited).
func NewTypedRateLimitingQueueWithConfig[T comparable](rateLimiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) TypedRateLimitingInterface[T] {
	if rateLimiter == nil {
		rateLimiter = DefaultTypedControllerRateLimiter[T]()
	}
	if config.DelayingQueue == nil {
		config.DelayingQueue = NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{
			Name:   config.Name,
			Clock:  config.Clock,
			Logger: config.Logger,
		})
	}
	return &rateLimitingType[T]{
		TypedDelayingInterface: config.DelayingQueue,
		rateLimiter:            rateLimiter,
		name:                   config.Name,
		logger:                 config.Logger,
	}
}

// rateLimitingType mirrors client-go's rateLimitingType: a delaying queue plus a limiter.
type rateLimitingType[T comparable] struct {
	TypedDelayingInterface[T]

	rateLimiter TypedRateLimiter[T]

	name   string
	logger *slog.Logger
}

// AddRateLimited mirrors rateLimitingType.AddRateLimited (WQ-25). The delaying queue logs
// the requeue hop with the delay.
//
//lab:09.3
func (q *rateLimitingType[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.rateLimiter.When(item))
}

// NumRequeues mirrors rateLimitingType.NumRequeues.
func (q *rateLimitingType[T]) NumRequeues(item T) int {
	return q.rateLimiter.NumRequeues(item)
}

// Forget mirrors rateLimitingType.Forget. Its hop reports how many requeues it cleared.
func (q *rateLimitingType[T]) Forget(item T) {
	if trace.Enabled(q.logger) {
		hop(q.logger, q.name, "forget", traceKey(item), slog.Int(attrRequeues, q.rateLimiter.NumRequeues(item)))
	}
	q.rateLimiter.Forget(item)
}

package controller_test

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/workqueue"
)

// TestCh10_LoopDecisionThenEffect: the loop alone, over a traced queue, with a reconcile that
// always fails and MaxRetries 1. Each hook runs before the queue call it announces (the retry
// before the requeue, the give-up before the forget), the report comes after the forget, and
// Done ends every round. Run returns once ctx ends, having shut the queue down.
func TestCh10_LoopDecisionThenEffect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var lines []string
		note := func(s string) {
			mu.Lock()
			lines = append(lines, s)
			mu.Unlock()
		}
		logger := slog.New(trace.NewTap(func(h *trace.Record) { note(h.Component + " " + h.Op) }))
		q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "loop", Logger: logger})
		boom := errors.New("boom")
		loop := controller.NewLoop(q, func(context.Context, string) error { return boom })
		assert.Equal(t, controller.MaxRetries, loop.MaxRetries)
		loop.MaxRetries = 1
		loop.OnRetry = func(_ context.Context, _ string, requeues int, _ error) { note("hook retry " + strconv.Itoa(requeues)) }
		loop.OnGiveUp = func(context.Context, string, error) { note("hook give up") }
		loop.HandleError = func(key string, err error) { note("hook report " + key + ": " + err.Error()) }

		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			loop.Run(ctx, 1)
		}()
		q.Add("k")
		time.Sleep(time.Second) // virtual: the 5 ms backoff has passed
		synctest.Wait()
		cancel()
		<-done
		assert.True(t, q.ShuttingDown())

		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []string{
			"workqueue add", "workqueue get", "hook retry 0", "workqueue requeue", "workqueue done",
			"workqueue add", "workqueue get", "hook give up", "workqueue forget", "hook report k: boom", "workqueue done",
			"workqueue shutdown",
		}, lines)
	})
}

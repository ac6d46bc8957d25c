package controller

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/workqueue"
)

// callQueue records the calls handleErr makes; every other method of the interface is nil
// and would panic, which is the point: handleErr needs only these three.
type callQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	requeues int
	calls    []string
}

func (q *callQueue) Forget(key string)         { q.calls = append(q.calls, "Forget "+key) }
func (q *callQueue) AddRateLimited(key string) { q.calls = append(q.calls, "AddRateLimited "+key) }
func (q *callQueue) NumRequeues(string) int    { return q.requeues }

// TestCh10_HandleErr_ForgetRetryGiveUp: handleErr alone. A success Forgets the key; a failure
// requeues it with AddRateLimited while NumRequeues is below MaxRetries, after the OnRetry
// hook; then it gives up: OnGiveUp, Forget, and the error reported.
func TestCh10_HandleErr_ForgetRetryGiveUp(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		err      error
		requeues int
		want     []string
	}{
		{"success", nil, 3, []string{"Forget k"}},
		{"first failure", boom, 0, []string{"hook retry 0", "AddRateLimited k"}},
		{"last retry", boom, MaxRetries - 1, []string{fmt.Sprintf("hook retry %d", MaxRetries-1), "AddRateLimited k"}},
		{"give up", boom, MaxRetries, []string{"hook give up", "Forget k", "report k: boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &callQueue{requeues: tt.requeues}
			l := NewLoop(q, nil)
			l.OnRetry = func(_ context.Context, _ string, n int, _ error) {
				q.calls = append(q.calls, fmt.Sprintf("hook retry %d", n))
			}
			l.OnGiveUp = func(context.Context, string, error) { q.calls = append(q.calls, "hook give up") }
			l.HandleError = func(key string, err error) { q.calls = append(q.calls, "report "+key+": "+err.Error()) }
			l.handleErr(context.Background(), tt.err, "k")
			assert.Equal(t, tt.want, q.calls)
		})
	}
}

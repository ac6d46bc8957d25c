package chanctx_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/internal/chanctx"
)

// TestForChannel: the context is done exactly when the channel closes (contract 1), with no
// deadline and no values.
func TestForChannel(t *testing.T) {
	stop := make(chan struct{})
	ctx := chanctx.ForChannel(stop)
	assert.NoError(t, ctx.Err())
	_, ok := ctx.Deadline()
	assert.False(t, ok)
	assert.Nil(t, ctx.Value("anything"))
	select {
	case <-ctx.Done():
		t.Fatal("done before the channel closed")
	default:
	}
	close(stop)
	<-ctx.Done()
	assert.ErrorIs(t, ctx.Err(), context.Canceled)
}

// TestForChannel_NilNeverEnds: a nil channel never closes, so neither does its context
// (contract 3).
func TestForChannel_NilNeverEnds(t *testing.T) {
	ctx := chanctx.ForChannel(nil)
	assert.Nil(t, ctx.Done())
	assert.NoError(t, ctx.Err())
}

// TestForChannel_ChildrenFollow: a child made with WithCancel ends when the channel closes, and
// one cancelled first leaves nothing behind (contract 2): synctest fails the test if any
// goroutine of the bubble is still running when it returns.
func TestForChannel_ChildrenFollow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stop := make(chan struct{})
		child, cancel := context.WithTimeout(chanctx.ForChannel(stop), time.Hour)
		defer cancel()
		released, cancelReleased := context.WithCancel(chanctx.ForChannel(stop))
		cancelReleased()
		assert.ErrorIs(t, released.Err(), context.Canceled)

		close(stop)
		<-child.Done()
		assert.ErrorIs(t, child.Err(), context.Canceled)
	})
}

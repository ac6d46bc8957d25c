package fakesource

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// cancelledWhileOpening is a context that is live when WatchWithContext first checks it and
// cancelled right after: the watch is then registered on an already-done context, so the
// watcher's Stop runs at once, concurrently with the rest of the open.
type cancelledWhileOpening struct {
	context.Context
	cancel context.CancelFunc
	once   *sync.Once
}

func (c cancelledWhileOpening) Err() error {
	err := c.Context.Err()
	c.once.Do(c.cancel)
	return err
}

// TestCh05_FakeSourceWatchCancelledWhileOpening: a watch whose context ends while it is being
// opened is stopped by the context, exactly once, with no data race between the open and
// that Stop (run it with -race), and leaves no watcher or goroutine behind. Both the exact
// interleaving and a plain concurrent cancel are tried, many times.
func TestCh05_FakeSourceWatchCancelledWhileOpening(t *testing.T) {
	const rounds = 200
	synctest.Test(t, func(t *testing.T) {
		s := New()
		_, err := s.Add(pod("a"))
		require.NoError(t, err)

		opened := 0
		open := func(ctx context.Context) {
			w, err := s.WatchWithContext(ctx, api.ListOptions{})
			if err != nil { // cancelled before the open began
				require.ErrorIs(t, err, context.Canceled)
				return
			}
			opened++
			for range w.ResultChan() { // ends once the context's Stop has run
			}
		}
		for range rounds {
			ctx, cancel := context.WithCancel(t.Context())
			open(cancelledWhileOpening{Context: ctx, cancel: cancel, once: &sync.Once{}})

			ctx, cancel = context.WithCancel(t.Context())
			go cancel()
			open(ctx)
		}

		synctest.Wait() // every Stop the contexts started has finished
		now, _ := s.OpenWatches()
		assert.Zero(t, now, "a cancelled watch is still registered")
		assert.Equal(t, opened, s.Count("WATCH"))
		assert.GreaterOrEqual(t, opened, rounds, "every exact interleaving opens a watch")
	})
}

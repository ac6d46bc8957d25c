package workqueue

import (
	"bytes"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// WQ-25: AddRateLimited is AddAfter(item, When(item)); Forget and NumRequeues go to the
// limiter; Forget does not touch the queue, so the item stays processing until Done.
func TestCh09_WQ25_RateLimitingQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewTypedRateLimitingQueue(NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Minute))
		defer q.ShutDown()
		start := time.Now()

		var got []string
		for range 3 {
			q.AddRateLimited("a")
			item, at := getAt(t, q, start)
			got = append(got, item+"@"+at.String())
			start = time.Now()
			if len(got) < 3 {
				q.Done(item)
			}
		}
		assert.Equal(t, []string{"a@1s", "a@2s", "a@4s"}, got, "delays double")
		assert.Equal(t, 3, q.NumRequeues("a"))

		q.Forget("a")
		assert.Equal(t, 0, q.NumRequeues("a"))
		q.Add("a")
		assert.Equal(t, 0, q.Len(), "Forget did not finish the item: a is still processing")
		q.Done("a")
		assert.Equal(t, 1, q.Len(), "Done requeues the Add made during processing")
	})
}

// A nil limiter means the default controller limiter, instead of a panic at the first
// AddRateLimited.
func TestCh09_WQ25_NilLimiterIsDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewTypedRateLimitingQueueWithConfig[string](nil, TypedRateLimitingQueueConfig[string]{})
		defer q.ShutDown()
		start := time.Now()
		q.AddRateLimited("a")
		item, at := getAt(t, q, start)
		assert.Equal(t, "a@5ms", item+"@"+at.String())
	})
}

// Tracing: the requeue hop carries the delay the limiter chose, forget the count it cleared.
func TestCh09_RateLimitingTracing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		q := NewTypedRateLimitingQueueWithConfig(DefaultTypedControllerRateLimiter[string](),
			TypedRateLimitingQueueConfig[string]{Name: "ctl", Logger: trace.NewPlainLogger(&buf)})
		q.AddRateLimited("a")
		q.AddRateLimited("a")
		advance(10 * time.Millisecond)
		q.Forget("a")
		q.ShutDown()
		want := `msg="workqueue requeue" component=workqueue op=requeue key=a rv="" delay=5ms queue=ctl
msg="workqueue requeue" component=workqueue op=requeue key=a rv="" delay=10ms queue=ctl
msg="workqueue add" component=workqueue op=add key=a rv="" result=queued queue=ctl
msg="workqueue forget" component=workqueue op=forget key=a rv="" requeues=2 queue=ctl
msg="workqueue shutdown" component=workqueue op=shutdown key="" rv="" drain=false queue=ctl
`
		require.Empty(t, cmp.Diff(want, buf.String()))
	})
}

// The deprecated rate-limiting constructors build working queues.
func TestCh09_DeprecatedRateLimitingAliases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		queues := []RateLimitingInterface{
			NewRateLimitingQueue(DefaultControllerRateLimiter()),
			NewRateLimitingQueueWithConfig(DefaultItemBasedRateLimiter(), RateLimitingQueueConfig{}),
			NewNamedRateLimitingQueue(DefaultControllerRateLimiter(), "n"),
			NewRateLimitingQueueWithDelayingInterface(NewDelayingQueue(), DefaultControllerRateLimiter()),
		}
		for _, q := range queues {
			q.AddRateLimited("a")
			advance(5 * time.Millisecond)
			assert.Equal(t, 1, q.Len())
			assert.Equal(t, 1, q.NumRequeues("a"))
			q.Forget("a")
			assert.Equal(t, 0, q.NumRequeues("a"))
			q.ShutDown()
		}
	})
}

package ch09_test

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/workqueue"
)

// printingLimiter shows every delay the limiter hands to AddRateLimited.
type printingLimiter struct {
	workqueue.TypedRateLimiter[string]
}

func (p printingLimiter) When(item string) time.Duration {
	d := p.TypedRateLimiter.When(item)
	fmt.Printf("    AddRateLimited(%s): retry in %v\n", item, d)
	return d
}

// Example_rememberToForget: a key whose sync fails is retried with AddRateLimited, and each
// retry waits twice as long; NumRequeues counts them. On success the worker must Forget the
// key. default/web does, so its next failure starts again at 5ms; default/db does not, so
// its next failure, maybe hours later, waits 40ms as if it were the fourth in a row. (A
// real worker pool would also see each retry only after the previous key's: one key is
// pending at a time here, so the output order is fixed.)
func Example_rememberToForget() {
	q := workqueue.NewTypedRateLimitingQueue[string](
		printingLimiter{workqueue.DefaultTypedControllerRateLimiter[string]()})
	defer q.ShutDown()

	failures := map[string]int{"default/web": 3, "default/db": 3}
	sync := func(key string) error {
		if failures[key] > 0 {
			failures[key]--
			return errors.New("conflict")
		}
		return nil
	}
	// processNextItem is a worker's loop body; forget says whether it Forgets on success.
	processNextItem := func(forget bool) {
		key, _ := q.Get()
		defer q.Done(key)
		if err := sync(key); err != nil {
			fmt.Printf("sync %s: %v (NumRequeues %d)\n", key, err, q.NumRequeues(key))
			q.AddRateLimited(key)
			return
		}
		fmt.Printf("sync %s: ok (NumRequeues %d)\n", key, q.NumRequeues(key))
		if forget {
			q.Forget(key)
			fmt.Printf("    Forget(%s): NumRequeues %d\n", key, q.NumRequeues(key))
		}
	}

	for _, key := range []string{"default/web", "default/db"} {
		q.Add(key)
		for range 4 {
			processNextItem(key == "default/web")
		}
	}
	fmt.Println("later, both fail once more:")
	failures["default/web"], failures["default/db"] = 1, 1
	for _, key := range []string{"default/web", "default/db"} {
		q.Add(key)
		processNextItem(true) // fails
		processNextItem(true) // the retry succeeds; this time both Forget
	}
	// Output:
	// sync default/web: conflict (NumRequeues 0)
	//     AddRateLimited(default/web): retry in 5ms
	// sync default/web: conflict (NumRequeues 1)
	//     AddRateLimited(default/web): retry in 10ms
	// sync default/web: conflict (NumRequeues 2)
	//     AddRateLimited(default/web): retry in 20ms
	// sync default/web: ok (NumRequeues 3)
	//     Forget(default/web): NumRequeues 0
	// sync default/db: conflict (NumRequeues 0)
	//     AddRateLimited(default/db): retry in 5ms
	// sync default/db: conflict (NumRequeues 1)
	//     AddRateLimited(default/db): retry in 10ms
	// sync default/db: conflict (NumRequeues 2)
	//     AddRateLimited(default/db): retry in 20ms
	// sync default/db: ok (NumRequeues 3)
	// later, both fail once more:
	// sync default/web: conflict (NumRequeues 0)
	//     AddRateLimited(default/web): retry in 5ms
	// sync default/web: ok (NumRequeues 1)
	//     Forget(default/web): NumRequeues 0
	// sync default/db: conflict (NumRequeues 3)
	//     AddRateLimited(default/db): retry in 40ms
	// sync default/db: ok (NumRequeues 4)
	//     Forget(default/db): NumRequeues 0
}

// Example_followOneItem traces one key through a rate-limited queue, the way an informer's
// handlers and one worker use it. The limiter starts at 100ms rather than the default 5ms so
// that the retry cannot fire before the worker's Done (the lines would then reorder).
//
// Two updates arrive before a worker takes the key: one Get (dirty). A third arrives while it
// is being processed: deferred, and Done requeues it. The second sync fails: requeue with a
// delay; the third, 100ms later, succeeds and Forgets.
func Example_followOneItem() {
	q := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.NewTypedItemExponentialFailureRateLimiter[string](100*time.Millisecond, time.Minute),
		workqueue.TypedRateLimitingQueueConfig[string]{
			Name:   "web-controller",
			Logger: trace.NewPlainLogger(os.Stdout),
		})

	q.Add("default/web") // OnAdd
	q.Add("default/web") // OnUpdate before any worker took it: collapsed

	key, _ := q.Get()    // sync 1 begins
	q.Add("default/web") // OnUpdate during sync 1: deferred
	q.Done(key)          // sync 1 succeeded; the deferred Add queues the key again

	key, _ = q.Get()      // sync 2 fails:
	q.AddRateLimited(key) // retry after the limiter's delay
	q.Done(key)

	key, _ = q.Get() // sync 3, 100ms later, succeeds
	q.Forget(key)
	q.Done(key)

	q.ShutDown()
	// Output:
	// msg="workqueue add" component=workqueue op=add key=default/web rv="" result=queued queue=web-controller
	// msg="workqueue add" component=workqueue op=add key=default/web rv="" result=dirty queue=web-controller
	// msg="workqueue get" component=workqueue op=get key=default/web rv="" queue=web-controller
	// msg="workqueue add" component=workqueue op=add key=default/web rv="" result=deferred queue=web-controller
	// msg="workqueue done" component=workqueue op=done key=default/web rv="" result=requeued queue=web-controller
	// msg="workqueue get" component=workqueue op=get key=default/web rv="" queue=web-controller
	// msg="workqueue requeue" component=workqueue op=requeue key=default/web rv="" delay=100ms queue=web-controller
	// msg="workqueue done" component=workqueue op=done key=default/web rv="" result=finished queue=web-controller
	// msg="workqueue add" component=workqueue op=add key=default/web rv="" result=queued queue=web-controller
	// msg="workqueue get" component=workqueue op=get key=default/web rv="" queue=web-controller
	// msg="workqueue forget" component=workqueue op=forget key=default/web rv="" requeues=1 queue=web-controller
	// msg="workqueue done" component=workqueue op=done key=default/web rv="" result=finished queue=web-controller
	// msg="workqueue shutdown" component=workqueue op=shutdown key="" rv="" drain=false queue=web-controller
}

package scenario

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/internal/testbed"
)

// errInjected is the failure "fail=ns/name:N" makes a sync return.
var errInjected = errors.New("injected failure")

// controller is the sample-controller pattern in miniature: a handler enqueues keys in the
// testbed controller's typed rate-limiting workqueue, and controller.Loop (the loop chapter
// 10 teaches) hands each key to reconcile, which reads it from the cache. The runner adds its own lines through the loop's
// hooks.
type controller struct {
	w    *world
	tc   *testbed.Controller
	gate gate

	mu         sync.Mutex
	fails      map[string]int  // key → failures still to inject
	processing map[string]bool // keys a worker holds between Get and Done
}

// startController: "start controller [workers=1] [fail=ns/name:N …] [max-retries=5]".
func (w *world) startController(c command) ([]string, error) {
	if w.ctl != nil {
		return nil, errors.New("the controller is already running")
	}
	workers := 1
	if v, ok := c.opts["workers"]; ok {
		var err error
		if workers, err = strconv.Atoi(v); err != nil {
			return nil, err
		}
	}
	maxRetries := 5
	if v, ok := c.opts["max-retries"]; ok {
		var err error
		if maxRetries, err = strconv.Atoi(v); err != nil {
			return nil, err
		}
	}
	ctl := &controller{w: w, fails: map[string]int{}, processing: map[string]bool{}}
	if v, ok := c.opts["fail"]; ok {
		for _, f := range strings.Split(v, ",") {
			key, n, _ := strings.Cut(f, ":")
			times, err := strconv.Atoi(n)
			if err != nil {
				return nil, fmt.Errorf("fail=ns/name:N")
			}
			ctl.fails[key] = times
		}
	}
	ctl.tc = w.tb.NewController("pods", ctl.reconcile)
	ctl.tc.Loop.MaxRetries = maxRetries
	ctl.tc.Loop.OnRetry = func(_ context.Context, key string, requeues int, _ error) {
		w.rec.line("worker", "", fmt.Sprintf("worker error %s: injected failure, AddRateLimited (requeues=%d)", key, requeues+1))
	}
	ctl.tc.Loop.OnGiveUp = func(_ context.Context, key string, _ error) {
		w.rec.line("worker", "", fmt.Sprintf("worker drop %s after %d retries: Forget", key, maxRetries))
	}
	w.ctl = ctl
	h := &handler{w: w, name: "ctl", kind: kindEnqueue}
	w.handlers["ctl"] = h
	w.order = append(w.order, "ctl")
	if w.inf != nil {
		if err := h.register(); err != nil {
			return nil, err
		}
	}
	ctl.tc.Start(context.Background(), workers)
	return []string{fmt.Sprintf("controller started with %d worker(s)", workers)}, nil
}

func (c *controller) setProcessing(key string, on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if on {
		c.processing[key] = true
	} else {
		delete(c.processing, key)
	}
}

// state is "len=N processing=[…]": the queue's length and the keys workers hold.
func (c *controller) state() string {
	c.mu.Lock()
	keys := make([]string, 0, len(c.processing))
	for k := range c.processing {
		keys = append(keys, k)
	}
	c.mu.Unlock()
	sort.Strings(keys)
	return fmt.Sprintf("workqueue len=%d processing=%v", c.tc.Queue.Len(), keys)
}

// reconcile is the loop's Reconcile: it waits while "hold worker" holds the workers, reads the
// key from the cache (level-triggered: whatever the cache holds now) and fails as often as
// the script asked; the loop then retries with AddRateLimited until max-retries.
func (c *controller) reconcile(_ context.Context, key string) error {
	c.setProcessing(key, true)
	defer c.setProcessing(key, false)
	c.gate.pass()
	rec := c.w.rec
	obj, exists, err := c.w.inf.GetIndexer().GetByKey(key)
	switch {
	case err != nil:
		rec.line("worker", "", "worker sync "+key+" error: "+err.Error())
	case !exists:
		rec.line("worker", "", "worker sync "+key+" gone from the cache")
	default:
		rec.line("worker", "", "worker sync "+describe(obj))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fails[key] > 0 {
		c.fails[key]--
		return errInjected
	}
	return nil
}

package chaos

import (
	"context"
	"errors"
	"hash/fnv"
	"strconv"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/internal/testbed"
)

// controller is the sample-controller pattern: a handler enqueues keys into the testbed
// controller's rate-limited workqueue, and controller.Loop hands them to a few workers that
// reconcile them from the informer's cache. It checks INV-23 (no key is processed by two
// workers at once; the last Add of every key is followed by a Get that starts after it; the
// queue is empty at quiescence) and level-triggered convergence (the last successful
// reconcile of every key saw the server's final state).
type controller struct {
	w  *world
	tc *testbed.Controller

	mu       sync.Mutex
	seq      uint64
	inflight map[string]bool
	lastAdd  map[string]uint64 // key → sequence number of its last Add (or AddRateLimited)
	lastGet  map[string]uint64 // key → sequence number of its last Get
	seen     map[string]uint64 // key → RV the last successful reconcile saw (0: absent)
	gets     int
	retries  int
}

const workers = 3

// errRetry is what a reconcile that fails returns: the loop requeues the key.
var errRetry = errors.New("simulated reconcile failure")

func newController(w *world) *controller {
	c := &controller{
		w:        w,
		inflight: map[string]bool{}, lastAdd: map[string]uint64{}, lastGet: map[string]uint64{},
		seen: map[string]uint64{},
	}
	c.tc = w.tb.NewController("", c.process)
	c.tc.Loop.OnRetry = c.requeued
	return c
}

// enqueue is the handler side. The Add is recorded before it is made, so a Get that takes
// the key is always numbered after the Add it serves.
func (c *controller) enqueue(key string) {
	c.mu.Lock()
	c.seq++
	c.lastAdd[key] = c.seq
	c.mu.Unlock()
	c.tc.Queue.Add(key)
}

func (c *controller) start() { c.tc.Start(c.w.ctx, workers) }

func (c *controller) stop() { c.tc.Stop() }

// process is the loop's Reconcile: it numbers the Get the loop made, runs reconcile, and
// clears the key's in-flight mark before the loop calls Done (after Done another worker may
// rightly Get the key).
func (c *controller) process(_ context.Context, key string) error {
	c.mu.Lock()
	if c.inflight[key] {
		c.w.rep.add("INV-23", "workqueue: %s handed to a second worker while one is processing it", key)
	}
	c.inflight[key] = true
	c.seq++
	c.lastGet[key] = c.seq
	c.gets++
	c.mu.Unlock()

	ok := c.reconcile(key)

	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	if !ok {
		return errRetry
	}
	return nil
}

// requeued is the loop's OnRetry: the AddRateLimited that follows is recorded as an Add
// before it is made, as enqueue records the handler's.
func (c *controller) requeued(_ context.Context, key string, _ int, _ error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.lastAdd[key] = c.seq
	c.retries++
}

// reconcile reads the key from the cache. It fails (and is retried with backoff) for about
// one state in four, at most three times in a row, and spends a little virtual time working;
// both are a deterministic function of the key, the RV and the attempt.
func (c *controller) reconcile(key string) bool {
	obj, exists, _ := c.w.inf.GetIndexer().GetByKey(key)
	var rv uint64
	if exists {
		rv = rvOf(obj)
	}
	attempt := c.tc.Queue.NumRequeues(key)
	h := fnv.New32a()
	h.Write([]byte(key + "@" + strconv.FormatUint(rv, 10) + "#" + strconv.Itoa(attempt)))
	sum := h.Sum32()
	if d := time.Duration(sum%3) * 10 * time.Millisecond; d > 0 {
		time.Sleep(d) // the reconcile's work, in virtual time; nothing waits on it
	}
	if sum%4 == 0 && attempt < 3 {
		return false
	}
	c.mu.Lock()
	c.seen[key] = rv
	c.mu.Unlock()
	return true
}

// idle reports whether every Add has been served by a later Get and nothing is in flight.
func (c *controller) idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.inflight) > 0 {
		return false
	}
	for k, a := range c.lastAdd {
		if c.lastGet[k] < a {
			return false
		}
	}
	return c.tc.Queue.Len() == 0
}

// check is the controller's part of the end-state: INV-23 and convergence against the
// server's final state (key → RV; absent keys are missing).
func (c *controller) check(state map[string]uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.tc.Queue.Len(); n != 0 {
		c.w.rep.add("INV-23", "workqueue: Len() = %d at quiescence", n)
	}
	for k, a := range c.lastAdd {
		if g := c.lastGet[k]; g < a {
			c.w.rep.add("INV-23", "workqueue: the last Add of %s (#%d) was never followed by a Get (last Get #%d): a lost update", k, a, g)
		}
	}
	for k := range c.lastAdd {
		if got, want := c.seen[k], state[k]; got != want {
			c.w.rep.add("CTRL", "controller: the last reconcile of %s saw RV %d, the server has %d (0: absent)", k, got, want)
		}
	}
	for k := range state {
		if _, ok := c.lastAdd[k]; !ok {
			c.w.rep.add("CTRL", "controller: %s exists on the server but was never enqueued", k)
		}
	}
}

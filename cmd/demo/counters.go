package main

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"
)

// counters is the sink that counts hops by "component/op" (and finer keys such as
// "reflector/event/MODIFIED" or "handler/audit/tombstone"), so every number the tour, the
// summary and the dashboard show comes from the trace itself. It also wakes expectations: a
// step registers what it waits for before it acts, then waits for it.
type counters struct {
	mu      sync.Mutex
	m       map[string]int64
	waiters []*expectation
}

func newCounters() *counters { return &counters{m: map[string]int64{}} }

// observe counts one hop; it implements sink.
func (c *counters) observe(h *hop) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h.Component == "" {
		c.m["log/"+strings.ToLower(h.Level.String())]++
	} else {
		c.m[h.Component+"/"+h.Op]++
	}
	switch h.Component {
	case "apiserver":
		// Pods are the only namespaced kind the demo writes, so keys with a "/" are pods.
		if strings.Contains(h.Key, "/") {
			switch h.Op {
			case "create":
				c.m["apiserver/pods"]++
			case "delete":
				c.m["apiserver/pods"]--
			}
		}
	case "reflector":
		if h.Op == "event" {
			c.m["reflector/event/"+h.Type]++
		}
	case "fifo":
		switch h.Op {
		case "enqueue", "tombstone":
			c.m["fifo/delta/"+h.Type]++
			c.m["fifo/queued"]++
		case "pop":
			// A DeltaFIFO pop hands over a key's whole history: "Added,Updated".
			n := int64(strings.Count(h.Type, ",") + 1)
			c.m["fifo/popped"] += n
			c.m["fifo/queued"] -= n
		}
	case "handler":
		c.m["handler/"+h.Listener+"/"+h.Op]++
		c.m["handler/"+h.Listener]++
		if h.Bool("tombstone") {
			c.m["handler/"+h.Listener+"/tombstone"]++
			c.m["handler/tombstone"]++
		}
		if h.Bool("resync") {
			c.m["handler/"+h.Listener+"/resync"]++
		}
	case "worker":
		c.m["worker/"+h.Op+"/"+h.Key]++
	case "workqueue":
		if r := h.Text("result"); r != "" {
			c.m["workqueue/"+h.Op+"/"+r]++
		}
	case "listener":
		if p, ok := h.Int("pending"); ok && p > c.m["listener/"+h.Listener+"/peak"] {
			c.m["listener/"+h.Listener+"/peak"] = p
		}
		if cp, ok := h.Int("cap"); ok && cp > c.m["listener/"+h.Listener+"/cap"] {
			c.m["listener/"+h.Listener+"/cap"] = cp
		}
	}
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.pred(h) {
			w.left--
		}
		if w.left <= 0 {
			close(w.ch)
			continue
		}
		kept = append(kept, w)
	}
	clear(c.waiters[len(kept):])
	c.waiters = kept
}

// get returns one count.
func (c *counters) get(key string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

// snapshot copies every count, for a step to diff against later.
func (c *counters) snapshot() tally {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.m)
}

// tally is a set of counts; since subtracts an earlier snapshot.
type tally map[string]int64

func (t tally) since(before tally) tally {
	out := tally{}
	for k, v := range t {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// expectation is something a step waits for: n hops matching pred.
type expectation struct {
	what string
	pred func(*hop) bool
	left int
	ch   chan struct{}
}

// expect registers an expectation for n hops matching pred. Register before acting, so a hop
// that comes quickly is not missed. pred runs under the counters' lock: keep it simple.
func (c *counters) expect(what string, n int, pred func(*hop) bool) *expectation {
	w := &expectation{what: what, pred: pred, left: n, ch: make(chan struct{})}
	if n <= 0 {
		close(w.ch)
		return w
	}
	c.mu.Lock()
	c.waiters = append(c.waiters, w)
	c.mu.Unlock()
	return w
}

// wait blocks until the expectation is met, ctx ends or timeout passes.
func (w *expectation) wait(ctx context.Context, timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-w.ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return fmt.Errorf("timed out after %v waiting for %s", timeout, w.what)
	}
}

// hopMatch builds a predicate for component/op on one key ("" matches any key).
func hopMatch(component, op, key string) func(*hop) bool {
	return func(h *hop) bool { return h.Is(component, op) && (key == "" || h.Key == key) }
}

package dashboard

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// DefaultSubscriberBuffer (no client-go counterpart) is how many encoded records a subscriber
// may have waiting before the Hub drops records for it. A browser that keeps up never gets near
// it; one that falls behind loses records instead of slowing the pipeline down.
const DefaultSubscriberBuffer = 512

// Hub is a slog.Handler that turns every record into one JSON message and fans it out to the
// dashboard's Server-Sent Events subscribers. It has no client-go counterpart: it is the bridge
// between the trace hops of internal/trace and the browser.
//
// Hub never blocks the goroutine that logs: each subscriber has a bounded buffer, and a record
// that does not fit is dropped and counted for that subscriber. With no subscriber connected,
// Enabled reports false, so trace.Enabled guards skip building the hop altogether.
//
// The zero Hub is not usable; call NewHub. WithAttrs and WithGroup return Hubs that share the
// subscribers of the Hub they came from.
type Hub struct {
	core *hubCore
	// scope holds what WithAttrs and WithGroup added; it is never mutated once shared.
	scope trace.Scope
}

// hubCore is what every Hub derived from one NewHub shares.
type hubCore struct {
	mu sync.Mutex // serialises subscribe and unsubscribe; Handle never takes it
	// subs is copied on write so that Handle reads it with one atomic load.
	subs    atomic.Pointer[[]*subscriber]
	seq     atomic.Uint64
	dropped atomic.Int64
}

// subscriber is one reader of the Hub, typically one browser tab on /events.
type subscriber struct {
	// ch is never closed: Handle may still hold an old snapshot of the subscriber list, and a
	// send on a closed channel would panic. An unsubscribed channel is simply garbage.
	ch      chan []byte
	dropped atomic.Int64
}

// NewHub returns a Hub with no subscribers. It has no client-go counterpart.
func NewHub() *Hub {
	return &Hub{core: &hubCore{}}
}

// Enabled implements slog.Handler: Debug and higher levels are wanted, but only while at least
// one subscriber is connected, so an unwatched dashboard costs the pipeline nothing.
func (h *Hub) Enabled(_ context.Context, level slog.Level) bool {
	return level >= slog.LevelDebug && h.core.active()
}

// Handle implements slog.Handler: it encodes r once and offers it to every subscriber without
// blocking. It never returns an error: a slow subscriber loses records, the logger does not.
func (h *Hub) Handle(_ context.Context, r slog.Record) error {
	subs := h.core.subs.Load()
	if subs == nil || len(*subs) == 0 || r.Level < slog.LevelDebug {
		return nil
	}
	msg := h.encode(h.core.seq.Add(1), r)
	for _, s := range *subs {
		select {
		case s.ch <- msg:
		default:
			s.dropped.Add(1)
			h.core.dropped.Add(1)
		}
	}
	return nil
}

// WithAttrs implements slog.Handler. The attributes belong to the innermost open group.
func (h *Hub) WithAttrs(attrs []slog.Attr) slog.Handler {
	scope, changed := h.scope.WithAttrs(attrs)
	if !changed {
		return h
	}
	return &Hub{core: h.core, scope: scope}
}

// WithGroup implements slog.Handler: later attributes, from WithAttrs or from a record, nest
// inside a JSON object called name. An empty name is ignored, as slog requires.
func (h *Hub) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return &Hub{core: h.core, scope: h.scope.WithGroup(name)}
}

// Subscribers reports how many subscribers are connected. It has no client-go counterpart.
func (h *Hub) Subscribers() int {
	subs := h.core.subs.Load()
	if subs == nil {
		return 0
	}
	return len(*subs)
}

// Dropped reports how many records were dropped, over all subscribers, because a subscriber's
// buffer was full. It has no client-go counterpart.
func (h *Hub) Dropped() int64 { return h.core.dropped.Load() }

// subscribe adds a subscriber with room for buffer records. The returned function removes it;
// calling it more than once is harmless.
func (h *Hub) subscribe(buffer int) (*subscriber, func()) {
	if buffer < 1 {
		buffer = 1
	}
	s := &subscriber{ch: make(chan []byte, buffer)}
	c := h.core
	c.mu.Lock()
	var next []*subscriber
	if old := c.subs.Load(); old != nil {
		next = slices.Clone(*old)
	}
	next = append(next, s)
	c.subs.Store(&next)
	c.mu.Unlock()

	var once sync.Once
	return s, func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			old := c.subs.Load()
			next := slices.DeleteFunc(slices.Clone(*old), func(x *subscriber) bool { return x == s })
			c.subs.Store(&next)
		})
	}
}

func (c *hubCore) active() bool {
	subs := c.subs.Load()
	return subs != nil && len(*subs) > 0
}

package main

import (
	"context"
	"log/slog"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// hop is one slog record decoded once, by the decoder every reader of the trace shares: the
// attributes internal/trace promises (component, op, key, rv, type, listener) plus the rest in
// order. Records that are not hops (a reflector warning, say) have an empty component and
// keep their message.
type hop = trace.Record

// sink receives every decoded hop; it must be safe for concurrent use.
type sink interface{ observe(h *hop) }

// newTap returns the slog.Handler at Debug level that decodes each record into a hop and hands
// it to sinks. Every component of the pipeline logs into it, so the tour, the counters and
// the dashboard all see what really happened.
func newTap(sinks ...sink) slog.Handler {
	return trace.NewTap(func(h *hop) {
		for _, s := range sinks {
			s.observe(h)
		}
	})
}

// fanout is a slog.Handler that hands every record to several handlers: the tap and, in
// `demo run --ui`, the dashboard's Hub.
type fanout []slog.Handler

func (f fanout) Enabled(ctx context.Context, l slog.Level) bool {
	for _, h := range f {
		if h.Enabled(ctx, l) {
			return true
		}
	}
	return false
}

func (f fanout) Handle(ctx context.Context, r slog.Record) error {
	var first error
	for _, h := range f {
		if h.Enabled(ctx, r.Level) {
			if err := h.Handle(ctx, r.Clone()); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

func (f fanout) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithAttrs(attrs)
	}
	return out
}

func (f fanout) WithGroup(name string) slog.Handler {
	out := make(fanout, len(f))
	for i, h := range f {
		out[i] = h.WithGroup(name)
	}
	return out
}

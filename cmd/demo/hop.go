package main

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// hop is one slog record decoded once: the attributes internal/trace promises (component,
// op, key, rv, type, listener) plus the rest in order. Records that are not hops (a
// reflector warning, say) have an empty component and keep their message.
type hop struct {
	time      time.Time
	level     slog.Level
	msg       string
	component string
	op        string
	key       string
	rv        string
	typ       string
	listener  string
	extra     []slog.Attr
}

// attr returns the value of an extra attribute.
func (h *hop) attr(name string) (slog.Value, bool) {
	for _, a := range h.extra {
		if a.Key == name {
			return a.Value.Resolve(), true
		}
	}
	return slog.Value{}, false
}

// str returns an extra attribute as text, "" when absent.
func (h *hop) str(name string) string {
	if v, ok := h.attr(name); ok {
		return v.String()
	}
	return ""
}

// num returns an extra integer attribute, and whether it was there.
func (h *hop) num(name string) (int64, bool) {
	v, ok := h.attr(name)
	if !ok {
		return 0, false
	}
	switch v.Kind() {
	case slog.KindInt64:
		return v.Int64(), true
	case slog.KindUint64:
		return int64(v.Uint64()), true
	}
	return 0, false
}

// flag returns an extra boolean attribute, false when absent.
func (h *hop) flag(name string) bool {
	v, ok := h.attr(name)
	return ok && v.Kind() == slog.KindBool && v.Bool()
}

// is reports whether the hop is component/op.
func (h *hop) is(component, op string) bool { return h.component == component && h.op == op }

// decodeHop turns a record (with the attributes a handler was given by WithAttrs, and a group
// prefix) into a hop.
func decodeHop(r slog.Record, pre []slog.Attr, group string) *hop {
	h := &hop{time: r.Time, level: r.Level, msg: r.Message}
	set := func(a slog.Attr) {
		if group != "" {
			a.Key = group + "." + a.Key
		}
		switch a.Key {
		case trace.KeyComponent:
			h.component = a.Value.String()
		case trace.KeyOp:
			h.op = a.Value.String()
		case trace.KeyKey:
			h.key = a.Value.String()
		case trace.KeyRV:
			h.rv = a.Value.String()
		case trace.KeyType:
			h.typ = a.Value.String()
		case trace.KeyListener:
			h.listener = a.Value.String()
		default:
			h.extra = append(h.extra, a)
		}
	}
	for _, a := range pre {
		set(a)
	}
	r.Attrs(func(a slog.Attr) bool {
		set(a)
		return true
	})
	return h
}

// sink receives every decoded hop; it must be safe for concurrent use.
type sink interface{ observe(h *hop) }

// tapHandler is a slog.Handler at Debug level that decodes each record into a hop and hands it
// to its sinks. Every component of the pipeline logs into it, so the tour, the counters and
// the dashboard all see what really happened.
type tapHandler struct {
	sinks []sink // fixed at construction, so Handle needs no lock
	pre   []slog.Attr
	group string
}

func newTap(sinks ...sink) *tapHandler {
	return &tapHandler{sinks: sinks}
}

func (t *tapHandler) Enabled(context.Context, slog.Level) bool { return true }

func (t *tapHandler) Handle(_ context.Context, r slog.Record) error {
	h := decodeHop(r, t.pre, t.group)
	for _, s := range t.sinks {
		s.observe(h)
	}
	return nil
}

func (t *tapHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *t
	for _, a := range attrs {
		if t.group != "" {
			a.Key = t.group + "." + a.Key
		}
		c.pre = append(slices.Clip(c.pre), a)
	}
	return &c
}

func (t *tapHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return t
	}
	c := *t
	c.group = strings.TrimPrefix(t.group+"."+name, ".")
	return &c
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

package trace

import (
	"context"
	"log/slog"
	"strings"
	"time"
)

// Record is one slog record read back: the attributes Hop writes (component, op, key, rv), the
// two extras every reader looks for (type, listener), and the other attributes in order.
// Records that are not hops (a reflector's warning, say) have an empty Component and keep
// their Message. It has no client-go counterpart.
type Record struct {
	Time    time.Time
	Level   slog.Level
	Message string

	Component, Op, Key, RV string
	// Type and Listener are the values of the KeyType and KeyListener attributes, which also
	// stay in Attrs at their place.
	Type, Listener string

	// Attrs are the extra attributes, the ones after the four Hop writes first, in the order
	// Walk gives them. An attribute inside groups has its key qualified with the group names
	// ("group.key"), so that it never passes for a top-level one.
	Attrs []slog.Attr
}

// Decode reads r, with the attributes and groups of the handler's Scope, as a Record. Every
// reader of the trace decodes records with it, so they all agree on what a hop says.
func Decode(s Scope, r slog.Record) *Record {
	h := &Record{Time: r.Time, Level: r.Level, Message: r.Message}
	var groups []string
	s.Walk(r, func(e Event) {
		switch e.Kind {
		case EventOpen:
			groups = append(groups, e.Attr.Key)
			return
		case EventClose:
			groups = groups[:len(groups)-1]
			return
		}
		a := e.Attr
		if len(groups) > 0 {
			a.Key = strings.Join(groups, ".") + "." + a.Key
		}
		switch a.Key {
		case KeyComponent:
			h.Component = a.Value.String()
			return
		case KeyOp:
			h.Op = a.Value.String()
			return
		case KeyKey:
			h.Key = a.Value.String()
			return
		case KeyRV:
			h.RV = a.Value.String()
			return
		case KeyType:
			h.Type = a.Value.String()
		case KeyListener:
			h.Listener = a.Value.String()
		}
		h.Attrs = append(h.Attrs, a)
	})
	return h
}

// Is reports whether the hop is component's op.
func (h *Record) Is(component, op string) bool { return h.Component == component && h.Op == op }

// Attr returns the value of the first extra attribute called name.
func (h *Record) Attr(name string) (slog.Value, bool) {
	for _, a := range h.Attrs {
		if a.Key == name {
			return a.Value, true
		}
	}
	return slog.Value{}, false
}

// Text returns an extra attribute as text, "" when it is absent.
func (h *Record) Text(name string) string {
	if v, ok := h.Attr(name); ok {
		return v.String()
	}
	return ""
}

// Int returns an extra integer attribute, and whether there was one.
func (h *Record) Int(name string) (int64, bool) {
	v, ok := h.Attr(name)
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

// Bool returns an extra boolean attribute, false when it is absent or not a boolean.
func (h *Record) Bool(name string) bool {
	v, ok := h.Attr(name)
	return ok && v.Kind() == slog.KindBool && v.Bool()
}

// Tap is a slog.Handler that decodes every record, at every level, into a Record and hands it to
// a function: the way a test, a golden-trace recorder or the demo watches a pipeline through
// the logger it was given. WithAttrs and WithGroup follow the slog.Handler rules through
// Scope. It has no client-go counterpart.
type Tap struct {
	scope Scope
	fn    func(*Record)
}

// NewTap returns a Tap that calls fn with every record; fn must be safe for concurrent use,
// as every goroutine that logs calls it. It has no client-go counterpart.
func NewTap(fn func(*Record)) *Tap { return &Tap{fn: fn} }

// Enabled implements slog.Handler: a Tap wants every record.
func (t *Tap) Enabled(context.Context, slog.Level) bool { return true }

// Handle implements slog.Handler: decode r and hand it over.
func (t *Tap) Handle(_ context.Context, r slog.Record) error {
	t.fn(Decode(t.scope, r))
	return nil
}

// WithAttrs implements slog.Handler.
func (t *Tap) WithAttrs(attrs []slog.Attr) slog.Handler {
	s, changed := t.scope.WithAttrs(attrs)
	if !changed {
		return t
	}
	return &Tap{scope: s, fn: t.fn}
}

// WithGroup implements slog.Handler.
func (t *Tap) WithGroup(name string) slog.Handler {
	if name == "" {
		return t
	}
	return &Tap{scope: t.scope.WithGroup(name), fn: t.fn}
}

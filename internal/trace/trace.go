package trace

import (
	"context"
	"io"
	"log/slog"
)

// Attribute names shared by every component, so that golden traces, the demo and the
// dashboard can rely on them; Decode reads each into a field of Record.
const (
	// KeyComponent names the stage that logged the hop (apiserver, reflector, fifo, …).
	KeyComponent = "component"
	// KeyOp is what the stage did (add, pop, distribute, …).
	KeyOp = "op"
	// KeyKey is the object's "namespace/name" key.
	KeyKey = "key"
	// KeyRV is the object's resourceVersion, or the one the stage is at.
	KeyRV = "rv"
	// KeyType is the event, delta or notification type, an extra attribute.
	KeyType = "type"
	// KeyListener names the processor listener (the handler's registration), an extra
	// attribute.
	KeyListener = "listener"
)

// Enabled reports whether l logs hops. It is false for a nil logger.
func Enabled(l *slog.Logger) bool {
	return l != nil && l.Enabled(context.Background(), slog.LevelDebug)
}

// Hop logs one hop of an event at Debug level. Extra attributes follow the four standard ones.
func Hop(l *slog.Logger, component, op, key, rv string, extra ...slog.Attr) {
	if !Enabled(l) {
		return
	}
	attrs := make([]slog.Attr, 0, 4+len(extra))
	attrs = append(attrs,
		slog.String(KeyComponent, component),
		slog.String(KeyOp, op),
		slog.String(KeyKey, key),
		slog.String(KeyRV, rv),
	)
	attrs = append(attrs, extra...)
	l.LogAttrs(context.Background(), slog.LevelDebug, component+" "+op, attrs...)
}

// NewPlainLogger returns a Debug-level text logger that writes no time and no level, so the
// same events always print the same lines: chapter examples, golden traces and tests use it.
func NewPlainLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{}
			}
			return a
		},
	}))
}

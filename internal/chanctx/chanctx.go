package chanctx

import (
	"context"
	"time"
)

// ForChannel mirrors wait.ContextForChannel: a context that ends when stopCh closes.
func ForChannel(stopCh <-chan struct{}) context.Context { return stopContext(stopCh) }

// stopContext is the channel itself seen as a context. Being a plain channel type, converting
// to it costs nothing, and the context package treats it like any foreign context: a child
// made with context.WithCancel watches Done and is released by its own cancel.
type stopContext <-chan struct{}

// Deadline implements context.Context: a stop channel has no deadline.
func (stopContext) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done implements context.Context: the stop channel itself.
func (c stopContext) Done() <-chan struct{} { return c }

// Err implements context.Context: context.Canceled once the channel is closed, nil before.
func (c stopContext) Err() error {
	select {
	case <-c:
		return context.Canceled
	default:
		return nil
	}
}

// Value implements context.Context: a stop channel carries no values.
func (stopContext) Value(any) any { return nil }

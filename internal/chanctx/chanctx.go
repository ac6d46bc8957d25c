// Package chanctx turns the stop channels of client-go's older API (Run(stopCh),
// ListAndWatch(stopCh), Start(stopCh), WaitForCacheSync(stopCh)) into the context their
// WithContext forms take.
//
// Contract:
//  1. ForChannel(stopCh) is done exactly when stopCh is closed; its Err is then
//     context.Canceled. It has no deadline and no values.
//  2. It starts no goroutine and needs no cancel function: Done returns stopCh itself, so
//     nothing can outlive the channel, and a caller never has to remember to release it.
//  3. A nil stopCh gives a context that is never done, as a nil channel never closes.
//
// It mirrors wait.ContextForChannel of k8s.io/apimachinery, which client-go's reflector, shared
// informer, controller and informer factory all use for their stopCh forms.
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

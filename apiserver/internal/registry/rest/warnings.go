package rest

import (
	"context"
	"slices"
	"sync"
)

// warningsKey keys the Recorder in a request's context.
type warningsKey struct{}

// Recorder collects the warnings a request's registry code adds, for the handler to send as
// Warning headers. It mirrors the recorder k8s.io/apiserver's warning package keeps in the
// request context: the same text twice is sent once.
type Recorder struct {
	mu   sync.Mutex
	msgs []string
}

// WithWarnings returns ctx with a new Recorder, and the Recorder.
func WithWarnings(ctx context.Context) (context.Context, *Recorder) {
	r := &Recorder{}
	return context.WithValue(ctx, warningsKey{}, r), r
}

// AddWarnings mirrors warning.AddWarning for each message: it records them in ctx's
// Recorder, if it has one. Empty messages are dropped.
func AddWarnings(ctx context.Context, msgs ...string) {
	r, _ := ctx.Value(warningsKey{}).(*Recorder)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range msgs {
		if m != "" && !slices.Contains(r.msgs, m) {
			r.msgs = append(r.msgs, m)
		}
	}
}

// Warnings returns the recorded messages in the order they were added.
func (r *Recorder) Warnings() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.msgs)
}

package registry

import (
	"context"
	"slices"
	"sync"
)

// The warnings of a write: what the strategy's WarningsOnCreate and WarningsOnUpdate say
// (warning.AddWarning in k8s.io/apiserver), collected through the request's context and sent
// as Warning headers with the answer.

type warningsKey struct{}

type warningRecorder struct {
	mu   sync.Mutex
	list []string
}

// WithWarnings returns a context whose writes record their warnings, and a function that
// returns them in the order they came, each once (a write retried on a conflict warns once).
func WithWarnings(ctx context.Context) (context.Context, func() []string) {
	r := &warningRecorder{}
	return context.WithValue(ctx, warningsKey{}, r), func() []string {
		r.mu.Lock()
		defer r.mu.Unlock()
		return slices.Clone(r.list)
	}
}

// recordWarnings adds warnings to ctx's recorder, if it has one.
func recordWarnings(ctx context.Context, warnings []string) {
	r, _ := ctx.Value(warningsKey{}).(*warningRecorder)
	if r == nil || len(warnings) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range warnings {
		if !slices.Contains(r.list, w) {
			r.list = append(r.list, w)
		}
	}
}

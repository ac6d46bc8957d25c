package processor

import (
	"context"
	"fmt"
	"log/slog"
)

// PanicPolicy mirrors utilruntime.ReallyCrash in k8s.io/apimachinery/pkg/util/runtime: what a
// listener does when its handler panics (PL-5, N-5). client-go has one global switch; here
// each listener takes it as an option, so tests can exercise both policies side by side.
type PanicPolicy int

const (
	// ReallyCrash re-panics after logging, which crashes the process, as client-go does with
	// utilruntime.ReallyCrash = true (its default). The zero value, so it is the default here too.
	// It mirrors utilruntime.ReallyCrash in apimachinery pkg/util/runtime.
	ReallyCrash PanicPolicy = iota
	// SkipAndContinue logs the panic, skips the notification that caused it, and delivers the
	// next one after a one-second pause, as client-go v0.33+ does with ReallyCrash = false.
	SkipAndContinue
)

// String is ours: the policy's name, for logs.
func (p PanicPolicy) String() string {
	switch p {
	case ReallyCrash:
		return "ReallyCrash"
	case SkipAndContinue:
		return "SkipAndContinue"
	default:
		return fmt.Sprintf("PanicPolicy(%d)", int(p))
	}
}

// observePanic mirrors utilruntime.HandleCrash: log the recovered value r, call the OnPanic
// hook, then re-panic unless the policy says to continue. It runs inside the deferred recover
// of one handler call.
func (l *ProcessorListener) observePanic(r any) {
	if l.logger != nil {
		l.logger.LogAttrs(context.Background(), slog.LevelError, "Observed a panic",
			slog.String("listener", l.name), slog.Any("panic", r), slog.String("policy", l.panicPolicy.String()))
	}
	if l.onPanic != nil {
		l.onPanic(l.name, r)
	}
	if l.panicPolicy != SkipAndContinue {
		panic(r)
	}
}

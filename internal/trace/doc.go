// Package trace is the one place that knows how a pipeline hop is logged.
//
// Contract:
//  1. Every component of informer-lab takes an optional *slog.Logger; nil means silent.
//  2. A hop is logged at slog.LevelDebug with the attributes component, op, key and rv, in
//     that order, followed by any extra attributes (type, listener, …).
//  3. The log message is "component op", so a plain text handler reads like a trace line.
//  4. When the logger is nil or Debug is disabled, Hop returns before building anything:
//     callers that must compute an attribute (an RV, say) guard with Enabled first, so a
//     disabled trace costs one nil check or one Enabled call and no allocation.
package trace

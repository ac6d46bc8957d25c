// Package trace is the one place that knows how a pipeline hop is logged, and how a logged
// hop is read back.
//
// Contract:
//  1. Every component of informer-lab takes an optional *slog.Logger; nil means silent.
//  2. A hop is logged at slog.LevelDebug with the attributes component, op, key and rv, in
//     that order, followed by any extra attributes (type, listener, …).
//  3. The log message is "component op", so a plain text handler reads like a trace line.
//  4. When the logger is nil or Debug is disabled, Hop returns before building anything:
//     callers that must compute an attribute (an RV, say) guard with Enabled first, so a
//     disabled trace costs one nil check or one Enabled call and no allocation.
//  5. Every reader of the trace (the demo's tap, the scenario recorder, the dashboard's Hub)
//     reads records the same way: Scope keeps what WithAttrs and WithGroup add, Walk applies
//     the slog.Handler rules to a record (values resolved, empty keys and empty groups left
//     out, empty-key groups inlined), and Decode turns the result into a Record whose fields
//     are the attributes named by the Key constants. Tap is a slog.Handler that does just that.
package trace

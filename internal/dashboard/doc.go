// Package dashboard is the live web view of the informer pipeline that `demo run --ui` serves
// (and of the cluster's controllers that `demo serve --ui` runs):
// one embedded HTML page that draws client-go's pipeline (apiserver → Reflector →
// DeltaFIFO/RealFIFO → Indexer → processor → listeners → handlers → workqueue → workers) in
// SVG with live counters, a scrolling event log fed by the slog trace hops, and buttons for
// the simulated apiserver's faults. It has no client-go counterpart.
//
// The contract:
//
//  1. Hub is a slog.Handler. Every record at Debug or above becomes one single-line JSON
//     object (seq, time, level, msg, then the attributes: component, op, key, rv, type,
//     listener, …), nested by group as slog.JSONHandler nests them; WithAttrs and WithGroup
//     follow the slog.Handler rules (testing/slogtest passes), applied by internal/trace's
//     Scope and Walk, as every reader of the trace applies them.
//  2. Hub never blocks the logging goroutine: each subscriber has a bounded buffer, and a
//     record that does not fit is dropped and counted (Hub.Dropped, and a "dropped" message on
//     that subscriber's stream).
//  3. With no subscriber connected, Hub.Enabled is false and Handle returns at once, so the
//     trace.Enabled guards in the pipeline skip building hops: an unwatched dashboard costs
//     nothing.
//  4. New returns an http.Handler and binds nothing. GET / serves the page, with its CSS and
//     JS inline and no external asset. GET /events streams Server-Sent Events: unnamed
//     messages are trace records, "stats" messages carry Stats (at once, then every
//     StatsInterval), "dropped" messages carry this subscriber's drop count. GET /stats
//     answers Stats as JSON. POST /actions/{name} runs drop (?n=1…1000), compact,
//     close-watches, toggle-slow, create-pod or delete-pod and answers an ActionResult.
//  5. Stats.Controllers, when not empty (demo serve with its controllers), makes the page show
//     a row per controller instead of the one-informer diagram: its queue depth, hop and
//     write counts, and its last hop with the write's cause, from the trace records whose
//     component is the controller's name.
//  6. An /events stream ends, and unsubscribes, when its request's context ends: a closed tab
//     leaves no goroutine behind.
//  7. The page speaks English or Chinese: ?lang=zh or ?lang=en decides, then Options.Lang (the
//     demo's --lang), then the browser's Accept-Language, then the page's script asks
//     navigator.language. Every text of the page is a label of one table with both languages
//     (labels.go), which the page's HTML and its script both read; the answers of
//     POST /actions/{name} stay English, and the page shows them in its own language.
//  8. Errors are JSON {"error": …}: 405 with an Allow header for a wrong method on a known
//     path, 404 for an unknown path or action, 400 for a bad ?n=, 403 for a cross-origin
//     action, 501 when Options.Actions is nil, 500 when an action fails.
package dashboard

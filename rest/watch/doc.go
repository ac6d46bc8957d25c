// Package watch is the client side of a watch stream: the JSON framer that cuts the body
// into events, the decoder that turns each event into a typed object, and StreamWatcher,
// which delivers them on a channel. It mirrors client-go rest/watch/decoder.go, apimachinery
// pkg/watch/streamwatcher.go and the JSON framer of apimachinery pkg/util/framer (with the
// size limit of runtime/serializer/streaming). Import it as restwatch next to api/watch.
//
// The contract (IDs refer to the behaviour and wire specifications):
//
//  1. A body is decoded frame by frame: {"type":…,"object":…} objects, newline optional
//     (W4); objects decode through the Scheme (typed kinds) or as *api.Unstructured; an ERROR
//     event carries an *api.Status (LW-5); BOOKMARK objects keep their annotations, so the
//     initial-events-end marker is visible (LW-4).
//  2. A broken stream (a truncated frame, a frame over the size limit, 16 MiB by default,
//     bytes that are not a JSON object, an object without a kind, an unknown event type)
//     ends with exactly one ERROR event holding a 500 Status that says what was wrong, then
//     the channel closes. A clean end of the body, or a connection that drops between events,
//     just closes the channel.
//  3. Stop closes the body and cancels the request: the reader goroutine ends and the
//     connection is released; the result channel is then closed. Stop is idempotent.
//  4. With a logger, each event and the close log one Debug hop (component "listwatch", ops
//     watch-event and watch-close); with no logger or Debug disabled, tracing allocates
//     nothing.
package watch

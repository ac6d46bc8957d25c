// Package wiretest runs the simulated apiserver behind a recording middleware, so that the
// interop tests can make every assertion about what went over the wire: which requests a real
// client sent (method, path, query, Content-Type, Accept), how the server answered (status and
// the first bytes of the body), and the watch events a stream carried.
//
// The contract:
//
//  1. Start serves apiserver.New(opts).Handler() on a free 127.0.0.1 port through a Recorder
//     and closes both when the test ends: first the apiserver (which ends every watch), then
//     the HTTP server (which waits for the handlers), so no goroutine outlives the test.
//  2. The Recorder keeps one Request per HTTP request, in arrival order. Its answer (Status,
//     Response) is filled in as the handler writes it, so a long-running watch can be
//     inspected while it is still open. A Response holds at most BodyLimit bytes.
//  3. Request.Verb classifies a request like the apiserver's RequestInfo does (get, list,
//     watch, create, update, patch, delete, deletecollection; "" outside the resource tree),
//     so a test can say "exactly one watch and no list" without parsing URLs.
//  4. Request.Events decodes the recorded part of a watch stream into WireEvents (type,
//     kind, apiVersion, name, resourceVersion, annotations), without any client library.
//  5. RESTConfig returns the client-go configuration the simulator needs: JSON request
//     bodies (the simulator answers protobuf with 415) and no client-side rate limit.
package wiretest

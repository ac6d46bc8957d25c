// Package inproc is an http.RoundTripper that serves each request with an http.Handler in
// the same process, streaming the response through a pipe. It lets a REST client (and
// everything built on one: dynamic clients, informers, the cluster's controllers) talk to the
// simulated apiserver without a socket, so a whole cluster runs inside a testing/synctest
// bubble in virtual time. It has no client-go counterpart; client-go's tests use
// httptest servers for the same purpose.
//
// The contract:
//
//  1. RoundTrip runs the handler in its own goroutine and returns as soon as the handler has
//     written its header (WriteHeader, a first Write, or return), with the body still
//     streaming: a watch's frames reach the client as the handler flushes them.
//  2. Closing the response body, or ending the request's context, cancels the context the
//     handler sees, so a watch handler returns and its goroutine ends.
//  3. The request body is read by the handler as sent; the request is never shared with the
//     caller after RoundTrip returns (it is cloned).
//  4. A handler that panics answers 500 to its client instead of crashing the process; the
//     panic value is in the error text.
package inproc

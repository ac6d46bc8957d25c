package apiserver

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// Request bodies and the connection. When a handler answers an HTTP/1.x request without
// reading all of its body, net/http first tries to read and discard the rest (up to
// 256 KiB) so the connection can serve another request, and it does so with no deadline of
// its own. A client that declares a small body and sends less would then hold the answer,
// and the connection, for ever: a 401 before authentication, a 405, 413, 415 or 408.
// guardBody prevents both halves of that:
//
//   - a read deadline of BodyReadTimeout is in place from the start of the request, so any
//     read of the body, the server's own included, ends by then;
//   - an answer given while the body is not fully read says Connection: close, so net/http
//     sends it at once instead of draining first, then closes the connection (its last
//     attempt to drain runs into the deadline).
//
// An answer after the whole body was read keeps the connection for the next request.

// guardBody wraps the request body and the ResponseWriter of an HTTP/1.x request that has a
// body. It must run first in the chain, so that every answer goes through it.
func (s *endpoints) guardBody(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request) {
	if r.ProtoMajor != 1 || r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return w, r
	}
	if d := s.opts.BodyReadTimeout; d > 0 {
		// Fails only where the connection has no deadlines (a ResponseRecorder); the body
		// is then read without one, as readBody does.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
	}
	body := &trackedBody{ReadCloser: r.Body}
	r2 := *r // a shallow copy: handlers must not change the request they are given
	r2.Body = body
	return &bodyGuardWriter{ResponseWriter: w, body: body}, &r2
}

// trackedBody records whether the handler read the body to its end.
type trackedBody struct {
	io.ReadCloser
	eof bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.eof = true
	}
	return n, err
}

// bodyGuardWriter adds Connection: close to an answer that leaves part of the body unread.
// Handler code runs in one goroutine, so its fields need no lock.
type bodyGuardWriter struct {
	http.ResponseWriter
	body   *trackedBody
	headed bool
}

// beforeHeader runs before the header can go out: it is the last moment to ask for a close.
func (g *bodyGuardWriter) beforeHeader() {
	if g.headed {
		return
	}
	g.headed = true
	if !g.body.eof {
		g.ResponseWriter.Header().Set("Connection", "close")
	}
}

func (g *bodyGuardWriter) WriteHeader(code int) {
	if code >= 200 || code == http.StatusSwitchingProtocols {
		g.beforeHeader() // 1xx informational headers are not the answer
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *bodyGuardWriter) Write(b []byte) (int, error) {
	g.beforeHeader()
	return g.ResponseWriter.Write(b)
}

// drainGrace is how long net/http may drain an unread body after an answer.
const drainGrace = time.Second

// finish runs once the handler has returned. An answer that left the body unread closes the
// connection, but net/http first drains up to 256 KiB of the body, until the read deadline:
// an early 401, 403, 405 or 415 to a client that declared a body and sent part of it held
// the connection for BodyReadTimeout (a minute). The deadline moves to drainGrace from now:
// a client still sending gets its 256 KiB read (closing on unread data would reset the
// connection and could lose the answer), one that stopped is closed within the grace.
func (g *bodyGuardWriter) finish() {
	if !g.body.eof {
		_ = http.NewResponseController(g.ResponseWriter).SetReadDeadline(time.Now().Add(drainGrace))
	}
}

// FlushError flushes through to net/http and reports a failed write.
func (g *bodyGuardWriter) FlushError() error {
	g.beforeHeader()
	return http.NewResponseController(g.ResponseWriter).Flush()
}

// Flush is FlushError for callers that use http.Flusher.
func (g *bodyGuardWriter) Flush() { _ = g.FlushError() }

// Unwrap lets http.ResponseController reach the connection for deadlines.
func (g *bodyGuardWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

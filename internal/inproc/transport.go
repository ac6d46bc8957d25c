package inproc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// Transport returns a round tripper that serves every request with h in process.
func Transport(h http.Handler) http.RoundTripper { return &transport{h: h} }

type transport struct{ h http.Handler }

// RoundTrip serves req with the handler and returns once its header is written.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A request whose context has already ended is not sent, as net/http's transport does;
	// otherwise the handler could answer before the select below sees the end.
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(req.Context())
	r := req.Clone(ctx)
	if r.Body == nil {
		r.Body = http.NoBody
	}
	if r.RemoteAddr == "" {
		r.RemoteAddr = "127.0.0.1:0" // as a loopback client's
	}
	r.RequestURI = r.URL.RequestURI()
	if r.Host == "" {
		r.Host = r.URL.Host
	}
	pr, pw := io.Pipe()
	w := &responseWriter{header: http.Header{}, body: pw, ready: make(chan struct{}), req: r}
	go func() {
		defer func() {
			if v := recover(); v != nil {
				if !w.wroteHeader() {
					w.WriteHeader(http.StatusInternalServerError)
				}
				_ = pw.CloseWithError(fmt.Errorf("inproc: handler panicked: %v", v))
				return
			}
			w.commit(http.StatusOK)
			_ = pw.Close()
		}()
		t.h.ServeHTTP(w, r)
	}()
	select {
	case <-w.ready:
	case <-req.Context().Done():
		cancel()
		_ = pr.CloseWithError(req.Context().Err())
		return nil, req.Context().Err()
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", w.code, http.StatusText(w.code)),
		StatusCode:    w.code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.sent,
		Body:          &body{PipeReader: pr, cancel: cancel},
		ContentLength: -1,
		Request:       req,
	}, nil
}

// body cancels the handler's context when the client closes it (contract 2).
type body struct {
	*io.PipeReader
	cancel context.CancelFunc
}

func (b *body) Close() error {
	b.cancel()
	return b.PipeReader.Close()
}

// responseWriter is the handler's side: a header map until the first write, then a pipe.
type responseWriter struct {
	mu     sync.Mutex
	header http.Header
	sent   http.Header // the header as committed
	code   int
	ready  chan struct{}
	body   *io.PipeWriter
	req    *http.Request
}

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) wroteHeader() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sent != nil
}

// commit freezes the header and status once, and lets RoundTrip return.
func (w *responseWriter) commit(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent != nil {
		return
	}
	w.code = code
	w.sent = w.header.Clone()
	close(w.ready)
}

func (w *responseWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 {
		return // informational answers are not passed on
	}
	w.commit(code)
}

func (w *responseWriter) Write(p []byte) (int, error) {
	w.commit(http.StatusOK)
	if w.req.Method == http.MethodHead {
		return len(p), nil
	}
	return w.body.Write(p)
}

// Flush is a no-op: every Write already reaches the reader through the pipe.
func (w *responseWriter) Flush() {}

package rest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/plugin/pkg/client/auth/exec"
	"github.com/informer-lab/informer-lab/rest/internal/wire"
)

// DefaultMaxRetries mirrors the maxRetries every client-go Request starts with (rest/request.go
// NewRequest): a request that keeps getting "Retry-After" answers is sent at most 1+10 times.
const DefaultMaxRetries = 10

// Trace vocabulary of the retry hop.
const (
	opRetry      = "retry"
	attrAttempt  = "attempt"
	attrWait     = "wait"
	attrCode     = "code"
	attrErrorMsg = "error"
)

// retryConnectionDelay mirrors the artificial "Retry-After: 1" answer client-go invents for a
// retryable connection error (retryAfterResponse in rest/with_retry.go).
const retryConnectionDelay = time.Second

// withRetry mirrors withRetry in client-go rest/with_retry.go: it decides, after each attempt,
// whether the request goes again, and waits the server's Retry-After before it does. One
// withRetry serves one call of Do or Watch.
type withRetry struct {
	maxRetries int
	attempts   int
	// wait is the delay before the next attempt; set by isNextRetry, consumed by before.
	wait    time.Duration
	pending bool
	// previousErr and currentErr feed wrapPreviousError, so that the final error also tells
	// what went wrong on the attempt before it.
	previousErr, currentErr error
}

func newWithRetry(maxRetries int) *withRetry { return &withRetry{maxRetries: maxRetries} }

func (w *withRetry) track(err error) {
	if w.currentErr != nil {
		w.previousErr = w.currentErr
	}
	w.currentErr = err
}

// isNextRetry mirrors withRetry.IsNextRetry. It retries only when
//   - the attempt count stays within maxRetries, and
//   - the server answered 429 or any 5xx with a Retry-After header in whole seconds (any
//     verb: our bodies are byte slices, which client-go can resend), or
//   - retryableErr says the transport error is worth another go; client-go then acts as if
//     the server had said "500, Retry-After: 1".
//
// Like upstream it remembers only transport errors for wrapPreviousError: an HTTP answer is
// not an error of the attempt.
func (w *withRetry) isNextRetry(resp *http.Response, err error, retryableErr func(error) bool) bool {
	defer w.track(err)
	if resp == nil && err == nil {
		return false
	}
	w.attempts++
	if w.attempts > w.maxRetries {
		return false
	}
	if err != nil {
		if retryableErr == nil || !retryableErr(err) {
			return false
		}
		w.wait, w.pending = retryConnectionDelay, true
		return true
	}
	seconds, ok := checkWait(resp)
	if !ok {
		return false
	}
	w.wait, w.pending = time.Duration(seconds)*time.Second, true
	return true
}

// before mirrors withRetry.Before: a cancelled context ends the call, and a pending retry
// first waits its delay on the clock, so that tests can run in virtual time.
func (w *withRetry) before(ctx context.Context, clk clock.Clock) error {
	if err := ctx.Err(); err != nil {
		w.track(err)
		return err
	}
	if !w.pending {
		return nil
	}
	w.pending = false
	if w.wait <= 0 {
		return nil
	}
	t := clk.NewTimer(w.wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		w.track(ctx.Err())
		return ctx.Err()
	case <-t.C():
		return nil
	}
}

// wrapPreviousError mirrors withRetry.WrapPreviousError: the final error, with the text of
// the one before it when they differ. errors.Is and errors.As see only the final error, as
// upstream.
func (w *withRetry) wrapPreviousError(final error) error {
	if final == nil || w.previousErr == nil || final.Error() == w.previousErr.Error() {
		return final
	}
	prev := w.previousErr
	if ue, ok := prev.(*url.Error); ok && ue.Err != nil {
		prev = ue.Err // "Get …: EOF" would repeat the URL the final error already names
	}
	return &previousError{current: final, previous: prev}
}

// previousError mirrors wrapPreviousError in client-go rest/with_retry.go.
type previousError struct{ current, previous error }

func (e *previousError) Error() string {
	return fmt.Sprintf("%s - error from a previous attempt: %s", e.current.Error(), e.previous.Error())
}

func (e *previousError) Unwrap() error { return e.current }

// checkWait mirrors checkWait in client-go rest/with_retry.go: only 429 and 5xx answers that
// carry Retry-After are retried, after that many seconds.
func checkWait(resp *http.Response) (int, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < http.StatusInternalServerError {
		return 0, false
	}
	return retryAfterSeconds(resp)
}

// retryAfterSeconds mirrors retryAfterSeconds in client-go rest/request.go: the Retry-After
// header as whole seconds; an HTTP date or garbage counts as absent.
func retryAfterSeconds(resp *http.Response) (int, bool) {
	h := resp.Header.Get("Retry-After")
	if h == "" {
		return 0, false
	}
	i, err := strconv.Atoi(h)
	if err != nil || i < 0 {
		return 0, false
	}
	return i, true
}

// isRetryableGETError mirrors the isErrRetryableFunc of Request.request: a GET whose
// connection was reset or cut is sent again. Writes are not: they may have been applied. A
// failed exec credential plugin is not a cut connection, whatever its message says.
func isRetryableGETError(method string, err error) bool {
	if method != http.MethodGet || isTimeout(err) || exec.IsPluginError(err) {
		return false
	}
	return errors.Is(err, io.EOF) || wire.IsProbableEOF(err)
}

// isRetryableWatchError mirrors the isErrRetryableFunc of Request.Watch: a cut connection or
// a timeout while opening a watch is retried, and when retries run out the caller gets an
// empty, closed watch rather than an error, so a reflector just watches again.
func isRetryableWatchError(err error) bool {
	if exec.IsPluginError(err) {
		return false
	}
	return errors.Is(err, io.EOF) || wire.IsProbableEOF(err) || isTimeout(err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// drainAndClose mirrors readAndCloseResponseBody: a small body is read to the end so the
// connection can be reused, then closed.
func drainAndClose(resp *http.Response) {
	if resp == nil || resp.Body == nil {
		return
	}
	const maxSlurp = 2 << 10
	if resp.ContentLength <= maxSlurp {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxSlurp))
	}
	_ = resp.Body.Close()
}

// traceRetry logs the retry hop: which attempt, how long it waits and why.
func (r *Request) traceRetry(path string, w *withRetry, resp *http.Response, err error) {
	if !trace.Enabled(r.c.logger) {
		return
	}
	attrs := []slog.Attr{slog.Int(attrAttempt, w.attempts), slog.String(attrWait, w.wait.String())}
	if resp != nil {
		attrs = append(attrs, slog.Int(attrCode, resp.StatusCode))
	}
	if err != nil {
		attrs = append(attrs, slog.String(attrErrorMsg, err.Error()))
	}
	trace.Hop(r.c.logger, wire.TraceComponent, opRetry, path, "", attrs...)
}

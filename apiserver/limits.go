package apiserver

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The limits a hostile or broken client meets (docs/behaviour/wire.md §10). Each is a test in the
// hostile_*_test.go files and, where it has a size or a time, an Options field whose default
// is an exported constant (options.go): 0 takes the default and, for the timeouts and the
// query and watch caps, a negative value turns it off.
//
//  1. Start and StartTLS bind 127.0.0.1 when the address names no host ("" or ":6443"). Any
//     non-loopback address is bound as asked, with a Warn naming it (to Options.Logger, or
//     slog.Default when there is none, so the warning is never silent).
//  2. The request line and headers may take MaxHeaderBytes (1 MiB, as net/http and the real
//     server) and must arrive within ReadHeaderTimeout (10 s); a keep-alive connection idle
//     for IdleTimeout (90 s) is closed. These are net/http's: beyond MaxHeaderBytes it
//     answers 431 in plain text and a header timeout closes the connection without an
//     answer, before any handler could write a Status (client-go makes one from the code,
//     S6). There is no server-wide ReadTimeout or WriteTimeout, which would cut long watches.
//  3. A query string over MaxQueryBytes (128 KiB) is 414 with a Status whose reason is ""
//     (Kubernetes has no reason for 414) and whose message gives both sizes: "the request
//     URI is too long: the query string has N bytes, the limit is 131072". It is checked
//     after authentication, before routing.
//  4. A body over MaxBodyBytes (3 MiB) is 413 (E8): at once when Content-Length says so,
//     else after reading the cap plus one byte, so a request never holds more than the cap.
//     A body must arrive within BodyReadTimeout (60 s, enforced with a connection read
//     deadline set when the request starts): a slower one (slowloris) is 408 with reason
//     Timeout, "Timeout: the request body was not received within 1m0s (N bytes read)". Any
//     answer given before the body is read to its end (401, 403, 405, 413, 415, 408) goes out
//     at once with Connection: close, and the connection closes within BodyReadTimeout of
//     the request (conn.go), so net/http's drain of an unread body holds neither.
//  5. JSON nesting is bounded by encoding/json's depth limit (10,000): a deeper body is 400
//     in E1's shape (json parse error "… exceeded max depth"), a deeper patch 400 "invalid
//     JSON patch", so no recursion in the server goes deeper. Invalid UTF-8 inside JSON
//     strings becomes U+FFFD, as with the real decoder: in a name or label it then fails
//     validation (422), in a free-form string it is stored so; responses are valid UTF-8.
//  6. At most MaxOpenWatches (4096) watches are open at once; one more is 429 TooManyRequests,
//     "too many open watches (the limit is 4096), please try again later", with Retry-After:
//     1 and details.retryAfterSeconds 1. A watch closed for overflow or by CloseAllWatches
//     that is still writing to a client that does not read frees its place when that write
//     fails (9; watch.go, 8).
//  7. An object name in a path that cannot be a path segment, "." or ".." or one containing
//     "%", is 400 `Name parameter invalid: "..": may not be '..'` (the real registry's key
//     functions), before storage is touched; a %2F in a name splits the path, hence 404. No
//     path reaches an object outside the collection it names.
//  8. A panic in a handler is a 500 InternalError Status carrying the panic value's text and
//     no stack trace (the stack goes to Options.Logger at Error); locks are released by
//     defer, so the server goes on with its state intact.
//  9. Every write to a watch stream has a connection write deadline, WatchWriteTimeout
//     (60 s); once the watch's end is known it is also no later than timeoutSeconds plus at
//     most a second (watch_http.go). A client that takes nothing for that long has its
//     connection dropped (no ERROR can reach it), and its goroutine, queue and place are
//     freed. `make abuse` opens thousands of non-reading watches and slow bodies and shows
//     goroutines and heap back at baseline and the watch cap held.
//  10. Web pages (origin.go). A request whose Origin is not its own Host (another site or
//     port, "null") is 403 Forbidden whatever its method; kubectl, client-go and curl send
//     no Origin. On a server started with Start or StartTLS, a Host that is not an IP
//     literal, localhost, *.localhost, the host it was started on or a name of its
//     certificate is 403 (DNS rebinding); Handler served otherwise is the caller's to guard.
//     A request body without a Content-Type is 415: the real server would assume JSON, but
//     an untyped body is what a page can send without a CORS preflight. The real server
//     checks neither; it relies on authentication and RBAC.

// checkPathSegmentName refuses an object name that cannot be a path segment: "." and "..",
// or one containing "/" or "%" (sent as %2F and %25). It mirrors the key functions of the
// real generic registry (NamespaceKeyFunc, NoNamespaceKeyFunc), which answer 400
// `Name parameter invalid: "..": may not be '..'` before storage is touched. A "/" cannot
// survive our path split (a %2F in a name makes an extra segment, hence a 404), so in
// practice this catches the dot names and "%". A legacy single-object watch path is a
// field selector, not a key, and is left alone.
func checkPathSegmentName(info requestInfo) error {
	if info.name == "" || info.legacyWatch {
		return nil
	}
	var msgs []string
	switch info.name {
	case ".", "..":
		msgs = append(msgs, fmt.Sprintf("may not be '%s'", info.name))
	default:
		for _, bad := range []string{"/", "%"} {
			if strings.Contains(info.name, bad) {
				msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return api.NewBadRequest(fmt.Sprintf("Name parameter invalid: %q: %s", info.name, strings.Join(msgs, ";")))
}

// readBody reads a request body up to the limit (E8), within BodyReadTimeout. A declared
// Content-Length over the limit is refused before reading anything; a body without one is
// read only up to the limit plus one byte, so a huge body never costs more than the limit
// in memory. A client that sends its body too slowly (slowloris) gets 408 Timeout when the
// read deadline passes. The deadline is a connection deadline, in real time, set through
// http.ResponseController; on a connection that has none (an in-process ResponseRecorder)
// the body is read without one.
func (s *endpoints) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if r.ContentLength > s.opts.MaxBodyBytes {
		return nil, api.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", s.opts.MaxBodyBytes))
	}
	if d := s.opts.BodyReadTimeout; d > 0 {
		// The deadline stays after the read: once the body is read to its end net/http
		// clears it itself, and if the body is cut short, it bounds net/http's attempt to
		// drain the rest (guardBody).
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, s.opts.MaxBodyBytes+1))
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, bodyTimeout(s.opts.BodyReadTimeout, len(data))
		}
		return nil, api.NewBadRequest("unable to read the request body: " + err.Error())
	}
	if int64(len(data)) > s.opts.MaxBodyBytes {
		return nil, api.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", s.opts.MaxBodyBytes))
	}
	return data, nil
}

// bodyTimeout is the 408 of a body that did not arrive within BodyReadTimeout. The reason is
// Timeout ("the request could not be completed within the given time"), the code 408: the
// client, not the server, was slow. client-go's apierrors.IsTimeout is true for it.
func bodyTimeout(d time.Duration, got int) *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: http.StatusRequestTimeout, Reason: api.StatusReasonTimeout,
		Message: fmt.Sprintf("Timeout: the request body was not received within %s (%d bytes read)", d, got),
	}
}

// checkQueryLength is the 414 of a query string over MaxQueryBytes. Kubernetes has no
// reason for 414, so the Status has none (reason ""), as the real server's Statuses for
// codes without a reason do; the message names both sizes. A request whose line and
// headers exceed MaxHeaderBytes never gets here: net/http answers it 431 in plain text.
func (s *endpoints) checkQueryLength(r *http.Request) *api.Status {
	if max := s.opts.MaxQueryBytes; max > 0 && len(r.URL.RawQuery) > max {
		return &api.Status{
			TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   api.StatusFailure, Code: http.StatusRequestURITooLong, Reason: api.StatusReasonUnknown,
			Message: fmt.Sprintf("the request URI is too long: the query string has %d bytes, the limit is %d", len(r.URL.RawQuery), max),
		}
	}
	return nil
}

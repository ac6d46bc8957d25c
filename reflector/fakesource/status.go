package fakesource

import (
	"errors"
	"fmt"
	"net/http"
	"syscall"

	"github.com/informer-lab/informer-lab/api"
)

// ErrConnectionRefused is what a LIST or WATCH returns while the source plays an apiserver
// that is down: errors.Is(err, syscall.ECONNREFUSED) holds, as for a refused TCP dial.
var ErrConnectionRefused = fmt.Errorf("dial tcp 127.0.0.1:6443: connect: %w", syscall.ECONNREFUSED)

// The constructors below are shorthands over the api package's for the answers a source
// gives (docs/behaviour/wire.md §6); tests use them to script faults.

// NewExpired is the 410 Expired for a resourceVersion older than the history, or an expired
// continue token (docs/behaviour/wire.md L5, L12, W12).
func NewExpired(msg string) *api.Status { return api.NewResourceExpired(msg) }

// NewGone is the 410 of servers before 1.18, which said Gone instead of Expired.
func NewGone(msg string) *api.Status { return api.NewGone(msg) }

// NewTooLargeResourceVersion is the 504 for an RV the server has not reached, with the
// ResourceVersionTooLarge cause the reflector looks for (docs/behaviour/wire.md L4).
func NewTooLargeResourceVersion(rv, current int64) *api.Status {
	return api.NewTooLargeResourceVersionError(uint64(max(rv, 0)), uint64(max(current, 0)), 1)
}

// NewTooManyRequests is a 429 asking to retry after a second.
func NewTooManyRequests() *api.Status {
	return api.NewTooManyRequests("Too many requests, please try again later.", 1)
}

// NewInternalError is a 500.
func NewInternalError(msg string) *api.Status { return api.NewInternalError(errors.New(msg)) }

// NewBadRequest is a 400.
func NewBadRequest(msg string) *api.Status { return api.NewBadRequest(msg) }

// NewInvalid is a 422 with a free-text message, e.g. a server without watch-list rejecting
// sendInitialEvents (CG5).
func NewInvalid(msg string) *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure,
		Code:     http.StatusUnprocessableEntity,
		Reason:   api.StatusReasonInvalid,
		Message:  msg,
	}
}

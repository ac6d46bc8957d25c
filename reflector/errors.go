package reflector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"syscall"

	"github.com/informer-lab/informer-lab/api"
)

// errStopRequested mirrors errorStopRequested: the watch loop ended because the context did.
var errStopRequested = errors.New("stop requested")

// VeryShortWatchError mirrors cache.VeryShortWatchError in client-go tools/cache/reflector.go:
// the watch closed within a second without delivering a single event, which usually means
// the server rejected it silently. The reflector then relists after a backoff.
type VeryShortWatchError struct {
	// Name is the reflector's name.
	Name string
}

// Error mirrors VeryShortWatchError.Error.
func (e *VeryShortWatchError) Error() string {
	return fmt.Sprintf("very short watch: %s: Unexpected watch close - watch lasted less than a second and no items received", e.Name)
}

// WatchErrorHandler mirrors cache.WatchErrorHandler: called when ListAndWatch returns an error,
// before the backoff and the next attempt. It should return quickly.
type WatchErrorHandler func(r *Reflector, err error)

// WatchErrorHandlerWithContext mirrors cache.WatchErrorHandlerWithContext.
type WatchErrorHandlerWithContext func(ctx context.Context, r *Reflector, err error)

// DefaultWatchErrorHandler mirrors cache.DefaultWatchErrorHandler: a 410 is routine and
// logged at Debug, io.EOF is a normal close and not logged, an unexpected EOF is logged at
// Info, anything else at Error. It logs to the reflector's Logger, so nil stays silent.
func DefaultWatchErrorHandler(ctx context.Context, r *Reflector, err error) {
	if r == nil || r.logger == nil {
		return
	}
	var level slog.Level
	switch {
	case IsExpiredError(err):
		level = slog.LevelDebug
	case err == io.EOF:
		return
	case err == io.ErrUnexpectedEOF:
		level = slog.LevelInfo
	default:
		level = slog.LevelError
	}
	r.logger.LogAttrs(ctx, level, "reflector watch error",
		slog.String("reflector", r.name), slog.String("type", r.typeDescription), slog.Any("err", err))
}

// IsExpiredError mirrors isExpiredError in client-go tools/cache/reflector.go: a 410 with
// reason Expired, or Gone from servers older than 1.18.
func IsExpiredError(err error) bool {
	return api.IsResourceExpired(err) || api.IsGone(err)
}

// IsTooLargeResourceVersionError mirrors isTooLargeResourceVersionError: the server has not
// reached the requested resourceVersion yet. Current servers say so with the status cause
// ResourceVersionTooLarge; 1.17–1.18.5 servers only with a Timeout whose cause or message
// reads "Too large resource version".
func IsTooLargeResourceVersionError(err error) bool {
	if api.HasStatusCause(err, api.CauseTypeResourceVersionTooLarge) {
		return true
	}
	if !api.IsTimeout(err) {
		return false
	}
	var s *api.Status
	if !errors.As(err, &s) {
		return false
	}
	if s.Details != nil {
		for _, c := range s.Details.Causes {
			if c.Message == api.TooLargeResourceVersionCauseMessage {
				return true
			}
		}
	}
	return strings.Contains(s.Message, api.TooLargeResourceVersionCauseMessage)
}

// isWatchErrorRetriable mirrors isWatchErrorRetriable: a refused connection or a 429 means the
// server is busy or restarting, so the reflector waits and re-watches instead of relisting.
func isWatchErrorRetriable(err error) bool {
	return isConnectionRefused(err) || api.IsTooManyRequests(err)
}

// isConnectionRefused mirrors utilnet.IsConnectionRefused.
func isConnectionRefused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED)
}

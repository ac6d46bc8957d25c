package apiserver

import (
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// The fault API (H-7). Nothing in k8s.io/apiserver mirrors it: it plays the network, etcd
// and an overloaded server, on demand, for tests, chapters and workshops: DropNextEvents,
// CloseAllWatches, CloseNextWatches, Compact, DelayEvents, FailNext (429 with Retry-After,
// 500, 504, … as a response or a watch ERROR event) and CutNextEvent (half an event, then a
// broken connection). Over HTTP it is /debug/faults (debug_faults.go).

// DropRule drops the next Count events that match it, before they reach watchers.
type DropRule struct {
	// Count is how many matching events to drop (≥ 1).
	Count int `json:"count"`
	// Key limits the rule to one object ("namespace/name", or "name" when cluster-scoped).
	Key string `json:"key,omitempty"`
	// Type limits the rule to one event type (watch.Added, watch.Modified, watch.Deleted).
	Type watch.EventType `json:"type,omitempty"`
	// WatcherID limits the rule to one watcher (see Watchers); 0 drops for every watcher.
	WatcherID uint64 `json:"watcherID,omitempty"`
}

// FailRule makes the next Count requests of a verb fail with Code.
type FailRule struct {
	// Verb is get, list, watch, create, update, patch, delete or deletecollection; "" is any.
	Verb string `json:"verb,omitempty"`
	// Resource limits the rule to one resource ("pods", "deployments.apps"); "" is any.
	Resource string `json:"resource,omitempty"`
	// Count is how many requests fail (≥ 1).
	Count int `json:"count"`
	// Code is the HTTP code: 429 (TooManyRequests, with Retry-After), 500 (InternalError),
	// 503, 504 (Timeout) or any other error code (a generic Status).
	Code int `json:"code"`
	// RetryAfterSeconds is sent in details and the Retry-After header; 429 defaults to 1.
	// Note that client-go silently retries a 5xx or 429 that carries Retry-After (R9).
	RetryAfterSeconds int `json:"retryAfterSeconds,omitempty"`
	// Message overrides the default message.
	Message string `json:"message,omitempty"`
	// AsWatchEvent makes a failing watch open normally (200) and send the Status as one ERROR
	// event before closing, as the watch cache does, instead of failing the request.
	AsWatchEvent bool `json:"asWatchEvent,omitempty"`
}

type faults struct {
	mu          sync.Mutex
	drops       []*DropRule
	fails       []*FailRule
	delay       time.Duration
	cuts        map[uint64]int // watcher ID (0: any) → streams to cut
	shortWatchN int
	webhooks    admission.WebhookFaults // webhook-timeout: shared with the webhook plugins
	metrics     []SimulatedMetric       // set-metric (simulated_metrics.go)
	// eventArmed says a drop rule, a cut or a delay is pending, so the per-event checks
	// (asked for every event and watcher) take the lock only when one may apply.
	eventArmed atomic.Bool
}

// rearm recomputes eventArmed; callers hold f.mu and call it after changing drops, cuts or
// delay.
func (f *faults) rearm() {
	armed := len(f.drops) > 0 || f.delay > 0
	for _, n := range f.cuts {
		armed = armed || n > 0
	}
	f.eventArmed.Store(armed)
}

// DropEvent is the storage.Hooks seam: whether ev must be dropped for the watcher id (0:
// rules for all watchers),
// consuming one unit of the first matching rule. The storage calls it under its lock.
func (f *faults) DropEvent(ev *event, id uint64) bool {
	if !f.eventArmed.Load() {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.rearm()
	for i, r := range f.drops {
		if r.WatcherID != id || (r.Key != "" && r.Key != ev.Obj.Key) || (r.Type != "" && r.Type != ev.Type) {
			continue
		}
		r.Count--
		if r.Count <= 0 {
			f.drops = append(f.drops[:i], f.drops[i+1:]...)
		}
		return true
	}
	return false
}

// DropNextEvents installs a DropRule: the matching events are written to storage and the
// history as usual but never reach the chosen watchers, as if the network lost them. A
// client then misses a change until it relists (chapter 12: tombstones).
func (s *Server) DropNextEvents(r DropRule) {
	if r.Count <= 0 {
		return
	}
	rule := r // the server counts rule down under its lock; r stays as given, for the trace
	s.faults.mu.Lock()
	s.faults.drops = append(s.faults.drops, &rule)
	s.faults.rearm()
	s.faults.mu.Unlock()
	trace.Hop(s.log, "apiserver", "fault", r.Key, "", slogString("fault", "drop-next"), slog.Int("count", r.Count))
}

// FailNext installs a FailRule.
func (s *Server) FailNext(r FailRule) {
	if r.Count <= 0 {
		return
	}
	rule := r // the server counts rule down under its lock; r stays as given, for the trace
	s.faults.mu.Lock()
	s.faults.fails = append(s.faults.fails, &rule)
	s.faults.mu.Unlock()
	trace.Hop(s.log, "apiserver", "fault", r.Resource, "", slogString("fault", "fail-next"),
		slogString("verb", r.Verb), slog.Int("code", r.Code), slog.Int("count", r.Count))
}

// DelayEvents makes every watcher wait d before sending each live event (0 turns it off).
// Writers are not slowed: the events queue in each watcher's buffer.
func (s *Server) DelayEvents(d time.Duration) {
	s.faults.mu.Lock()
	s.faults.delay = d
	s.faults.rearm()
	s.faults.mu.Unlock()
	trace.Hop(s.log, "apiserver", "fault", "", "", slogString("fault", "delay"), slog.Duration("delay", d))
}

// CutNextEvent makes the next event sent to watcher id (0: to any watcher) break its stream
// in the middle: half of the JSON line is written and flushed, then the connection is
// dropped without the final chunk. The client sees a truncated event and an unexpected EOF.
// An in-process watch just ends without the event.
func (s *Server) CutNextEvent(id uint64) {
	s.faults.mu.Lock()
	if s.faults.cuts == nil {
		s.faults.cuts = map[uint64]int{}
	}
	s.faults.cuts[id]++
	s.faults.rearm()
	s.faults.mu.Unlock()
	trace.Hop(s.log, "apiserver", "fault", "", "", slogString("fault", "cut-next"), slog.Uint64("watcher", id))
}

// CloseNextWatches makes the next n watches end at once without any event: the "very short
// watch" a reflector reports and recovers from (CG7, H-7).
func (s *Server) CloseNextWatches(n int) {
	s.faults.mu.Lock()
	s.faults.shortWatchN += n
	s.faults.mu.Unlock()
	trace.Hop(s.log, "apiserver", "fault", "", "", slogString("fault", "close-next-watches"), slog.Int("count", n))
}

// ClearFaults removes every pending fault rule and the event delay.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.drops, s.faults.fails, s.faults.delay, s.faults.cuts, s.faults.shortWatchN = nil, nil, 0, nil, 0
	s.faults.rearm()
	s.faults.webhooks.Clear()
}

// TimeoutNextWebhooks makes the next n admission webhook calls behave as a webhook that
// never answers: each fails when its timeoutSeconds end, with the real server's "context
// deadline exceeded", and its failurePolicy decides the request.
func (s *Server) TimeoutNextWebhooks(n int) {
	s.faults.webhooks.Add(n)
	trace.Hop(s.log, "apiserver", "fault", "", "", slogString("fault", "webhook-timeout"), slog.Int("count", n))
}

func (f *faults) takeCut(id uint64) bool {
	if !f.eventArmed.Load() {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.rearm()
	for _, k := range []uint64{id, 0} {
		if f.cuts[k] > 0 {
			f.cuts[k]--
			return true
		}
	}
	return false
}

func (f *faults) takeShortWatch() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shortWatchN > 0 {
		f.shortWatchN--
		return true
	}
	return false
}

func (f *faults) delayValue() time.Duration {
	if !f.eventArmed.Load() {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.delay
}

// failFor consumes the first rule matching verb on res and returns its Status. A rule with
// AsWatchEvent matches only when asEvent is set, and the other way round.
func (f *faults) failFor(verb string, res *resource, asEvent bool) *api.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.fails {
		if (r.Verb != "" && r.Verb != verb) || (r.Resource != "" && !matchesResource(res, r.Resource)) || r.AsWatchEvent != asEvent {
			continue
		}
		r.Count--
		if r.Count <= 0 {
			f.fails = append(f.fails[:i], f.fails[i+1:]...)
		}
		return failStatus(r, verb, res)
	}
	return nil
}

func matchesResource(res *resource, name string) bool {
	return name == res.Info.Resource || name == res.Info.GroupResource().String()
}

func failStatus(r *FailRule, verb string, res *resource) *api.Status {
	msg := r.Message
	gr := res.Info.GroupResource()
	var st *api.Status
	switch r.Code {
	case http.StatusTooManyRequests:
		ra := r.RetryAfterSeconds
		if ra <= 0 {
			ra = 1
		}
		if msg == "" {
			msg = "the server has received too many requests and has asked us to try again later"
		}
		return api.NewTooManyRequests(msg, ra)
	case http.StatusInternalServerError:
		if msg == "" {
			msg = fmt.Sprintf("injected failure of %s %s", verb, gr)
		}
		st = api.NewInternalError(fmt.Errorf("%s", msg))
	case http.StatusGatewayTimeout:
		if msg == "" {
			msg = fmt.Sprintf("request did not complete within the allotted timeout (injected, %s %s)", verb, gr)
		}
		st = api.NewTimeoutError(msg, r.RetryAfterSeconds)
	case http.StatusServiceUnavailable:
		if msg == "" {
			msg = "the server is currently unable to handle the request"
		}
		st = api.NewServiceUnavailable(msg)
	default:
		st = api.NewGenericServerResponse(r.Code, verb, gr, "", msg, r.RetryAfterSeconds, false)
		if msg != "" {
			st.Message = msg
		}
	}
	if r.RetryAfterSeconds > 0 {
		if st.Details == nil {
			st.Details = &api.StatusDetails{}
		}
		st.Details.RetryAfterSeconds = int32(r.RetryAfterSeconds)
	} else if st.Details != nil {
		st.Details.RetryAfterSeconds = 0
	}
	return st
}

// checkFail is the request-side hook: it counts nothing and returns the injected failure.
func (s *endpoints) checkFail(verb string, res *resource) error {
	if st := s.faults.failFor(verb, res, false); st != nil {
		trace.Hop(s.log, "apiserver", "fault", res.Info.Resource, strconv.FormatUint(s.store.ResourceVersion(), 10),
			slogString("fault", "fail"), slogString("verb", verb), slog.Int("code", int(st.Code)))
		return st
	}
	return nil
}

// watchError is the AsWatchEvent variant of checkFail.
func (f *faults) watchError(res *resource) *api.Status { return f.failFor("watch", res, true) }

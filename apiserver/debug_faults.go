package apiserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// /debug/faults (Options.DebugFaults): the fault API of faults.go as JSON over HTTP, so a
// workshop instructor can break things with curl while the class watches an informer.
// k8s.io/apiserver has nothing like it; it sits where kube-apiserver keeps its own /debug
// handlers (pprof, flags).
//
//	GET  /debug/faults     → 200 FaultState
//	POST /debug/faults     → one action (a JSON object, see faultAction), then 200 FaultState
//	DELETE /debug/faults   → the "clear" action
//
// A POST body must be sent as application/json (curl -H 'Content-Type: application/json'
// -d '{…}'); any other type, or none, is 415, because a web page can send those to another
// site without a CORS preflight. The body is exactly one JSON object with the members of
// faultAction, each within its range (counts and retryAfterSeconds at most 2147483647),
// with nothing after it but white space. A bad body is 400 with a Status naming the member.
// The fault API is behind the same authentication as everything else.
//
// From a shell, against `demo serve` on its default port:
//
//	curl -s localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"drop-next-events","count":1}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"drop-next-events","key":"default/web","type":"DELETED"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"fail-next","verb":"list","resource":"pods","count":3,"code":500}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"fail-next","verb":"watch","code":410,"asWatchEvent":true}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"delay-events","delay":"2s"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"close-all-watches"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"close-next-watches","count":1}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"cut-next-event"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"compact"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"compact","resourceVersion":12}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"reset-request-counts"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"webhook-timeout","count":1}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"node-failure","node":"sim-node-1","duration":"10m"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"set-metric","namespace":"default","metric":"cpu","utilization":90}' localhost:6443/debug/faults
//	curl -s -X DELETE localhost:6443/debug/faults
//
// With StartTLS and a token, use https and add --cacert ca.crt -H "Authorization: Bearer
// $TOKEN". Every POST needs -H 'Content-Type: application/json': curl -d alone sends a form,
// which is 415.

// FaultState is what /debug/faults shows: where the store is, who is watching, which faults
// are pending and how many requests have been served. It has no client-go counterpart.
type FaultState struct {
	ResourceVersion       uint64         `json:"resourceVersion"`
	OldestResourceVersion uint64         `json:"oldestResourceVersion"`
	Watchers              []WatcherInfo  `json:"watchers"`
	Drops                 []DropRule     `json:"drops"`
	Fails                 []FailRule     `json:"fails"`
	EventDelay            string         `json:"eventDelay"`
	CutNextEvents         []CutRule      `json:"cutNextEvents"`
	CloseNextWatches      int            `json:"closeNextWatches"`
	RequestCounts         []RequestCount `json:"requestCounts"`
	// WebhookTimeouts is how many webhook calls are still to time out (webhook-timeout).
	WebhookTimeouts int `json:"webhookTimeouts"`
}

// CutRule is a pending CutNextEvent: the next Count events to watcher WatcherID (0: any) break
// their stream. Like the whole fault API, it has no client-go counterpart.
type CutRule struct {
	WatcherID uint64 `json:"watcherID"`
	Count     int    `json:"count"`
}

// RequestCount is one entry of RequestCounts, for JSON (no client-go counterpart; the real
// server's apiserver_request_total metric counts the same thing).
type RequestCount struct {
	Verb     string `json:"verb"`
	Resource string `json:"resource"`
	Count    int    `json:"count"`
}

// Faults returns a snapshot of the store's revisions, the open watches, the pending faults
// and the request counts: what GET /debug/faults shows. No client-go counterpart.
func (s *Server) Faults() FaultState {
	st := FaultState{
		ResourceVersion:       s.ResourceVersion(),
		OldestResourceVersion: s.OldestResourceVersion(),
		Watchers:              s.Watchers(),
		Drops:                 []DropRule{},
		Fails:                 []FailRule{},
		CutNextEvents:         []CutRule{},
		RequestCounts:         []RequestCount{},
	}
	f := &s.faults
	st.WebhookTimeouts = f.webhooks.Pending()
	f.mu.Lock()
	for _, r := range f.drops {
		st.Drops = append(st.Drops, *r)
	}
	for _, r := range f.fails {
		st.Fails = append(st.Fails, *r)
	}
	st.EventDelay = f.delay.String()
	for id, n := range f.cuts {
		if n > 0 {
			st.CutNextEvents = append(st.CutNextEvents, CutRule{WatcherID: id, Count: n})
		}
	}
	st.CloseNextWatches = f.shortWatchN
	f.mu.Unlock()
	slices.SortFunc(st.CutNextEvents, func(a, b CutRule) int { return cmp.Compare(a.WatcherID, b.WatcherID) })
	for k, n := range s.RequestCounts() {
		st.RequestCounts = append(st.RequestCounts, RequestCount{Verb: k.Verb, Resource: k.Resource, Count: n})
	}
	slices.SortFunc(st.RequestCounts, func(a, b RequestCount) int {
		return strings.Compare(a.Resource+" "+a.Verb, b.Resource+" "+b.Verb)
	})
	return st
}

// faultAction is the body of a POST to /debug/faults. Action picks the fault; the other
// members are its parameters, and members that do not belong to the action are ignored.
//
//	{"action":"drop-next-events","count":1,"key":"default/web","type":"MODIFIED","watcherID":0}
//	{"action":"fail-next","verb":"list","resource":"pods","count":2,"code":500}
//	{"action":"fail-next","verb":"watch","code":410,"asWatchEvent":true}
//	{"action":"delay-events","delay":"2s"}                       ("0s" turns it off)
//	{"action":"close-all-watches"}
//	{"action":"close-next-watches","count":1}
//	{"action":"cut-next-event","watcherID":0}
//	{"action":"compact"}                                          (everything up to now)
//	{"action":"compact","resourceVersion":12}
//	{"action":"clear"}                                            (ClearFaults)
//	{"action":"reset-request-counts"}
//	{"action":"node-failure","node":"sim-node-1","duration":"10m"}   ("0s" ends it)
//	{"action":"set-metric","namespace":"default","metric":"cpu","utilization":90}
//	{"action":"set-metric","namespace":"default","pod":"web-1","metric":"cpu","value":"250m"}
//	{"action":"clear-metrics"}
type faultAction struct {
	Action            string          `json:"action"`
	Count             *int            `json:"count"`
	Key               string          `json:"key"`
	Type              watch.EventType `json:"type"`
	WatcherID         uint64          `json:"watcherID"`
	Verb              string          `json:"verb"`
	Resource          string          `json:"resource"`
	Code              int             `json:"code"`
	RetryAfterSeconds int             `json:"retryAfterSeconds"`
	Message           string          `json:"message"`
	AsWatchEvent      bool            `json:"asWatchEvent"`
	Delay             string          `json:"delay"`
	ResourceVersion   *uint64         `json:"resourceVersion"`
	Node              string          `json:"node"`
	Duration          string          `json:"duration"`
	// set-metric (simulated_metrics.go)
	Namespace   string `json:"namespace"`
	Pod         string `json:"pod"`
	Metric      string `json:"metric"`
	Utilization *int64 `json:"utilization"`
	Value       string `json:"value"`
}

var faultActions = []string{"drop-next-events", "fail-next", "delay-events", "close-all-watches",
	"close-next-watches", "cut-next-event", "compact", "clear", "reset-request-counts", "webhook-timeout",
	"node-failure", "set-metric", "clear-metrics"}

var faultVerbs = []string{"", "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}

// maxFaultInt bounds every count and retryAfterSeconds: a Status carries retryAfterSeconds
// as an int32, and pending counts are added up, so larger values would wrap.
const maxFaultInt = math.MaxInt32

// count returns the action's count, 1 when absent; it must be from 1 to maxFaultInt.
func (a *faultAction) count() (int, error) {
	if a.Count == nil {
		return 1, nil
	}
	if *a.Count < 1 {
		return 0, fmt.Errorf("count must be at least 1, got %d", *a.Count)
	}
	if *a.Count > maxFaultInt {
		return 0, fmt.Errorf("count must be at most %d, got %d", maxFaultInt, *a.Count)
	}
	return *a.Count, nil
}

// applyFault performs one action. Errors are 400s naming the bad member.
func (s debugFaults) applyFault(a faultAction) error {
	bad := func(format string, args ...any) error {
		return api.NewBadRequest(fmt.Sprintf("%s: ", a.Action) + fmt.Sprintf(format, args...))
	}
	switch a.Action {
	case "drop-next-events":
		n, err := a.count()
		if err != nil {
			return bad("%v", err)
		}
		switch a.Type {
		case "", watch.Added, watch.Modified, watch.Deleted:
		default:
			return bad("type must be ADDED, MODIFIED, DELETED or empty, got %q", a.Type)
		}
		s.DropNextEvents(DropRule{Count: n, Key: a.Key, Type: a.Type, WatcherID: a.WatcherID})
	case "fail-next":
		n, err := a.count()
		if err != nil {
			return bad("%v", err)
		}
		if !slices.Contains(faultVerbs, a.Verb) {
			return bad("verb must be one of %s or empty, got %q", strings.Join(faultVerbs[1:], ", "), a.Verb)
		}
		if a.Code == 0 {
			a.Code = http.StatusInternalServerError
		}
		if a.Code < 400 || a.Code > 599 {
			return bad("code must be an HTTP error code (400–599), got %d", a.Code)
		}
		if a.RetryAfterSeconds < 0 {
			return bad("retryAfterSeconds must not be negative")
		}
		if a.RetryAfterSeconds > maxFaultInt {
			return bad("retryAfterSeconds must be at most %d, got %d", maxFaultInt, a.RetryAfterSeconds)
		}
		if a.Resource != "" && !s.servesResource(a.Resource) {
			return bad("resource %q is not served (use the plural, e.g. pods or deployments.apps)", a.Resource)
		}
		s.FailNext(FailRule{Verb: a.Verb, Resource: a.Resource, Count: n, Code: a.Code,
			RetryAfterSeconds: a.RetryAfterSeconds, Message: a.Message, AsWatchEvent: a.AsWatchEvent})
	case "delay-events":
		d, err := time.ParseDuration(a.Delay)
		if err != nil || d < 0 {
			return bad("delay must be a non-negative duration such as \"2s\" or \"0s\", got %q", a.Delay)
		}
		s.DelayEvents(d)
	case "close-all-watches":
		s.CloseAllWatches()
	case "close-next-watches":
		n, err := a.count()
		if err != nil {
			return bad("%v", err)
		}
		s.CloseNextWatches(n)
	case "cut-next-event":
		s.CutNextEvent(a.WatcherID)
	case "compact":
		if a.ResourceVersion == nil {
			s.CompactAll()
		} else {
			s.Compact(*a.ResourceVersion)
		}
	case "clear":
		s.ClearFaults()
	case "reset-request-counts":
		s.ResetRequestCounts()
	case "webhook-timeout":
		n, err := a.count()
		if err != nil {
			return bad("%v", err)
		}
		s.TimeoutNextWebhooks(n)
	case "node-failure":
		d, err := time.ParseDuration(a.Duration)
		if err != nil || d < 0 {
			return bad("duration must be a non-negative duration such as \"10m\" or \"0s\", got %q", a.Duration)
		}
		if a.Node == "" {
			return bad("node is required")
		}
		return s.FailNode(context.Background(), a.Node, d)
	case "set-metric":
		if err := s.SetMetric(SimulatedMetric{Namespace: a.Namespace, Pod: a.Pod, Metric: a.Metric, Utilization: a.Utilization, Value: a.Value}); err != nil {
			return bad("%v", err)
		}
	case "clear-metrics":
		s.faults.clearMetrics()
		trace.Hop(s.log, "apiserver", "fault", "", "", slogString("fault", "clear-metrics"))
	default:
		return api.NewBadRequest(fmt.Sprintf("unknown action %q: expected one of %s", a.Action, strings.Join(faultActions, ", ")))
	}
	return nil
}

// servesResource reports whether a FailRule's resource can ever match: a plural, or
// "plural.group".
func (s debugFaults) servesResource(name string) bool {
	for _, ri := range s.Resources() {
		if name == ri.Resource || name == ri.GroupResource().String() {
			return true
		}
	}
	return false
}

// serveDebugFaults is the /debug/faults handler.
func (s debugFaults) serveDebugFaults(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodDelete:
		s.ClearFaults()
	case http.MethodPost:
		if !isJSONType(r.Header.Get("Content-Type")) {
			writeError(w, api.NewUnsupportedMediaType([]string{"application/json"}))
			return
		}
		body, err := s.ep.readBody(w, r)
		if err != nil {
			writeError(w, err)
			return
		}
		a, err := decodeFaultAction(body)
		if err != nil {
			writeError(w, api.NewBadRequest("the body must be one JSON object such as {\"action\":\"compact\"}: "+err.Error()))
			return
		}
		if err := s.applyFault(a); err != nil {
			writeError(w, err)
			return
		}
	default:
		writeError(w, api.NewMethodNotAllowed())
		return
	}
	data, err := json.MarshalIndent(s.Faults(), "", "  ")
	if err != nil {
		writeError(w, api.NewInternalError(err))
		return
	}
	writeRaw(w, http.StatusOK, append(data, '\n'))
}

// decodeFaultAction reads exactly one JSON object of known members; anything after it but
// white space is refused, not ignored. A member of the wrong type names itself.
func decodeFaultAction(body []byte) (faultAction, error) {
	var a faultAction
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return a, fmt.Errorf("%s must be %s, got %s", typeErr.Field, jsonKind(typeErr.Type), typeErr.Value)
		}
		return a, err
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return a, fmt.Errorf("unexpected data after the JSON object (at byte %d)", end)
	}
	return a, nil
}

// jsonKind describes what a member of type t holds, for an error message.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	}
	return t.String()
}

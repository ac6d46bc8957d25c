package wiretest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// DefaultBodyLimit is how many bytes of each answer a Recorder keeps unless told otherwise:
// enough for the test fixtures' lists and watch streams, small enough to record a benchmark.
const DefaultBodyLimit = 1 << 20

// Request is one HTTP request as it went over the wire, with the start of its answer. It
// plays the part of an audit event (k8s.io/apiserver pkg/apis/audit Event); client-go has
// no counterpart.
type Request struct {
	// Seq numbers the requests from 0 in arrival order.
	Seq         int
	Method      string
	Path        string
	Query       url.Values
	ContentType string
	Accept      string
	// Status is the HTTP status code, 0 while the header has not been written.
	Status int
	// Response holds the first bytes of the answer (at most the Recorder's BodyLimit).
	Response []byte
	// Done is set once the handler has returned.
	Done bool
}

// Recorder is an http.Handler middleware that keeps a Request per request it passes on. It
// is safe for concurrent use; Requests returns copies, so a test may read them while the
// server is still writing.
type Recorder struct {
	// BodyLimit caps the bytes kept per answer; 0 means DefaultBodyLimit, a negative value
	// keeps none (for benchmarks).
	BodyLimit int

	mu   sync.Mutex
	reqs []*Request
}

// Wrap returns next behind the recorder.
func (rec *Recorder) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e := &Request{
			Method:      r.Method,
			Path:        r.URL.Path,
			Query:       r.URL.Query(),
			ContentType: r.Header.Get("Content-Type"),
			Accept:      r.Header.Get("Accept"),
		}
		rec.mu.Lock()
		e.Seq = len(rec.reqs)
		rec.reqs = append(rec.reqs, e)
		rec.mu.Unlock()
		rw := &recordingWriter{ResponseWriter: w, rec: rec, e: e}
		defer func() {
			rec.mu.Lock()
			e.Done = true
			rec.mu.Unlock()
		}()
		next.ServeHTTP(rw, r)
	})
}

// Requests returns a copy of every request recorded so far, oldest first.
func (rec *Recorder) Requests() []Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := make([]Request, len(rec.reqs))
	for i, e := range rec.reqs {
		out[i] = *e
		out[i].Query = cloneValues(e.Query)
		out[i].Response = bytes.Clone(e.Response)
	}
	return out
}

// Matching returns the recorded requests for which keep is true, oldest first.
func (rec *Recorder) Matching(keep func(Request) bool) []Request {
	var out []Request
	for _, r := range rec.Requests() {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// ResourceRequests returns the recorded requests on resource (e.g. "pods"), oldest first.
func (rec *Recorder) ResourceRequests(resource string) []Request {
	return rec.Matching(func(r Request) bool { return r.Resource() == resource })
}

// Reset forgets every request recorded so far.
func (rec *Recorder) Reset() {
	rec.mu.Lock()
	rec.reqs = nil
	rec.mu.Unlock()
}

func (rec *Recorder) limit() int {
	switch {
	case rec.BodyLimit < 0:
		return 0
	case rec.BodyLimit == 0:
		return DefaultBodyLimit
	}
	return rec.BodyLimit
}

func cloneValues(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// recordingWriter copies the status and the first bytes of the body into its Request. It
// passes Flush on, because watches flush after every event (W3), and exposes the wrapped
// writer for http.ResponseController.
type recordingWriter struct {
	http.ResponseWriter
	rec *Recorder
	e   *Request
}

func (w *recordingWriter) WriteHeader(code int) {
	w.rec.mu.Lock()
	if w.e.Status == 0 {
		w.e.Status = code
	}
	w.rec.mu.Unlock()
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	w.rec.mu.Lock()
	if w.e.Status == 0 {
		w.e.Status = http.StatusOK
	}
	if room := w.rec.limit() - len(w.e.Response); room > 0 {
		w.e.Response = append(w.e.Response, b[:min(room, len(b))]...)
	}
	w.rec.mu.Unlock()
	return w.ResponseWriter.Write(b)
}

func (w *recordingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Resource returns the resource a request addressed ("pods", "namespaces",
// "deployments.apps"), or "" for a path outside /api and /apis.
func (r Request) Resource() string {
	res, _, _ := r.parse()
	return res
}

// Name returns the object name in the path, "" for a collection.
func (r Request) Name() string {
	_, name, _ := r.parse()
	return name
}

// IsWatch reports whether the request asked for a watch.
func (r Request) IsWatch() bool {
	_, _, legacyWatch := r.parse()
	w := r.Query.Get("watch")
	return legacyWatch || w == "true" || w == "1"
}

// Verb classifies the request as the apiserver's RequestInfo does: get, list, watch, create,
// update, patch, delete or deletecollection; "" outside the resource tree.
func (r Request) Verb() string {
	res, name, _ := r.parse()
	if res == "" {
		return ""
	}
	switch r.Method {
	case http.MethodGet:
		switch {
		case r.IsWatch():
			return "watch"
		case name == "":
			return "list"
		}
		return "get"
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		if name == "" {
			return "deletecollection"
		}
		return "delete"
	}
	return ""
}

// parse splits /api/v1/[watch/][namespaces/{ns}/]{resource}[/{name}[/{sub}]] and its /apis
// form (U1–U4).
func (r Request) parse() (resource, name string, legacyWatch bool) {
	var rest, group string
	switch {
	case strings.HasPrefix(r.Path, "/api/v1/"):
		rest = r.Path[len("/api/v1/"):]
	case strings.HasPrefix(r.Path, "/apis/"):
		parts := strings.SplitN(r.Path[len("/apis/"):], "/", 3)
		if len(parts) < 3 {
			return "", "", false
		}
		group, rest = parts[0], parts[2]
	default:
		return "", "", false
	}
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if segs[0] == "watch" {
		legacyWatch, segs = true, segs[1:]
	}
	if len(segs) >= 3 && segs[0] == "namespaces" {
		segs = segs[2:]
	}
	if len(segs) == 0 || segs[0] == "" {
		return "", "", legacyWatch
	}
	resource = segs[0]
	if group != "" {
		resource += "." + group
	}
	if len(segs) > 1 {
		name = segs[1]
	}
	return resource, name, legacyWatch
}

// WireEvent is one watch event as it was framed on the wire (W3, W4).
type WireEvent struct {
	Type            string
	Kind            string
	APIVersion      string
	Name            string
	Namespace       string
	ResourceVersion string
	Labels          map[string]string
	Annotations     map[string]string
	// Reason and Code are set on ERROR events, whose object is a Status.
	Reason string
	Code   int
}

// Events decodes the recorded part of a watch answer into its events. A frame cut by the body
// limit or by a dropped connection is left out.
func (r Request) Events() []WireEvent {
	var out []WireEvent
	sc := bufio.NewScanner(bytes.NewReader(r.Response))
	sc.Buffer(make([]byte, 0, 64*1024), DefaultBodyLimit)
	for sc.Scan() {
		var frame struct {
			Type   string `json:"type"`
			Object struct {
				Kind       string `json:"kind"`
				APIVersion string `json:"apiVersion"`
				Metadata   struct {
					Name            string            `json:"name"`
					Namespace       string            `json:"namespace"`
					ResourceVersion string            `json:"resourceVersion"`
					Labels          map[string]string `json:"labels"`
					Annotations     map[string]string `json:"annotations"`
				} `json:"metadata"`
				Reason string `json:"reason"`
				Code   int    `json:"code"`
			} `json:"object"`
		}
		if json.Unmarshal(sc.Bytes(), &frame) != nil || frame.Type == "" {
			continue
		}
		o := frame.Object
		out = append(out, WireEvent{
			Type: frame.Type, Kind: o.Kind, APIVersion: o.APIVersion,
			Name: o.Metadata.Name, Namespace: o.Metadata.Namespace,
			ResourceVersion: o.Metadata.ResourceVersion,
			Labels:          o.Metadata.Labels, Annotations: o.Metadata.Annotations,
			Reason: o.Reason, Code: o.Code,
		})
	}
	return out
}

// StatusReason decodes the reason of a failure Status answer ("" when the answer is not one).
func (r Request) StatusReason() string {
	var st struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
	}
	if json.Unmarshal(r.Response, &st) != nil || st.Kind != "Status" {
		return ""
	}
	return st.Reason
}

// Verbs returns the Verb of each request, in order, for asserting a request sequence.
func Verbs(reqs []Request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Verb()
	}
	return out
}

// EventTypes returns the Type of each wire event, in order.
func EventTypes(evs []WireEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

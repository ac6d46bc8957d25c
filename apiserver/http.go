package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
)

// The HTTP front: the filter chain (guardBody, authentication, the browser and query checks,
// panic recovery), routing and the response writers. Every failure is a Status with the
// code, reason and message of docs/behaviour/wire.md §6 and §10 (writeStatus, S1); a panic in a handler is
// a 500 Status without a stack trace and the server goes on (limits.go, 8).

// requestInfo is what the path says (apiserver's request.RequestInfo; U1–U7).
type requestInfo struct {
	res          *resource
	namespace    string
	hasNamespace bool // the path had /namespaces/{ns}/ before the resource
	name         string
	subresource  string
	subpath      string // what follows a proxy subresource: …/proxy/{subpath}
	legacyWatch  bool
	verb         string
	out          negotiation.Output // the response shape the Accept header asked for
	include      string             // includeObject of a Table request
	conv         *conversion        // a built-in asked for at a version it is not stored at
	version      string             // a custom resource's version, as the path names it
}

// buildHandler assembles the filter chain: authentication, the browser and query checks,
// impersonation and authorization, panic recovery, then routing.
func (s *endpoints) buildHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w, r = s.guardBody(w, r) // first, so that every answer is sent without waiting for the body
		if g, ok := w.(*bodyGuardWriter); ok {
			defer g.finish()
		}
		if err := s.life.begin(); err != nil {
			writeStatus(w, err.(*api.Status))
			return
		}
		defer s.life.wg.Done()
		user, st := s.authenticate(r)
		if st != nil {
			writeStatus(w, st)
			return
		}
		if st := s.checkBrowser(r); st != nil {
			writeStatus(w, st)
			return
		}
		if st := s.checkQueryLength(r); st != nil {
			writeStatus(w, st)
			return
		}
		if r, st = s.authorize(r, user); st != nil {
			writeStatus(w, st)
			return
		}
		rw := &responseWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p) // the cut-stream fault: let net/http drop the connection
				}
				if s.log != nil {
					s.log.Error("apiserver: handler panic", "panic", p, "stack", string(debug.Stack()))
				}
				if !rw.wrote {
					// No stack trace goes to the client.
					writeStatus(rw, api.NewInternalError(fmt.Errorf("the server has encountered an unexpected error: %v", p)))
				}
			}
		}()
		s.route(rw, r)
	})
}

// responseWriter remembers whether the header went out, so a panic after it is not answered
// twice. It passes Flush through for watches (W20).
type responseWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *responseWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *responseWriter) Flush() { _ = w.FlushError() }

// FlushError is Flush reporting a failed write, so a watch notices a client that stopped
// reading (http.ResponseController.Flush finds it).
func (w *responseWriter) FlushError() error {
	err := http.NewResponseController(w.ResponseWriter).Flush()
	if !errors.Is(err, http.ErrNotSupported) {
		w.wrote = true
	}
	return err
}

func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		code, data = http.StatusInternalServerError, []byte(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"encoding failed","code":500}`)
	}
	writeRaw(w, code, append(data, '\n'))
}

func writeRaw(w http.ResponseWriter, code int, data []byte) {
	writeRawType(w, code, "application/json", data)
}

func writeRawType(w http.ResponseWriter, code int, contentType string, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(code)
	_, _ = w.Write(data)
}

// route parses the path (U1–U7) and dispatches by verb.
func (s *endpoints) route(w http.ResponseWriter, r *http.Request) {
	var rest string
	var gv string
	switch p := r.URL.Path; {
	case strings.HasPrefix(p, "/api/v1/"):
		gv, rest = "/v1", p[len("/api/v1/"):]
	case strings.HasPrefix(p, "/apis/"):
		parts := strings.SplitN(p[len("/apis/"):], "/", 3)
		if len(parts) < 3 {
			s.serveNonResource(w, r)
			return
		}
		gv, rest = parts[0]+"/"+parts[1], parts[2]
	default:
		s.serveNonResource(w, r)
		return
	}
	g, v, _ := strings.Cut(gv, "/")
	served := s.table.ByGV(g, v)
	if len(served) == 0 || rest == "" {
		s.serveNonResource(w, r)
		return
	}
	info, err := parsePath(served, strings.TrimSuffix(rest, "/"))
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.classify(&info, r); err != nil {
		if errors.Is(err, errPlainNotFound) {
			http.NotFound(w, r)
			return
		}
		writeError(w, err)
		return
	}
	if info.res.Deprecated != "" {
		// Every served verb warns, whatever the answer; a verb the resource does not serve
		// (405 above) has no route upstream, so no deprecation filter sees it.
		writeWarnings(w, []string{info.res.Deprecated})
	}
	if err := checkPathSegmentName(info); err != nil {
		writeError(w, err)
		return
	}
	s.counts.add(info.verb, info.res.Info.GroupResource().String())
	if info.out, err = negotiation.NegotiateFor(r, negotiation.EndpointFor(info.verb), protobufServable(info.res)); err != nil {
		writeError(w, err)
		return
	}
	if info.out.Protobuf {
		w = protobufErrors{w}
	}
	if info.out.Shape == negotiation.Table {
		if info.include, err = printers.ParseIncludeObject(r.URL.Query()); err != nil {
			writeError(w, err)
			return
		}
	}
	if err := s.checkFail(info.verb, info.res); err != nil {
		writeError(w, err)
		return
	}
	if info.res.CRDName != "" {
		info.version = v
		if cs := info.res.CRD.Load(); cs != nil {
			if text := cs.DeprecationWarningText(v); text != "" {
				writeWarnings(w, []string{text})
			}
		}
	}
	if cs, stored, asked, ok := alsoServed(info.res, gv); ok {
		gvk := asked + ", Kind=" + info.res.Info.Kind
		vw := &versionWriter{ResponseWriter: w, ctx: r.Context(), cs: cs, from: stored, to: asked, gvk: gvk, stream: info.verb == "watch"}
		defer vw.finish()
		w = vw
	} else if info.conv = builtinConversion(info.res, gv); info.conv != nil {
		if (info.verb == "create" || info.verb == "update") && !s.convertBody(w, r, info, info.conv) {
			return
		}
		cw := &convertingWriter{ResponseWriter: w, c: info.conv, stream: info.verb == "watch"}
		defer cw.finish()
		w = cw
	}
	if h := handlerFor(info); h != nil {
		h(s, w, r, info)
		return
	}
	if _, ok := info.res.Subresource(info.subresource); ok {
		// Declared for discovery, not served here yet.
		writeError(w, registry.NotFoundResource())
		return
	}
	switch info.verb {
	case "get", "update", "patch":
		if info.subresource == "scale" {
			s.serveScale(w, r, info)
			return
		}
	}
	switch info.verb {
	case "list", "watch":
		s.serveCollectionGet(w, r, info)
	case "get":
		s.serveGet(w, r, info)
	case "create":
		s.serveCreate(w, r, info)
	case "update":
		s.serveUpdate(w, r, info)
	case "patch":
		s.servePatch(w, r, info)
	case "delete":
		s.serveDelete(w, r, info)
	case "deletecollection":
		s.serveDeleteCollection(w, r, info)
	}
}

// serveNonResource answers paths outside the resource tree: discovery, /version, OpenAPI,
// the health checks, /debug/faults and /debug/metrics. These paths are read-only, /debug/faults excepted:
// another method on one that exists is 405. Everything else, whatever the method, is Go's
// plain 404 (U9), as from the real server's NotFound handler: a write to an API group that
// is not served is a 404, never a 405.
func (s *endpoints) serveNonResource(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	if s.opts.DebugFaults && s.debug.serveDebug(path, w, r) {
		return
	}
	if r.URL.Path == "/openapi/v2" {
		s.serveOpenAPIV2(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		switch {
		case s.nonResourceExists(path):
			writeError(w, api.NewMethodNotAllowed())
		case s.underServedGroup(path):
			writeError(w, registry.NotFoundResource())
		default:
			http.NotFound(w, r)
		}
		return
	}
	switch {
	case path == "/version":
		s.serveVersion(w, r)
		return
	case isHealthPath(path):
		if serveHealth(w, r, path) {
			return
		}
	case strings.HasPrefix(path, "/openapi/v3"):
		if s.serveOpenAPI(w, r, path) {
			return
		}
	default:
		if s.serveDiscovery(w, r, path) {
			return
		}
	}
	if s.underServedGroup(path) {
		writeError(w, registry.NotFoundResource())
		return
	}
	http.NotFound(w, r)
}

// underServedGroup reports whether path lies below /api/ or below a served group's
// /apis/<group>/: the real server's group handlers own those prefixes and answer what they
// do not serve (an unknown version, resource or subresource) with a 404 Status, while any
// other path gets the mux's plain "404 page not found".
func (s *endpoints) underServedGroup(path string) bool {
	if strings.HasPrefix(path, "/api/") {
		return true
	}
	rest, ok := strings.CutPrefix(path, "/apis/")
	if !ok {
		return false
	}
	group, _, more := strings.Cut(rest, "/")
	if !more || group == "" {
		return false
	}
	_, versions := s.groupVersions()
	_, served := versions[group]
	return served
}

// isTrue mirrors the query-parameter boolean conversion (U10): present and not "0"/"false".
func isTrue(q map[string][]string, key string) bool {
	v, ok := q[key]
	if !ok {
		return false
	}
	s := ""
	if len(v) > 0 {
		s = strings.ToLower(v[0])
	}
	return s != "0" && s != "false"
}

// checkBodyType enforces the request Content-Type of POST and PUT (N1, N2, E21): JSON, or,
// where protobuf is set (a built-in kind), the Kubernetes protobuf encoding. A body without a
// Content-Type is refused too, where the real server would read it as JSON: a web page can
// send an untyped body to another site without a CORS preflight, a JSON one it cannot. No
// body at all is left to the decoder's 400. Any other type (YAML, and protobuf for a custom
// resource) is 415 UnsupportedMediaType listing the types the endpoint reads (N2).
func checkBodyType(r *http.Request, protobuf bool) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" && r.ContentLength == 0 {
		return nil
	}
	if isJSONType(ct) || (protobuf && isProtobufType(ct)) {
		return nil
	}
	if protobuf {
		return api.NewUnsupportedMediaType([]string{"application/json", negotiation.ProtobufType})
	}
	return api.NewUnsupportedMediaType([]string{"application/json"})
}

// writeWarnings sends decode warnings as Warning headers (S5).
func writeWarnings(w http.ResponseWriter, warnings []string) {
	for _, text := range warnings {
		w.Header().Add("Warning", "299 - "+strconv.Quote(text))
	}
}

// listOptionsFor parses the query of a collection GET; a legacy single-object watch path
// becomes a metadata.name field selector (U6, E42).
func listOptionsFor(r *http.Request, info requestInfo) (api.ListOptions, error) {
	opts, err := decode.ParseListOptions(r.URL.Query(), info.verb == "watch")
	if err != nil {
		return opts, err
	}
	if info.legacyWatch && info.name != "" {
		nameSel := "metadata.name=" + fields.EscapeValue(info.name)
		if opts.FieldSelector == "" {
			opts.FieldSelector = nameSel
		} else {
			fs, err := fields.ParseSelector(opts.FieldSelector)
			if err != nil {
				return opts, api.NewBadRequest(err.Error())
			}
			if v, found := fs.RequiresExactMatch("metadata.name"); found && v != info.name {
				return opts, api.NewBadRequest("fieldSelector metadata.name doesn't match requested name")
			}
			opts.FieldSelector += "," + nameSel
		}
	}
	return opts, nil
}

// encodeObject marshals an object for a response.
func encodeObject(rec *record) []byte {
	var b bytes.Buffer
	b.Write(jsonOf(rec))
	b.WriteByte('\n')
	return b.Bytes()
}

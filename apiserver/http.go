package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
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

// parsePath splits the part after the group-version (U2–U6).
func parsePath(served []*resource, rest string) (requestInfo, error) {
	var info requestInfo
	parts := strings.Split(rest, "/")
	if parts[0] == "watch" {
		info.legacyWatch = true
		parts = parts[1:]
	}
	var resName string
	switch {
	case len(parts) >= 3 && parts[0] == "namespaces" && parts[2] != "status" && parts[2] != "finalize":
		info.namespace, info.hasNamespace, resName = parts[1], true, parts[2]
		parts = parts[3:]
	case len(parts) >= 1:
		resName = parts[0]
		parts = parts[1:]
	}
	if len(parts) > 2 && parts[1] == "proxy" {
		info.subpath = strings.Join(parts[2:], "/") // the proxied path, for the proxy subresources
		parts = parts[:2]
	}
	if len(parts) > 2 || resName == "" {
		return info, registry.NotFoundResource()
	}
	if len(parts) >= 1 {
		info.name = parts[0]
	}
	if len(parts) == 2 {
		info.subresource = parts[1]
	}
	for _, r := range served {
		if r.Info.Resource == resName {
			info.res = r
		}
	}
	switch {
	case info.res == nil,
		info.hasNamespace && !info.res.Info.Namespaced,
		info.name == "" && info.subresource != "",
		info.subresource != "" && !servesSubresource(info.res, info.subresource),
		info.legacyWatch && info.subresource != "",
		// A namespaced resource is addressed by name only inside its namespace.
		info.res.Info.Namespaced && !info.hasNamespace && info.name != "",
		info.hasNamespace && info.namespace == "":
		if info.res != nil && !info.res.Builtin && info.name != "" && info.subresource != "" &&
			!info.legacyWatch && info.hasNamespace == info.res.Info.Namespaced && (!info.hasNamespace || info.namespace != "") {
			// A custom resource's subresource its CRD does not enable: apiextensions-apiserver's
			// crdHandler answers NotFound for the object's name (as if the object were missing),
			// which is what a controller's UpdateStatus sees under a CRD without subresources.
			return info, api.NewNotFound(api.GroupResource{Group: info.res.Info.Group, Resource: info.res.Info.Resource}, info.name)
		}
		return info, registry.NotFoundResource()
	}
	return info, nil
}

// errPlainNotFound is classify's answer for a path no handler owns: the mux's plain
// "404 page not found", not a Status.
var errPlainNotFound = errors.New("404 page not found")

// classify picks the verb from the method and the path shape; a method the path does not
// serve is 405 (U3, E46).
func (s *endpoints) classify(info *requestInfo, r *http.Request) error {
	collection := info.name == ""
	allNamespaces := info.res.Info.Namespaced && !info.hasNamespace
	m := r.Method
	if sr, ok := info.res.Subresource(info.subresource); ok {
		// A further subresource serves the verbs it declares, by method alone.
		if v := subresourceVerbs[m]; slices.Contains(sr.Verbs, v) {
			info.verb = v
			return nil
		}
		return api.NewMethodNotAllowed()
	}
	switch {
	case info.legacyWatch && m == http.MethodGet:
		info.verb = "watch"
	case info.legacyWatch:
	case collection && m == http.MethodGet:
		info.verb = "list"
		if isTrue(r.URL.Query(), "watch") {
			info.verb = "watch"
		}
	case collection && m == http.MethodPost && !allNamespaces:
		info.verb = "create"
	case collection && m == http.MethodDelete && !allNamespaces && !(info.res.Builtin && info.res.Info.Kind == "Namespace"):
		info.verb = "deletecollection"
	case info.subresource == "finalize" && m != http.MethodPut:
		// The namespace finalize subresource takes PUT only, as the real one.
	case !collection && m == http.MethodGet:
		info.verb = "get" // U7: ?watch on an item is ignored
	case !collection && m == http.MethodPut:
		info.verb = "update"
	case !collection && m == http.MethodPatch:
		info.verb = "patch"
	case !collection && m == http.MethodDelete && info.subresource == "":
		info.verb = "delete"
	}
	if !collection && info.subresource == "" && !servesItems(info.res) {
		// A REST storage without Getter, Updater, Patcher or Deleter has no item path.
		return registry.NotFoundResource()
	}
	if info.verb == "" && info.res.CRDName != "" && info.subresource == "" {
		// apiextensions-apiserver's own handler answers a custom resource's paths: a write
		// method on the namespace's collection lacks a name, and the all-namespaces path
		// serves list and watch only, as the mux's plain 404.
		switch {
		case allNamespaces:
			return errPlainNotFound
		case m == http.MethodPut || m == http.MethodPatch:
			return api.NewBadRequest("name must be provided")
		}
	}
	if info.verb == "" || info.subresource == "" && !info.res.Serves(info.verb) {
		return api.NewMethodNotAllowed()
	}
	return nil
}

// servesItems reports whether the resource serves any verb on one object.
func servesItems(res *resource) bool {
	return res.Serves("get") || res.Serves("update") || res.Serves("patch") || res.Serves("delete")
}

// subresourceVerbs maps a method to the verb of a further subresource (rest.Subresource).
var subresourceVerbs = map[string]string{
	http.MethodGet: "get", http.MethodPost: "create", http.MethodPut: "update",
	http.MethodPatch: "patch", http.MethodDelete: "delete",
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

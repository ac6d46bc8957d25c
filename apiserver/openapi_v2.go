package apiserver

import (
	"bytes"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/openapi"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// /openapi/v2, as k8s.io/kube-openapi's pkg/handler serves it: one Swagger 2.0 document for
// the whole server, built from the same definitions as /openapi/v3 (internal/openapi), in
// JSON or as gnostic's protobuf message, both with the ETag of the JSON (its SHA-512) and
// the time the document was built, through http.ServeContent: If-None-Match answers 304,
// ranges are served. kubectl reads it for client-side validation (--validate when the
// server's v3 does not list fieldValidation), for kubectl explain
// --output=plaintext-openapiv2, and older kubectl for every apply and explain.
//
// Deviations: the document holds the PATCH operation of each resource, not every route
// (what clients read of the paths); the response is never gzip-compressed.

const (
	// protobufV2 is the media type kube-openapi answers protobuf with; kubectl and
	// client-go ask for it under the older name with "@".
	protobufV2       = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
	protobufV2Subtyp = "com.github.proto-openapi.spec.v2.v1.0+protobuf"
	protobufV2Older  = "com.github.proto-openapi.spec.v2@v1.0+protobuf"
)

// swaggerDoc is one built /openapi/v2 document: its JSON, its protobuf form (made on first
// request, as kube-openapi's protoCache does) and when it was built.
type swaggerDoc struct {
	key      string
	node     *openapi.Node // the document the JSON was written from
	json     []byte
	etag     string
	modified time.Time

	protoOnce sync.Once
	proto     []byte
	protoErr  error
}

func (d *swaggerDoc) protobuf() ([]byte, error) {
	d.protoOnce.Do(func() {
		d.proto, d.protoErr = openapi.ToProto(d.node)
	})
	return d.proto, d.protoErr
}

// swaggerState holds the current document; it is rebuilt when the served resources change.
type swaggerState struct {
	mu  sync.Mutex
	doc *swaggerDoc
}

// swagger returns the document for what is served now, building it when that changed.
func (s *endpoints) swagger() (*swaggerDoc, error) {
	in, key := s.swaggerInput()
	s.v2.mu.Lock()
	defer s.v2.mu.Unlock()
	if d := s.v2.doc; d != nil && d.key == key {
		return d, nil
	}
	n, err := openapi.Swagger(in)
	if err != nil {
		return nil, err
	}
	data := n.JSON()
	d := &swaggerDoc{key: key, node: n, json: data, etag: strconv.Quote(docHash(data)), modified: s.clock.Now()}
	s.v2.doc = d
	return d, nil
}

// swaggerInput gathers what the document is built from, and a key that changes with it.
func (s *endpoints) swaggerInput() (openapi.SwaggerInput, string) {
	in := openapi.SwaggerInput{Version: s.openAPIVersion()}
	var key strings.Builder
	groups, versions := s.groupVersions()
	for _, g := range groups {
		for _, v := range versions[g] {
			path := openAPIPath(g, v)
			if _, ok := schema.Document(path); ok {
				in.Documents = append(in.Documents, path)
			}
			key.WriteString(path + s.crdCacheKey(g, v) + ":")
			for _, sv := range s.resourcesOf(g, v) {
				key.WriteString(sv.ri.Resource + ",")
				if sv.res.Serves("patch") {
					in.Resources = append(in.Resources, openAPIResource(sv))
				}
				if c, ok := customResource(sv); ok {
					in.Custom = append(in.Custom, c)
				} else if !sv.res.Builtin {
					in.Registered = append(in.Registered, openapi.Resource{Group: g, Version: v, Kind: sv.ri.Kind})
				}
			}
			key.WriteString(";")
		}
	}
	sort.Strings(in.Documents)
	return in, key.String()
}

// serveOpenAPIV2 answers /openapi/v2 for any method, as kube-openapi's handler does: the
// first clause of Accept (by q, the specific before the wildcard) that names JSON or the
// protobuf form picks it; none is 406 with an empty body.
func (s *endpoints) serveOpenAPIV2(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache, private")
	w.Header().Add("Vary", "Accept")
	accept := r.Header.Get("Accept")
	if accept == "" {
		accept = "*/*"
	}
	for _, c := range parseAccept(accept) {
		var contentType string
		var proto bool
		switch {
		case c.matches("application", "json"):
			contentType = "application/json"
		case c.matches("application", protobufV2Older), c.matches("application", protobufV2Subtyp):
			contentType, proto = protobufV2, true
		default:
			continue
		}
		d, err := s.swagger()
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		body := d.json
		if proto {
			if body, err = d.protobuf(); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Etag", d.etag)
		http.ServeContent(w, r, "/openapi/v2", d.modified, bytes.NewReader(body))
		return
	}
	w.WriteHeader(http.StatusNotAcceptable)
}

// acceptClause is one media range of an Accept header.
type acceptClause struct {
	typ, subtype string
	q            float64
}

// matches reports whether the clause accepts typ/subtype: equal, or a wildcard.
func (c acceptClause) matches(typ, subtype string) bool {
	return (c.typ == typ || c.typ == "*") && (c.subtype == subtype || c.subtype == "*")
}

// parseAccept mirrors goautoneg.ParseAccept as kube-openapi uses it: clauses by q, then
// those without a wildcard first; a clause without a subtype is dropped unless it is "*".
// A clause of q=0 is kept, as there.
func parseAccept(header string) []acceptClause {
	var out []acceptClause
	for _, part := range strings.Split(header, ",") {
		part = strings.Trim(part, " ")
		if part == "" {
			continue
		}
		mediaRange, params, _ := strings.Cut(part, ";")
		typ, subtype, hasSub := strings.Cut(mediaRange, "/")
		c := acceptClause{typ: strings.Trim(typ, " "), q: 1}
		switch {
		case !hasSub && c.typ == "*":
			c.subtype = "*"
		case !hasSub || strings.Contains(subtype, "/"):
			continue
		default:
			c.subtype = strings.Trim(subtype, " ")
		}
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if ok && strings.Trim(k, " ") == "q" {
				if q, err := strconv.ParseFloat(v, 32); err == nil {
					c.q = q
				} else {
					c.q = 0
				}
			}
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.q != b.q {
			return a.q > b.q
		}
		if (a.typ != "*") != (b.typ != "*") {
			return a.typ != "*"
		}
		return a.subtype != "*" && b.subtype == "*"
	})
	return out
}

package apiserver

import (
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Content negotiation (wire spec N1–N4, K5), a small cousin of k8s.io/apiserver
// pkg/endpoints/handlers/negotiation. The server produces JSON only; the Accept header picks
// what shape that JSON has: the plain object, a Table (server-side printing), a
// PartialObjectMetadata(List), or for /api and /apis the aggregated discovery document.

// outputKind is the shape of a response body.
type outputKind int

const (
	outJSON          outputKind = iota // the object or list itself
	outTable                           // meta.k8s.io Table (K15, W21)
	outPartial                         // meta.k8s.io PartialObjectMetadata(List) (N4)
	outDiscoveryList                   // apidiscovery.k8s.io APIGroupDiscoveryList (K5)
)

// output is the outcome of negotiation: the shape and, for the meta.k8s.io and apidiscovery
// shapes, the version the client asked for ("v1", "v1beta1"; "v2", "v2beta1").
type output struct {
	kind    outputKind
	version string
	as      string // the "as" parameter echoed in the Content-Type
}

// acceptedMediaTypes is what a 406 lists (N3): the only encoding we produce.
var acceptedMediaTypes = []string{"application/json"}

// Where a response goes decides which Accept parameters make sense.
type endpointKind int

const (
	endpointList      endpointKind = iota // LIST: Table, PartialObjectMetadataList
	endpointObject                        // GET of one object, WATCH events: Table, PartialObjectMetadata
	endpointWrite                         // create, update, patch, delete: plain JSON
	endpointDiscovery                     // /api and /apis: aggregated or legacy discovery
	endpointPlain                         // /version, /api/v1, /openapi/v3, …: plain JSON
)

// mediaClause is one member of an Accept header.
type mediaClause struct {
	typ, sub string
	params   map[string]string
	q        float64
}

// parseAccept splits Accept headers into clauses, highest quality first (ties keep their
// order). Clauses that do not parse, or have q=0, are dropped.
func parseAccept(values []string) []mediaClause {
	var out []mediaClause
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			mt, params, err := mime.ParseMediaType(part)
			if err != nil {
				if mt == "*" { // "*" alone is common shorthand for */*
					mt = "*/*"
				} else {
					continue
				}
			}
			typ, sub, ok := strings.Cut(mt, "/")
			if !ok {
				continue
			}
			q := 1.0
			if qs, ok := params["q"]; ok {
				f, err := strconv.ParseFloat(qs, 64)
				if err != nil || f <= 0 {
					continue
				}
				q = f
			}
			out = append(out, mediaClause{typ: typ, sub: sub, params: params, q: q})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].q > out[j].q })
	return out
}

// isJSON reports whether the clause names JSON or a wildcard that covers it.
func (c mediaClause) isJSON() bool {
	return (c.typ == "application" && (c.sub == "json" || c.sub == "*")) || (c.typ == "*" && c.sub == "*")
}

// metaVersion returns the meta.k8s.io version a conversion clause asks for.
func (c mediaClause) metaVersion() (string, bool) {
	if c.params["g"] != api.MetaGroupName {
		return "", false
	}
	switch v := c.params["v"]; v {
	case "v1", "v1beta1":
		return v, true
	}
	return "", false
}

// accept decides whether one clause can be served at an endpoint, and how.
func (c mediaClause) accept(ep endpointKind) (output, bool) {
	if !c.isJSON() {
		return output{}, false // protobuf, YAML, CBOR, text/html …: not produced here
	}
	as, conversion := c.params["as"]
	if !conversion {
		return output{kind: outJSON}, true
	}
	switch ep {
	case endpointList, endpointObject:
		v, ok := c.metaVersion()
		if !ok {
			return output{}, false
		}
		switch {
		case as == "Table":
			return output{kind: outTable, version: v, as: as}, true
		case as == "PartialObjectMetadataList" && ep == endpointList,
			as == "PartialObjectMetadata" && ep == endpointObject:
			return output{kind: outPartial, version: v, as: as}, true
		}
	case endpointDiscovery:
		if as == "APIGroupDiscoveryList" && c.params["g"] == "apidiscovery.k8s.io" {
			switch v := c.params["v"]; v {
			case "v2", "v2beta1":
				return output{kind: outDiscoveryList, version: v, as: as}, true
			}
		}
	}
	return output{}, false
}

// negotiate picks the response shape from the Accept header (N3, N4): the first clause, by
// quality then order, that the endpoint can serve. No Accept header means JSON; an Accept
// header nothing of which can be served is 406 NotAcceptable.
func negotiate(r *http.Request, ep endpointKind) (output, error) {
	values := r.Header.Values("Accept")
	if len(values) == 0 {
		return output{kind: outJSON}, nil
	}
	clauses := parseAccept(values)
	for _, c := range clauses {
		if out, ok := c.accept(ep); ok {
			return out, nil
		}
	}
	if len(clauses) == 0 && strings.TrimSpace(strings.Join(values, "")) == "" {
		return output{kind: outJSON}, nil
	}
	return output{}, api.NewNotAcceptable(acceptedMediaTypes)
}

// contentType is the Content-Type of a response in that shape (N4, K5).
func (o output) contentType() string {
	switch o.kind {
	case outTable, outPartial:
		return "application/json;as=" + o.as + ";v=" + o.version + ";g=" + api.MetaGroupName
	case outDiscoveryList:
		return "application/json;g=apidiscovery.k8s.io;v=" + o.version + ";as=APIGroupDiscoveryList"
	}
	return "application/json"
}

// endpointFor maps a verb to the negotiation rules of its response.
func endpointFor(verb string) endpointKind {
	switch verb {
	case "list":
		return endpointList
	case "get", "watch":
		return endpointObject
	}
	return endpointWrite
}

package negotiation

import (
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
)

// Shape is the shape of a response body: always JSON, but which JSON.
type Shape int

// The shapes a client can ask for with its Accept header.
const (
	// JSON is the object or list itself.
	JSON Shape = iota
	// Table is a meta.k8s.io Table, server-side printing (docs/behaviour/wire.md K15, W21).
	Table
	// PartialObjectMetadata is a meta.k8s.io PartialObjectMetadata, or
	// PartialObjectMetadataList for a list (N4).
	PartialObjectMetadata
	// DiscoveryList is an apidiscovery.k8s.io APIGroupDiscoveryList (K5).
	DiscoveryList
)

// Output is the outcome of negotiation.
type Output struct {
	// Shape is what the body holds.
	Shape Shape
	// Version is, for the meta.k8s.io and apidiscovery shapes, the version the client asked
	// for ("v1", "v1beta1"; "v2", "v2beta1"); "" for JSON.
	Version string
	// As is the "as" parameter of the chosen clause. Only the discovery shape echoes it in
	// the Content-Type; a Table or PartialObjectMetadata answer is plain application/json.
	As string
	// Protobuf is set when the object or list goes in the Kubernetes protobuf encoding
	// (application/vnd.kubernetes.protobuf): only the plain shape of a kind that has one.
	Protobuf bool
}

// ProtobufType is the Kubernetes protobuf media type.
const ProtobufType = "application/vnd.kubernetes.protobuf"

// acceptedMediaTypes is what a 406 lists (N3): the only encoding we produce.
var acceptedMediaTypes = []string{"application/json"}

// Endpoint is where a response goes, which decides which Accept parameters make sense.
type Endpoint int

// The endpoints, by what they can answer besides plain JSON.
const (
	// EndpointList is a LIST: Table, PartialObjectMetadataList.
	EndpointList Endpoint = iota
	// EndpointObject is a GET of one object, or the events of a WATCH: Table,
	// PartialObjectMetadata.
	EndpointObject
	// EndpointWrite is a create, update, patch or delete: plain JSON only.
	EndpointWrite
	// EndpointDiscovery is /api and /apis: the aggregated or the legacy discovery document.
	EndpointDiscovery
	// EndpointPlain is /version, /api/v1, /openapi/v3 and the like: plain JSON only.
	EndpointPlain
)

// EndpointFor maps a request verb (list, get, watch, create, …) to the negotiation rules of
// its response.
func EndpointFor(verb string) Endpoint {
	switch verb {
	case "list":
		return EndpointList
	case "get", "watch":
		return EndpointObject
	}
	return EndpointWrite
}

// mediaClause is one member of an Accept header.
type mediaClause struct {
	typ, sub string
	params   map[string]string
	q        float64
}

// parseAccept splits Accept headers into clauses, highest quality first (ties keep their
// order). Clauses that do not parse, or have q=0, are dropped.
func parseAccept(values []string) []mediaClause {
	if len(values) != 1 || len(values[0]) > maxCachedAccept {
		return parseAcceptValues(values)
	}
	if c, ok := acceptCache.Load(values[0]); ok {
		return c.([]mediaClause)
	}
	out := parseAcceptValues(values)
	if acceptCached.Add(1) <= maxCachedAccepts {
		acceptCache.Store(values[0], out)
	}
	return out
}

// A client sends the same Accept header on every request (client-go's is fixed per
// client), and parsing it is a split and a mime.ParseMediaType per clause: the parsed
// clauses of the first few headers seen are kept, never changed by their readers. The
// bounds keep what a hostile client can make the server hold small.
const (
	maxCachedAccept  = 256 // bytes of one header value
	maxCachedAccepts = 256 // header values
)

var (
	acceptCache  sync.Map // header value → []mediaClause
	acceptCached atomic.Int64
)

func parseAcceptValues(values []string) []mediaClause {
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

// isProtobuf reports whether the clause names the Kubernetes protobuf encoding.
func (c mediaClause) isProtobuf() bool {
	return c.typ == "application" && c.sub == "vnd.kubernetes.protobuf"
}

// accept decides whether one clause can be served at an endpoint, and how. protobuf says
// whether the resource has a protobuf encoding (the built-in kinds; not custom resources).
func (c mediaClause) accept(ep Endpoint, protobuf bool) (Output, bool) {
	if c.isProtobuf() {
		// A conversion (as=Table …) or a discovery document in protobuf is not produced.
		_, conversion := c.params["as"]
		if !protobuf || conversion || ep == EndpointDiscovery || ep == EndpointPlain {
			return Output{}, false
		}
		return Output{Shape: JSON, Protobuf: true}, true
	}
	if !c.isJSON() {
		return Output{}, false // YAML, CBOR, text/html …: not produced here
	}
	as, conversion := c.params["as"]
	if !conversion {
		return Output{Shape: JSON}, true
	}
	switch ep {
	case EndpointList, EndpointObject:
		v, ok := c.metaVersion()
		if !ok {
			return Output{}, false
		}
		switch {
		case as == "Table":
			return Output{Shape: Table, Version: v, As: as}, true
		case as == "PartialObjectMetadataList" && ep == EndpointList,
			as == "PartialObjectMetadata" && ep == EndpointObject:
			return Output{Shape: PartialObjectMetadata, Version: v, As: as}, true
		}
	case EndpointDiscovery:
		if as == "APIGroupDiscoveryList" && c.params["g"] == "apidiscovery.k8s.io" {
			switch v := c.params["v"]; v {
			case "v2", "v2beta1":
				return Output{Shape: DiscoveryList, Version: v, As: as}, true
			}
		}
	}
	return Output{}, false
}

// Negotiate picks the response shape from the Accept header (docs/behaviour/wire.md N3, N4): the first
// clause, by quality then order, that the endpoint can serve. No Accept header means JSON; an
// Accept header nothing of which can be served is 406 NotAcceptable. It mirrors
// NegotiateOutputMediaType in k8s.io/apiserver pkg/endpoints/handlers/negotiation, reduced to
// JSON.
func Negotiate(r *http.Request, ep Endpoint) (Output, error) {
	return NegotiateFor(r, ep, false)
}

// NegotiateFor is Negotiate for a resource that may answer in protobuf (protobuf true: a
// built-in kind), as kube-apiserver does for every kind compiled into it: a protobuf clause
// wins by quality and order like any other, and a custom resource skips it (406 when it is
// alone).
func NegotiateFor(r *http.Request, ep Endpoint, protobuf bool) (Output, error) {
	values := r.Header.Values("Accept")
	if len(values) == 0 {
		return Output{Shape: JSON}, nil
	}
	clauses := parseAccept(values)
	for _, c := range clauses {
		if out, ok := c.accept(ep, protobuf); ok {
			return out, nil
		}
	}
	if len(clauses) == 0 && strings.TrimSpace(strings.Join(values, "")) == "" {
		return Output{Shape: JSON}, nil
	}
	if protobuf {
		return Output{}, api.NewNotAcceptable([]string{"application/json", ProtobufType})
	}
	return Output{}, api.NewNotAcceptable(acceptedMediaTypes)
}

// ContentType is the Content-Type of a response in that shape (N4, K5). kube-apiserver
// answers a Table or PartialObjectMetadata(List) with the bare application/json (the
// conversion is named by the body's kind and apiVersion), but aggregated discovery with
// every parameter of the clause it served.
func (o Output) ContentType() string {
	if o.Protobuf {
		return ProtobufType
	}
	switch o.Shape {
	case DiscoveryList:
		return "application/json;g=apidiscovery.k8s.io;v=" + o.Version + ";as=APIGroupDiscoveryList"
	}
	return "application/json"
}

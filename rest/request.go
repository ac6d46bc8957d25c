package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/rest/internal/wire"
	restwatch "github.com/informer-lab/informer-lab/rest/watch"
)

// maxErrorBodyBytes mirrors maxUnstructuredResponseTextBytes: how much of a non-Status error
// body goes into the synthesized message.
const maxErrorBodyBytes = 2048

// Request mirrors rest.Request in client-go rest/request.go: a builder for one call. The
// first error met while building is kept and returned by Do or Watch.
type Request struct {
	c           *RESTClient
	verb        string
	namespace   string
	resource    string
	name        string
	subresource []string
	params      url.Values
	body        []byte
	contentType string
	headers     http.Header
	// absPath, when set, replaces the /api/v1 or /apis/{group}/{version} prefix (AbsPath).
	absPath    string
	hasAbsPath bool
	maxRetries int
	err        error
}

// checkSegment mirrors rest.IsValidPathSegmentName: a name used as a URL path segment.
func checkSegment(what, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%s may not be empty", what)
	case s == "." || s == "..":
		return fmt.Errorf("invalid %s %q: may not be '%s'", what, s, s)
	case strings.ContainsAny(s, "/%"):
		return fmt.Errorf("invalid %s %q: may not contain '/' or '%%'", what, s)
	}
	return nil
}

func (r *Request) setErr(err error) *Request {
	if r.err == nil && err != nil {
		r.err = fmt.Errorf("rest: %w", err)
	}
	return r
}

// Namespace mirrors Request.Namespace: "" means all namespaces (or a cluster-scoped
// resource).
func (r *Request) Namespace(ns string) *Request {
	if ns != "" {
		r.setErr(checkSegment("namespace", ns))
	}
	r.namespace = ns
	return r
}

// Resource mirrors Request.Resource: the plural resource name, e.g. "pods".
func (r *Request) Resource(resource string) *Request {
	r.resource = resource
	return r.setErr(checkSegment("resource", resource))
}

// Name mirrors Request.Name: the object's name.
func (r *Request) Name(name string) *Request {
	r.name = name
	return r.setErr(checkSegment("resource name", name))
}

// SubResource mirrors Request.SubResource, e.g. "status".
func (r *Request) SubResource(subresources ...string) *Request {
	for _, s := range subresources {
		r.setErr(checkSegment("subresource", s))
	}
	r.subresource = subresources
	return r
}

// Param mirrors Request.Param: one more query parameter.
func (r *Request) Param(name, value string) *Request {
	r.params.Add(name, value)
	return r
}

// VersionedParams mirrors Request.VersionedParams with metav1.ParameterCodec: the non-empty
// fields of opts become query parameters under their JSON names, as client-go encodes them
// (a set pointer is sent even when it points to zero or false). opts is a *api.ListOptions,
// *api.GetOptions, *api.CreateOptions, *api.UpdateOptions or *api.PatchOptions; nil adds nothing, any
// other type is an error that Do or Watch returns.
func (r *Request) VersionedParams(opts any) *Request {
	var v url.Values
	switch o := opts.(type) {
	case nil:
		return r
	case *api.ListOptions:
		if o == nil {
			return r
		}
		v = encodeListOptions(o)
	case *api.GetOptions:
		v = getQuery(o)
	case *api.CreateOptions:
		v = createQuery(o)
	case *api.UpdateOptions:
		v = updateQuery(o)
	case *api.PatchOptions:
		v = patchQuery(o)
	default:
		return r.setErr(fmt.Errorf("VersionedParams: unsupported options type %T", opts))
	}
	for k, vs := range v {
		for _, val := range vs {
			r.params.Add(k, val)
		}
	}
	return r
}

// SetHeader mirrors Request.SetHeader: it replaces the values of one request header. It
// can override the Accept header, as the discovery client does.
func (r *Request) SetHeader(key string, values ...string) *Request {
	if r.headers == nil {
		r.headers = http.Header{}
	}
	r.headers.Del(key)
	for _, v := range values {
		r.headers.Add(key, v)
	}
	return r
}

// AbsPath mirrors Request.AbsPath: the path, below the server's base path, replaces the
// group-version prefix, e.g. AbsPath("/version") or AbsPath("/apis"). Namespace, Resource
// and Name still append to it.
func (r *Request) AbsPath(segments ...string) *Request {
	p := path.Join(segments...)
	if p != "" && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if p == "/" {
		p = ""
	}
	r.absPath, r.hasAbsPath = p, true
	return r
}

// MaxRetries mirrors Request.MaxRetries: how many times a request answered with a
// Retry-After (429 or 5xx) is sent again; 0 turns retries off, a negative value counts as 0.
// The default is DefaultMaxRetries.
func (r *Request) MaxRetries(maxRetries int) *Request {
	if maxRetries < 0 {
		maxRetries = 0
	}
	r.maxRetries = maxRetries
	return r
}

// encodeListOptions turns ListOptions into query parameters; url.Values.Encode sorts them,
// as client-go's URL does.
func encodeListOptions(o *api.ListOptions) url.Values {
	v := url.Values{}
	if o.LabelSelector != "" {
		v.Set("labelSelector", o.LabelSelector)
	}
	if o.FieldSelector != "" {
		v.Set("fieldSelector", o.FieldSelector)
	}
	if o.Watch {
		v.Set("watch", "true")
	}
	if o.AllowWatchBookmarks {
		v.Set("allowWatchBookmarks", "true")
	}
	if o.ResourceVersion != "" {
		v.Set("resourceVersion", o.ResourceVersion)
	}
	if o.ResourceVersionMatch != "" {
		v.Set("resourceVersionMatch", o.ResourceVersionMatch)
	}
	if o.TimeoutSeconds != nil {
		v.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
	}
	if o.Limit != 0 {
		v.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	if o.Continue != "" {
		v.Set("continue", o.Continue)
	}
	if o.SendInitialEvents != nil {
		v.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
	}
	return v
}

// Body mirrors Request.Body for the forms this client supports: raw JSON bytes, an
// api.Object (encoded through the Scheme, which fills in kind and apiVersion), or
// *api.DeleteOptions (sent with kind DeleteOptions, apiVersion v1, as the dynamic client does).
func (r *Request) Body(obj any) *Request {
	var err error
	switch b := obj.(type) {
	case []byte:
		r.body = b
	case *api.DeleteOptions:
		o := *b
		o.TypeMeta = api.TypeMeta{Kind: "DeleteOptions", APIVersion: "v1"}
		r.body, err = json.Marshal(&o)
	case api.Object:
		if r.contentType == "" && r.c.protobuf {
			if pbBody, ok := encodeProtobufTyped(r.c.scheme, b); ok {
				r.body, r.contentType = pbBody, contentTypeProtobuf
				return r
			}
		}
		r.body, err = r.c.scheme.Encode(b)
	default:
		err = fmt.Errorf("unsupported request body type %T", obj)
	}
	if r.contentType == "" {
		r.contentType = contentTypeJSON
		if _, raw := obj.([]byte); r.c.protobuf && !raw && err == nil {
			// Objects go in protobuf when their kind has a message; raw bytes are sent as
			// given, as JSON (patches set their own type).
			if pbBody, ok, perr := encodeProtobuf(r.body); perr != nil {
				err = perr
			} else if ok {
				r.body, r.contentType = pbBody, contentTypeProtobuf
			}
		}
	}
	return r.setErr(err)
}

// URL mirrors Request.URL: /api/v1 for the core group, /apis/{group}/{version} for others,
// then namespaces/{ns}, the resource, the name and the subresource (docs/behaviour/wire.md U1–U4).
func (r *Request) URL() *url.URL {
	u := *r.c.base
	var p strings.Builder
	p.WriteString(u.Path)
	switch {
	case r.hasAbsPath:
		p.WriteString(r.absPath)
	case r.c.gv.Group == "":
		p.WriteString("/api/" + r.c.gv.Version)
	default:
		p.WriteString("/apis/" + r.c.gv.Group + "/" + r.c.gv.Version)
	}
	if r.namespace != "" {
		p.WriteString("/namespaces/" + r.namespace)
	}
	for _, seg := range append([]string{r.resource, r.name}, r.subresource...) {
		if seg != "" {
			p.WriteString("/" + seg)
		}
	}
	u.Path = p.String()
	u.RawQuery = r.params.Encode()
	return &u
}

func (r *Request) newHTTPRequest(ctx context.Context) (*http.Request, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.verb, r.URL().String(), body)
	if err != nil {
		return nil, fmt.Errorf("rest: %w", err)
	}
	if r.c.protobuf {
		req.Header.Set("Accept", acceptProtobuf)
	} else {
		req.Header.Set("Accept", "application/json, */*")
	}
	req.Header.Set("User-Agent", r.c.userAgent)
	if r.body != nil {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.c.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.c.token)
	}
	for k, vs := range r.headers {
		req.Header[k] = append([]string(nil), vs...)
	}
	return req, nil
}

// Do mirrors Request.Do: it sends the request and reads the whole response. Config.Timeout
// bounds the call, retries included. An answer of 429 or 5xx with Retry-After is sent again
// after that many seconds, up to MaxRetries times (DefaultMaxRetries), and so is a GET whose
// connection was cut; the last answer decides the result (see with_retry.go).
func (r *Request) Do(ctx context.Context) Result {
	res := Result{scheme: r.c.scheme, logger: r.c.logger, path: r.URL().Path, verb: r.verb}
	if r.err != nil {
		res.err = r.err
		return res
	}
	if r.c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.c.timeout)
		defer cancel()
	}
	retry := newWithRetry(r.maxRetries)
	retryableErr := func(err error) bool { return ctx.Err() == nil && isRetryableGETError(r.verb, err) }
	for {
		if err := retry.before(ctx, r.c.clock); err != nil {
			res.err = retry.wrapPreviousError(err)
			return res
		}
		req, err := r.newHTTPRequest(ctx)
		if err != nil {
			res.err = err
			return res
		}
		resp, err := r.c.client.Do(req)
		if retry.isNextRetry(resp, err, retryableErr) {
			r.traceRetry(res.path, retry, resp, err)
			drainAndClose(resp)
			continue
		}
		if err != nil {
			res.err = retry.wrapPreviousError(err)
			return res
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			res.err = fmt.Errorf("unexpected error when reading response body. Please retry. Original error: %w", err)
			return res
		}
		return r.transformResponse(res, resp, body)
	}
}

// transformResponse mirrors Request.transformResponse: a non-2xx answer becomes an error,
// the server's Status when the body is one (S1), else one synthesized from the code (S6).
func (r *Request) transformResponse(res Result, resp *http.Response, body []byte) Result {
	res.body, res.raw = body, body
	res.statusCode = resp.StatusCode
	res.contentType = resp.Header.Get("Content-Type")
	if isProtobuf(res.contentType) && len(body) > 0 && keepProtobuf(resp.StatusCode, body) {
		// A successful answer of a kind other than Status is kept as it came: Into and Get
		// read it straight into a typed object, or into JSON when they must (result.go).
		res.pb, res.body, res.contentType = body, nil, contentTypeJSON
		resp.Header.Set("Content-Type", contentTypeJSON)
	} else if isProtobuf(res.contentType) && len(body) > 0 {
		// Read into the JSON the server would have sent, so everything after works alike.
		data, err := protobufToJSON(body)
		if err != nil {
			res.err = fmt.Errorf("rest: decoding the protobuf response of %s %s: %w", r.verb, r.URL().Path, err)
			return res
		}
		res.body, res.contentType = data, contentTypeJSON
		resp.Header.Set("Content-Type", contentTypeJSON)
	}
	if resp.StatusCode < http.StatusOK || resp.StatusCode > http.StatusPartialContent {
		res.err = r.responseError(resp, res.body)
	}
	return res
}

// responseError mirrors Result.Error plus newUnstructuredResponseError, which builds the
// Status with apierrors.NewGenericServerResponse.
func (r *Request) responseError(resp *http.Response, body []byte) error {
	ct := resp.Header.Get("Content-Type")
	if isJSON(ct) && len(body) > 0 {
		if st, err := wire.DecodeStatus(body); err == nil && st.Status == api.StatusFailure {
			return st
		}
	}
	retryAfter, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	message := "unknown"
	if isText(ct) {
		if len(body) > maxErrorBodyBytes {
			body = body[:maxErrorBodyBytes]
		}
		message = strings.TrimSpace(string(body))
	}
	gr := api.GroupResource{Group: r.c.gv.Group, Resource: r.resource}
	return api.NewGenericServerResponse(resp.StatusCode, r.verb, gr, r.name, message, retryAfter, true)
}

func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return mt
}

// isJSON accepts application/json and an absent Content-Type (N1).
func isJSON(contentType string) bool {
	return contentType == "" || mediaType(contentType) == "application/json"
}

// isText mirrors isTextResponse: text/* or no Content-Type at all.
func isText(contentType string) bool {
	return contentType == "" || strings.HasPrefix(mediaType(contentType), "text/")
}

// Watch mirrors Request.Watch: it returns once the response headers arrive (W3). A non-200
// answer is an error (a *api.Status when possible); a connection that fails with EOF or a
// timeout gives an already-closed watch, as client-go does, so the caller simply re-watches.
//
// Like client-go, a watch answered with 429 or 5xx and Retry-After, or whose connection is
// cut or times out before the headers, is opened again up to MaxRetries times; a cut
// connection that outlasts the retries still gives the empty, closed watch.
func (r *Request) Watch(ctx context.Context) (watch.Interface, error) {
	if r.err != nil {
		return nil, r.err
	}
	outer := ctx
	retry := newWithRetry(r.maxRetries)
	retryableErr := func(err error) bool { return outer.Err() == nil && isRetryableWatchError(err) }
	for {
		if err := retry.before(outer, r.c.clock); err != nil {
			return nil, retry.wrapPreviousError(err)
		}
		w, done, err := r.watchOnce(outer, retry, retryableErr)
		if done {
			return w, err
		}
	}
}

// watchOnce makes one attempt of Watch; done is false when the attempt is to be retried.
func (r *Request) watchOnce(outer context.Context, retry *withRetry, retryableErr func(error) bool) (watch.Interface, bool, error) {
	ctx, cancel := context.WithCancel(outer)
	req, err := r.newHTTPRequest(ctx)
	if err != nil {
		cancel()
		return nil, true, err
	}
	resp, err := r.c.client.Do(req)
	if err != nil {
		cancel()
		if retry.isNextRetry(nil, err, retryableErr) {
			r.traceRetry(req.URL.Path, retry, nil, err)
			return nil, false, nil
		}
		if retryableErr(err) {
			return watch.NewEmptyWatch(), true, nil
		}
		return nil, true, retry.wrapPreviousError(err)
	}
	path := req.URL.Path
	if resp.StatusCode != http.StatusOK {
		defer cancel()
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		res := r.transformResponse(Result{}, resp, body)
		if retry.isNextRetry(resp, nil, nil) {
			r.traceRetry(path, retry, resp, nil)
			return nil, false, nil
		}
		if res.err != nil {
			return nil, true, res.err
		}
		return nil, true, fmt.Errorf("for request %s, got status: %v", req.URL, resp.StatusCode)
	}
	ct := resp.Header.Get("Content-Type")
	if !isJSON(ct) && !isProtobuf(ct) {
		cancel()
		_ = resp.Body.Close()
		return nil, true, fmt.Errorf("rest: watch response has Content-Type %q; only application/json and %s are supported", ct, contentTypeProtobuf)
	}
	if trace.Enabled(r.c.logger) {
		trace.Hop(r.c.logger, wire.TraceComponent, opWatchOpen, path, r.params.Get("resourceVersion"))
	}
	opts := restwatch.DecoderOptions{Scheme: r.c.scheme, MaxFrameBytes: r.c.maxFrame}
	dec := restwatch.NewDecoder(resp.Body, opts)
	if isProtobuf(ct) {
		dec = restwatch.NewProtobufDecoder(resp.Body, opts)
	}
	return restwatch.NewStreamWatcherForRequest(ctx, cancel, dec, r.c.logger, path), true, nil
}

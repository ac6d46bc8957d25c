package admission

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// WebhookFaults is the webhook-timeout fault of /debug/faults: the next Count webhook
// calls behave as a webhook that never answers, failing when their timeout ends. It has no
// counterpart in k8s.io/apiserver.
type WebhookFaults struct {
	mu    sync.Mutex
	count int
}

// Add makes n more calls time out.
func (f *WebhookFaults) Add(n int) {
	f.mu.Lock()
	f.count += n
	f.mu.Unlock()
}

// Pending is how many calls are still to time out.
func (f *WebhookFaults) Pending() int {
	if f == nil {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count
}

// Clear drops the pending timeouts.
func (f *WebhookFaults) Clear() {
	f.mu.Lock()
	f.count = 0
	f.mu.Unlock()
}

func (f *WebhookFaults) take() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.count == 0 {
		return false
	}
	f.count--
	return true
}

// callError is webhookutil.ErrCallingWebhook: the webhook could not be reached or gave no
// usable answer. failurePolicy decides what it means.
type callError struct {
	webhook string
	reason  error
}

func (e *callError) Error() string {
	return fmt.Sprintf("failed calling webhook %q: %v", e.webhook, e.reason)
}

// clients caches one HTTP client per caBundle, as the webhook client manager caches REST
// clients per client config.
var clients sync.Map // clientKey → *http.Client

type clientKey struct{ caBundle, serverName string }

// clientFor returns the client that trusts caBundle (the system's roots when empty) and,
// for a service reference, verifies the service's DNS name whatever address it dials.
func clientFor(caBundle, serverName string) (*http.Client, error) {
	key := clientKey{caBundle, serverName}
	if c, ok := clients.Load(key); ok {
		return c.(*http.Client), nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: serverName}
	if caBundle != "" {
		pem, err := base64.StdEncoding.DecodeString(caBundle)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, errors.New("unable to load root certificates: unable to parse bytes as PEM block")
		}
		cfg.RootCAs = pool
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true,
		DialContext: (&net.Dialer{Timeout: 30 * time.Second}).DialContext, IdleConnTimeout: 90 * time.Second}}
	actual, _ := clients.LoadOrStore(key, c)
	return actual.(*http.Client), nil
}

// endpoint is the URL a webhook is posted to. A service reference is resolved, as the
// real server's endpoint resolver does, to the first address of the Service's Endpoints
// (nothing routes a Service's cluster IP in this simulator), with the TLS server name the
// real server verifies: <service>.<namespace>.svc.
func (h *hook) endpoint(a *Attributes) (string, string, error) {
	if h.service == nil {
		return h.url, "", nil
	}
	ns, _ := h.service["namespace"].(string)
	name, _ := h.service["name"].(string)
	path, _ := h.service["path"].(string)
	port := int64(443)
	if p, ok := h.service["port"].(int64); ok {
		port = p
	} else if p, ok := h.service["port"].(float64); ok {
		port = int64(p)
	}
	host := name + "." + ns + ".svc"
	display := "https://" + host + ":" + strconv.FormatInt(port, 10) + path
	svc := a.get("", "services", ns, name)
	if svc == nil {
		return display, host, fmt.Errorf("service %q not found", name)
	}
	ep := a.get("", "endpoints", ns, name)
	subsets, _ := objPath(ep, "subsets").([]any)
	for _, s := range subsets {
		sm, _ := s.(map[string]any)
		addrs, _ := sm["addresses"].([]any)
		ports, _ := sm["ports"].([]any)
		if len(addrs) == 0 || len(ports) == 0 {
			continue
		}
		ip, _ := addrs[0].(map[string]any)["ip"].(string)
		target := targetPort(svc, port, ports)
		return "https://" + net.JoinHostPort(ip, strconv.FormatInt(target, 10)) + path, host, nil
	}
	return display, host, fmt.Errorf("no endpoints available for service %q", name)
}

func objPath(o *api.Unstructured, key string) any {
	if o == nil {
		return nil
	}
	return o.Object[key]
}

// targetPort maps the Service port to the Endpoints port of the same name.
func targetPort(svc *api.Unstructured, port int64, epPorts []any) int64 {
	spec, _ := svc.Object["spec"].(map[string]any)
	sps, _ := spec["ports"].([]any)
	name := ""
	for _, p := range sps {
		pm, _ := p.(map[string]any)
		if num(pm["port"]) == port {
			name, _ = pm["name"].(string)
		}
	}
	for _, p := range epPorts {
		pm, _ := p.(map[string]any)
		if n, _ := pm["name"].(string); n == name {
			return num(pm["port"])
		}
	}
	return num(epPorts[0].(map[string]any)["port"])
}

func num(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	case json.Number:
		i, _ := n.Int64()
		return i
	}
	return 0
}

// review is admissionv1.AdmissionResponse as far as the server reads it.
type review struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Response   *struct {
		UID       string      `json:"uid"`
		Allowed   bool        `json:"allowed"`
		Result    *api.Status `json:"status"`
		Patch     []byte      `json:"patch"`
		PatchType *string     `json:"patchType"`
		Warnings  []string    `json:"warnings"`
	} `json:"response"`
}

func newRequestUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// requestBody is request.CreateAdmissionObjects for AdmissionReview v1.
func requestBody(ctx context.Context, a *Attributes, uid string) ([]byte, error) {
	version := requestVersion(a)
	kind := map[string]any{"group": a.Kind.Group, "version": version, "kind": a.Kind.Kind}
	res := map[string]any{"group": a.Resource.Group, "version": version, "resource": a.Resource.Resource}
	req := map[string]any{
		"uid": uid, "kind": kind, "resource": res, "requestKind": kind, "requestResource": res,
		"name": a.Name, "operation": string(a.Operation), "dryRun": a.DryRun,
		"object": objOrNil(a.Object), "oldObject": objOrNil(a.OldObject),
	}
	if a.Namespace != "" {
		req["namespace"] = a.Namespace
	}
	if a.Subresource != "" {
		req["subResource"] = a.Subresource
		req["requestSubResource"] = a.Subresource
	}
	user := map[string]any{}
	if u, ok := rest.UserFrom(ctx); ok {
		user["username"] = u.Name
		if u.UID != "" {
			user["uid"] = u.UID
		}
		if len(u.Groups) > 0 {
			user["groups"] = u.Groups
		}
		if len(u.Extra) > 0 {
			user["extra"] = u.Extra
		}
	}
	req["userInfo"] = user
	opts := map[string]any{"apiVersion": "meta.k8s.io/v1"}
	switch a.Operation {
	case Create:
		opts["kind"] = "CreateOptions"
	case Update:
		opts["kind"] = "UpdateOptions"
	case Delete:
		opts["kind"] = "DeleteOptions"
	}
	if a.DryRun {
		opts["dryRun"] = []string{"All"}
	}
	req["options"] = opts
	return json.Marshal(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req})
}

func objOrNil(o *api.Unstructured) any {
	if o == nil {
		return nil
	}
	return o.Object
}

// outgoing is one webhook call made ready under the transaction's lock: everything it
// needed from the store is read, so send may run outside it.
type outgoing struct {
	h                  *hook
	uid                string
	body               []byte
	target, serverName string
	err                error // a failure found while preparing, reported by send
}

// prepare builds the AdmissionReview and resolves where it goes.
func (h *hook) prepare(ctx context.Context, a *Attributes) *outgoing {
	o := &outgoing{h: h, uid: newRequestUID()}
	body, err := requestBody(ctx, a, o.uid)
	if err != nil {
		o.err = fmt.Errorf("could not create admission objects: %w", err)
		return o
	}
	o.body = body
	target, serverName, rerr := h.endpoint(a)
	o.target = target + "?timeout=" + strconv.FormatInt(h.timeout, 10) + "s"
	o.serverName = serverName
	if rerr != nil {
		o.err = fmt.Errorf("failed to call webhook: Post %q: %w", o.target, rerr)
	}
	return o
}

// outside runs fn outside the storage lock when the caller allows it.
func outside(a *Attributes, fn func()) {
	if a.Outside != nil {
		a.Outside(fn)
		return
	}
	fn()
}

// send posts the AdmissionReview and returns its verified response
// (request.VerifyAdmissionResponse). Any failure is a *callError. It reads no store.
func (o *outgoing) send(ctx context.Context, faults *WebhookFaults, mutating bool) (*review, error) {
	h := o.h
	fail := func(err error) (*review, error) { return nil, &callError{webhook: h.name, reason: err} }
	if o.err != nil {
		return fail(o.err)
	}
	cctx, cancel := context.WithTimeout(ctx, time.Duration(h.timeout)*time.Second)
	defer cancel()
	if faults.take() {
		<-cctx.Done()
		return fail(fmt.Errorf("failed to call webhook: Post %q: %w", o.target, cctx.Err()))
	}
	client, err := clientFor(h.caBundle, o.serverName)
	if err != nil {
		return fail(fmt.Errorf("could not get REST client: %w", err))
	}
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, o.target, bytes.NewReader(o.body))
	if err != nil {
		return fail(fmt.Errorf("failed to call webhook: %w", err))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, */*")
	resp, err := client.Do(req)
	if err != nil {
		return fail(fmt.Errorf("failed to call webhook: %w", err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 3<<20))
	if err != nil {
		return fail(fmt.Errorf("failed to call webhook: %w", err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fail(fmt.Errorf("failed to call webhook: an error on the server (%q) has prevented the request from succeeding", string(bytes.TrimSpace(data))))
	}
	var r review
	if err := decodeReview(data, &r); err != nil {
		return fail(fmt.Errorf("failed to call webhook: %w", err))
	}
	if err := verify(&r, o.uid, mutating); err != nil {
		return fail(fmt.Errorf("received invalid webhook response: %w", err))
	}
	return &r, nil
}

// verify is request.VerifyAdmissionResponse for v1.
func verify(r *review, uid string, mutating bool) error {
	if r.Response == nil {
		return errors.New("webhook response was absent")
	}
	if r.Response.UID != uid {
		return fmt.Errorf("expected response.uid=%q, got %q", uid, r.Response.UID)
	}
	if r.APIVersion != "admission.k8s.io/v1" || r.Kind != "AdmissionReview" {
		g, v := api.ParseAPIVersion(r.APIVersion)
		got := api.GroupVersionKind{Group: g, Version: v, Kind: r.Kind}
		return fmt.Errorf("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got %s", gvkString(got))
	}
	hasPatch, hasType := len(r.Response.Patch) > 0, r.Response.PatchType != nil && *r.Response.PatchType != ""
	if mutating {
		switch {
		case hasPatch && !hasType:
			return errors.New("webhook returned response.patch but not response.patchType")
		case hasType && !hasPatch:
			return errors.New("webhook returned response.patchType but not response.patch")
		case hasType && *r.Response.PatchType != "JSONPatch":
			return fmt.Errorf("webhook returned invalid response.patchType of %q", *r.Response.PatchType)
		}
	} else {
		if hasPatch {
			return errors.New("validating webhook may not return response.patch")
		}
		if hasType {
			return errors.New("validating webhook may not return response.patchType")
		}
	}
	return nil
}

// gvkString is schema.GroupVersionKind.String.
func gvkString(g api.GroupVersionKind) string {
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// denied is webhookerrors.ToStatusErr: the webhook's own Status, at least 400, with its
// message prefixed.
func denied(name string, result *api.Status) *api.Status {
	s := &api.Status{Status: api.StatusFailure}
	if result != nil {
		cp := *result
		s = &cp
	}
	s.TypeMeta = api.TypeMeta{Kind: "Status", APIVersion: "v1"}
	if s.Code < http.StatusBadRequest {
		s.Code = http.StatusBadRequest
	}
	if s.Status == "" || s.Status == api.StatusSuccess {
		s.Status = api.StatusFailure
	}
	by := fmt.Sprintf("admission webhook %q denied the request", name)
	switch {
	case s.Message != "":
		s.Message = by + ": " + s.Message
	case s.Reason != "":
		s.Message = by + ": " + string(s.Reason)
	default:
		s.Message = by + " without explanation"
	}
	return s
}

// dryRunRefusal is webhookerrors.NewDryRunUnsupportedErr.
func dryRunRefusal(name string) error {
	return api.NewBadRequest(fmt.Sprintf("admission webhook %q does not support dry run", name))
}

// sideEffectFree reports whether h may be called on a dry run.
func (h *hook) sideEffectFree() bool {
	return h.sideEffects == "None" || h.sideEffects == "NoneOnDryRun"
}

func decodeRequest(body []byte) map[string]any {
	var r struct {
		Request map[string]any `json:"request"`
	}
	_ = json.Unmarshal(body, &r)
	return r.Request
}

// typeMeta has the shape of the struct the REST client's decoder reads a body's kind into:
// Go's json error names it, and the real message shows that name.
type typeMeta = struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// decodeReview decodes a webhook's answer as the REST client does: a body that is not a
// JSON object (text is read as YAML, so as a string) fails to yield a kind.
func decodeReview(data []byte, r *review) error {
	if !json.Valid(data) {
		// Plain text is a YAML string scalar to the client's YAML-or-JSON decoder.
		quoted, _ := json.Marshal(string(bytes.TrimSpace(data)))
		data = quoted
	}
	var tm typeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return fmt.Errorf("couldn't get version/kind; json parse error: %w", err)
	}
	return json.Unmarshal(data, r)
}

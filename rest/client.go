package rest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// Trace vocabulary of the request hops (component "listwatch", shared with package
// rest/watch, which logs the watch events and the close).
const (
	opList      = "list"
	opWatchOpen = "watch-open"
	attrItems   = "items"
)

// RESTClient mirrors rest.RESTClient in client-go rest/client.go, JSON only: it builds
// requests for one group-version of one server. ForGroupVersion gives a client for another
// group-version sharing the same connections.
type RESTClient struct {
	base      *url.URL
	gv        api.GroupVersion
	client    *http.Client
	token     string
	userAgent string
	timeout   time.Duration
	scheme    *api.Scheme
	maxFrame  int
	logger    *slog.Logger
	clock     clock.Clock
	protobuf  bool // Config.ContentType is protobuf
}

// RESTClientFor mirrors rest.RESTClientFor: a client for the core group, version v1. Use
// ForGroupVersion for other groups.
func RESTClientFor(cfg *Config) (*RESTClient, error) {
	if cfg == nil {
		return nil, errors.New("rest: RESTClientFor needs a Config")
	}
	base, err := parseHost(cfg.Host)
	if err != nil {
		return nil, err
	}
	hc, err := httpClientFor(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("rest: Config.Timeout must not be negative, got %v", cfg.Timeout)
	}
	if cfg.MaxWatchFrameBytes < 0 {
		return nil, fmt.Errorf("rest: Config.MaxWatchFrameBytes must not be negative, got %d", cfg.MaxWatchFrameBytes)
	}
	pbuf, err := contentTypeIsProtobuf(cfg.ContentType)
	if err != nil {
		return nil, err
	}
	c := &RESTClient{
		base:      base,
		gv:        api.GroupVersion{Version: "v1"},
		client:    hc,
		token:     cfg.BearerToken,
		userAgent: cfg.UserAgent,
		timeout:   cfg.Timeout,
		scheme:    cfg.Scheme,
		maxFrame:  cfg.MaxWatchFrameBytes,
		logger:    cfg.Logger,
		clock:     clock.Or(cfg.Clock),
		protobuf:  pbuf,
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}
	if c.scheme == nil {
		c.scheme = api.DefaultScheme
	}
	return c, nil
}

// ForGroupVersion returns a client for gv on the same server and connections; core is
// api.GroupVersion{Version: "v1"}, apps is {"apps", "v1"}. It mirrors building a second
// rest.RESTClient from the same rest.Config with another api.GroupVersion.
func (c *RESTClient) ForGroupVersion(gv api.GroupVersion) *RESTClient {
	cp := *c
	cp.gv = gv
	return &cp
}

// Transport returns the round tripper every request of this client goes through. Clients
// built from a Config whose Transport is this one share its connections, as client-go's
// NewForConfigAndClient shares one http.Client among every group-version of a clientset.
// Nothing in client-go mirrors it.
func (c *RESTClient) Transport() http.RoundTripper {
	if c.client.Transport == nil {
		return http.DefaultTransport
	}
	return c.client.Transport
}

// APIVersion mirrors RESTClient.APIVersion: the group-version requests are sent to.
func (c *RESTClient) APIVersion() api.GroupVersion { return c.gv }

// Verb mirrors RESTClient.Verb: a request with any HTTP method.
func (c *RESTClient) Verb(verb string) *Request {
	return &Request{c: c, verb: verb, params: url.Values{}, maxRetries: DefaultMaxRetries}
}

// Get mirrors RESTClient.Get.
func (c *RESTClient) Get() *Request { return c.Verb(http.MethodGet) }

// Post mirrors RESTClient.Post.
func (c *RESTClient) Post() *Request { return c.Verb(http.MethodPost) }

// Put mirrors RESTClient.Put.
func (c *RESTClient) Put() *Request { return c.Verb(http.MethodPut) }

// Patch mirrors RESTClient.Patch: the patch type becomes the request's Content-Type.
func (c *RESTClient) Patch(pt api.PatchType) *Request {
	r := c.Verb(http.MethodPatch)
	r.contentType = string(pt)
	return r
}

// Delete mirrors RESTClient.Delete.
func (c *RESTClient) Delete() *Request { return c.Verb(http.MethodDelete) }

// Resource returns a client for one resource of any group-version. It mirrors the dynamic
// client's Resource(gvr), but decodes through the Config's Scheme, so known kinds come back
// typed.
func (c *RESTClient) Resource(gvr api.GroupVersionResource) *ResourceClient {
	return &ResourceClient{c: c.ForGroupVersion(gvr.GroupVersion()), resource: gvr.Resource}
}

// ResourceClient mirrors dynamic.ResourceInterface in client-go dynamic/interface.go: CRUD,
// list and watch on one resource, in one namespace or across all of them.
type ResourceClient struct {
	c         *RESTClient
	resource  string
	namespace string
}

// Namespace mirrors NamespaceableResourceInterface.Namespace: "" addresses all namespaces
// (list and watch only) or a cluster-scoped resource.
func (rc *ResourceClient) Namespace(ns string) *ResourceClient {
	cp := *rc
	cp.namespace = ns
	return &cp
}

func (rc *ResourceClient) req(r *Request) *Request {
	return r.Namespace(rc.namespace).Resource(rc.resource)
}

// List mirrors ResourceInterface.List: one page (set opts.Limit and opts.Continue to page;
// see ListPager). The result is a list object, e.g. *api.PodList.
func (rc *ResourceClient) List(ctx context.Context, opts api.ListOptions) (api.Object, error) {
	opts.Watch = false
	return rc.req(rc.c.Get()).VersionedParams(&opts).Do(ctx).Get()
}

// Watch mirrors ResourceInterface.Watch: the query always carries watch=true.
func (rc *ResourceClient) Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return rc.req(rc.c.Get()).VersionedParams(&opts).Watch(ctx)
}

// Get mirrors ResourceInterface.Get.
func (rc *ResourceClient) Get(ctx context.Context, name string) (api.Object, error) {
	return rc.req(rc.c.Get()).Name(name).Do(ctx).Get()
}

// Create mirrors ResourceInterface.Create: POST to the collection.
func (rc *ResourceClient) Create(ctx context.Context, obj api.Object) (api.Object, error) {
	return rc.req(rc.c.Post()).Body(obj).Do(ctx).Get()
}

// Update mirrors ResourceInterface.Update: PUT to the item named by obj's metadata.
func (rc *ResourceClient) Update(ctx context.Context, obj api.Object) (api.Object, error) {
	m, err := api.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("rest: Update: %w", err)
	}
	return rc.req(rc.c.Put()).Name(m.GetName()).Body(obj).Do(ctx).Get()
}

// Patch mirrors ResourceInterface.Patch with the patch type as Content-Type.
func (rc *ResourceClient) Patch(ctx context.Context, name string, pt api.PatchType, data []byte) (api.Object, error) {
	return rc.req(rc.c.Patch(pt)).Name(name).Body(data).Do(ctx).Get()
}

// Delete mirrors ResourceInterface.Delete; opts may be nil.
func (rc *ResourceClient) Delete(ctx context.Context, name string, opts *api.DeleteOptions) error {
	r := rc.req(rc.c.Delete()).Name(name)
	if opts != nil {
		r = r.Body(opts)
	}
	return r.Do(ctx).Error()
}

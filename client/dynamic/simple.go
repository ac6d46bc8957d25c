package dynamic

import (
	"context"
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/rest"
)

// DynamicClient mirrors dynamic.DynamicClient in client-go dynamic/simple.go.
type DynamicClient struct {
	client *rest.RESTClient
}

var _ Interface = (*DynamicClient)(nil)

// errNameRequired mirrors the "name is required" error of the dynamic client.
var errNameRequired = errors.New("name is required")

// NewForConfig mirrors dynamic.NewForConfig: cfg is copied and its Scheme replaced by an
// empty one, so every answer decodes as Unstructured.
func NewForConfig(cfg *rest.Config) (*DynamicClient, error) {
	if cfg == nil {
		return nil, errors.New("dynamic: NewForConfig needs a Config")
	}
	config := *cfg
	config.Scheme = api.NewScheme()
	rc, err := rest.RESTClientFor(&config)
	if err != nil {
		return nil, err
	}
	return &DynamicClient{client: rc}, nil
}

// New mirrors dynamic.New: a dynamic client over an existing REST client. Its Scheme decides
// what comes back, so build it with an empty Scheme (api.NewScheme()) to get Unstructured
// for every kind.
func New(c *rest.RESTClient) *DynamicClient { return &DynamicClient{client: c} }

// Resource mirrors DynamicClient.Resource.
func (c *DynamicClient) Resource(resource api.GroupVersionResource) NamespaceableResourceInterface {
	return &dynamicResourceClient{client: c.client.ForGroupVersion(resource.GroupVersion()), resource: resource}
}

// dynamicResourceClient mirrors dynamicResourceClient: one resource, maybe one namespace.
type dynamicResourceClient struct {
	client    *rest.RESTClient
	namespace string
	resource  api.GroupVersionResource
}

// Namespace mirrors dynamicResourceClient.Namespace.
func (c *dynamicResourceClient) Namespace(ns string) ResourceInterface {
	cp := *c
	cp.namespace = ns
	return &cp
}

func (c *dynamicResourceClient) on(r *rest.Request) *rest.Request {
	return r.Namespace(c.namespace).Resource(c.resource.Resource)
}

// Create mirrors dynamicResourceClient.Create: POST to the collection, or to
// …/{name}/{subresource} when subresources are given.
func (c *dynamicResourceClient) Create(ctx context.Context, obj *api.Unstructured, opts api.CreateOptions, subresources ...string) (*api.Unstructured, error) {
	if obj == nil {
		return nil, errors.New("dynamic: Create needs an object, got nil")
	}
	r := c.on(c.client.Post())
	if len(subresources) > 0 {
		if obj.GetName() == "" {
			return nil, errNameRequired
		}
		r = r.Name(obj.GetName()).SubResource(subresources...)
	}
	return decodeObject(r.VersionedParams(&opts).Body(obj).Do(ctx))
}

// Update mirrors dynamicResourceClient.Update: PUT to the object's name.
func (c *dynamicResourceClient) Update(ctx context.Context, obj *api.Unstructured, opts api.UpdateOptions, subresources ...string) (*api.Unstructured, error) {
	if obj == nil {
		return nil, errors.New("dynamic: Update needs an object, got nil")
	}
	if obj.GetName() == "" {
		return nil, errNameRequired
	}
	return decodeObject(c.on(c.client.Put()).Name(obj.GetName()).SubResource(subresources...).
		VersionedParams(&opts).Body(obj).Do(ctx))
}

// UpdateStatus mirrors dynamicResourceClient.UpdateStatus: PUT to …/{name}/status.
func (c *dynamicResourceClient) UpdateStatus(ctx context.Context, obj *api.Unstructured, opts api.UpdateOptions) (*api.Unstructured, error) {
	return c.Update(ctx, obj, opts, "status")
}

// Delete mirrors dynamicResourceClient.Delete: DELETE with the options as body.
func (c *dynamicResourceClient) Delete(ctx context.Context, name string, opts api.DeleteOptions, subresources ...string) error {
	if name == "" {
		return errNameRequired
	}
	return c.on(c.client.Delete()).Name(name).SubResource(subresources...).Body(&opts).Do(ctx).Error()
}

// DeleteCollection mirrors dynamicResourceClient.DeleteCollection.
func (c *dynamicResourceClient) DeleteCollection(ctx context.Context, opts api.DeleteOptions, listOpts api.ListOptions) error {
	return c.on(c.client.Delete()).VersionedParams(&listOpts).Body(&opts).Do(ctx).Error()
}

// Get mirrors dynamicResourceClient.Get.
func (c *dynamicResourceClient) Get(ctx context.Context, name string, opts api.GetOptions, subresources ...string) (*api.Unstructured, error) {
	if name == "" {
		return nil, errNameRequired
	}
	return decodeObject(c.on(c.client.Get()).Name(name).SubResource(subresources...).VersionedParams(&opts).Do(ctx))
}

// List mirrors dynamicResourceClient.List: one page of the collection.
func (c *dynamicResourceClient) List(ctx context.Context, opts api.ListOptions) (*api.UnstructuredList, error) {
	opts.Watch = false
	obj, err := c.on(c.client.Get()).VersionedParams(&opts).Do(ctx).Get()
	if err != nil {
		return nil, err
	}
	list, ok := obj.(*api.UnstructuredList)
	if !ok {
		return nil, fmt.Errorf("dynamic: listing %s returned a %T, not a list", c.resource.GroupResource(), obj)
	}
	return list, nil
}

// Watch mirrors dynamicResourceClient.Watch: events carry *api.Unstructured objects.
func (c *dynamicResourceClient) Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.on(c.client.Get()).VersionedParams(&opts).Watch(ctx)
}

// Patch mirrors dynamicResourceClient.Patch. Custom resources take json-patch, merge-patch
// and apply-patch; strategic merge patch is 415 for them (docs/behaviour/wire.md X1).
func (c *dynamicResourceClient) Patch(ctx context.Context, name string, pt api.PatchType, data []byte, opts api.PatchOptions, subresources ...string) (*api.Unstructured, error) {
	if name == "" {
		return nil, errNameRequired
	}
	return decodeObject(c.on(c.client.Patch(pt)).Name(name).SubResource(subresources...).
		VersionedParams(&opts).Body(data).Do(ctx))
}

// decodeObject turns a result into one *api.Unstructured.
func decodeObject(res rest.Result) (*api.Unstructured, error) {
	obj, err := res.Get()
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*api.Unstructured)
	if !ok {
		return nil, fmt.Errorf("dynamic: the server returned a %T, not a single object", obj)
	}
	return u, nil
}

// ListWatchFor makes a DynamicClient an informer source (informer.ListWatchSource): the
// ListerWatcher of one resource in namespace ("" for all), every request's options passed
// through tweak first. It plays the part of the ListWatch that client-go's
// dynamicinformer.NewFilteredDynamicInformer builds.
func (c *DynamicClient) ListWatchFor(gvr api.GroupVersionResource, namespace string, tweak func(*api.ListOptions)) listwatch.ListerWatcher {
	ri := c.Resource(gvr).Namespace(namespace)
	if tweak == nil {
		tweak = func(*api.ListOptions) {}
	}
	list := func(ctx context.Context, opts api.ListOptions) (api.Object, error) {
		tweak(&opts)
		l, err := ri.List(ctx, opts)
		if err != nil {
			return nil, err // not a typed nil inside a non-nil interface
		}
		return l, nil
	}
	watchFn := func(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
		tweak(&opts)
		return ri.Watch(ctx, opts)
	}
	return &listwatch.ListWatch{
		ListFunc:             func(opts api.ListOptions) (api.Object, error) { return list(context.Background(), opts) },
		WatchFunc:            func(opts api.ListOptions) (watch.Interface, error) { return watchFn(context.Background(), opts) },
		ListWithContextFunc:  list,
		WatchFuncWithContext: watchFn,
	}
}

package gentype

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/rest"
)

// objectWithMeta mirrors the constraint of the same name in client-go gentype/type.go: a
// top-level kind, reachable through a pointer such as *api.Pod.
type objectWithMeta interface {
	api.Object
	api.MetaObject
}

// Client mirrors gentype.Client: the calls on single objects of one kind (and Watch), in one
// namespace ("" for a cluster-scoped kind, or all namespaces for Watch).
type Client[T objectWithMeta] struct {
	resource  string
	client    *rest.RESTClient
	namespace string
	newObject func() T
}

// ClientWithList mirrors gentype.ClientWithList: Client plus the list calls, whose result is
// the kind's list type L (e.g. *api.PodList).
type ClientWithList[T objectWithMeta, L api.Object] struct {
	*Client[T]
	newList func() L
}

// NewClient mirrors gentype.NewClient: resource is the plural name ("pods"), client a REST
// client for the kind's group-version, emptyObjectCreator makes a new T to decode into.
func NewClient[T objectWithMeta](resource string, client *rest.RESTClient, namespace string, emptyObjectCreator func() T) *Client[T] {
	return &Client[T]{resource: resource, client: client, namespace: namespace, newObject: emptyObjectCreator}
}

// NewClientWithList mirrors gentype.NewClientWithList.
func NewClientWithList[T objectWithMeta, L api.Object](resource string, client *rest.RESTClient, namespace string,
	emptyObjectCreator func() T, emptyListCreator func() L) *ClientWithList[T, L] {
	return &ClientWithList[T, L]{
		Client:  NewClient(resource, client, namespace, emptyObjectCreator),
		newList: emptyListCreator,
	}
}

// GetClient mirrors Client.GetClient: the underlying REST client.
func (c *Client[T]) GetClient() *rest.RESTClient { return c.client }

// GetNamespace mirrors Client.GetNamespace.
func (c *Client[T]) GetNamespace() string { return c.namespace }

// Get mirrors Client.Get: GET …/{resource}/{name}.
func (c *Client[T]) Get(ctx context.Context, name string, opts api.GetOptions) (T, error) {
	result := c.newObject()
	err := c.client.Get().Namespace(c.namespace).Resource(c.resource).Name(name).
		VersionedParams(&opts).Do(ctx).Into(result)
	return result, err
}

// Watch mirrors Client.Watch: GET …/{resource}?watch=true, the events decoded as T.
func (c *Client[T]) Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.client.Get().Namespace(c.namespace).Resource(c.resource).VersionedParams(&opts).Watch(ctx)
}

// Create mirrors Client.Create: POST to the collection; the answer is the stored object.
func (c *Client[T]) Create(ctx context.Context, obj T, opts api.CreateOptions) (T, error) {
	result := c.newObject()
	if isNil(obj) {
		return result, errors.New("gentype: Create needs an object, got nil")
	}
	err := c.client.Post().Namespace(c.namespace).Resource(c.resource).
		VersionedParams(&opts).Body(obj).Do(ctx).Into(result)
	return result, err
}

// Update mirrors Client.Update: PUT to the object's name. On pods the server ignores any
// change to the status here; use UpdateStatus.
func (c *Client[T]) Update(ctx context.Context, obj T, opts api.UpdateOptions) (T, error) {
	return c.put(ctx, obj, opts, "Update")
}

// UpdateStatus mirrors Client.UpdateStatus: PUT to …/{name}/status, which changes only the
// status.
func (c *Client[T]) UpdateStatus(ctx context.Context, obj T, opts api.UpdateOptions) (T, error) {
	return c.put(ctx, obj, opts, "UpdateStatus", "status")
}

func (c *Client[T]) put(ctx context.Context, obj T, opts api.UpdateOptions, op string, subresources ...string) (T, error) {
	result := c.newObject()
	if isNil(obj) {
		return result, fmt.Errorf("gentype: %s needs an object, got nil", op)
	}
	if obj.GetName() == "" {
		return result, fmt.Errorf("gentype: %s needs an object with metadata.name", op)
	}
	err := c.client.Put().Namespace(c.namespace).Resource(c.resource).Name(obj.GetName()).
		SubResource(subresources...).VersionedParams(&opts).Body(obj).Do(ctx).Into(result)
	return result, err
}

// Delete mirrors Client.Delete: DELETE …/{name} with the options as body.
func (c *Client[T]) Delete(ctx context.Context, name string, opts api.DeleteOptions) error {
	return c.client.Delete().Namespace(c.namespace).Resource(c.resource).Name(name).
		Body(&opts).Do(ctx).Error()
}

// Patch mirrors Client.Patch: PATCH …/{name}[/{subresource}] with pt as Content-Type.
func (c *Client[T]) Patch(ctx context.Context, name string, pt api.PatchType, data []byte,
	opts api.PatchOptions, subresources ...string) (T, error) {
	result := c.newObject()
	err := c.client.Patch(pt).Namespace(c.namespace).Resource(c.resource).Name(name).
		SubResource(subresources...).VersionedParams(&opts).Body(data).Do(ctx).Into(result)
	return result, err
}

// List mirrors alsoLister.List: one GET of the collection (set opts.Limit and opts.Continue
// to page).
func (l *ClientWithList[T, L]) List(ctx context.Context, opts api.ListOptions) (L, error) {
	result := l.newList()
	opts.Watch = false
	err := l.client.Get().Namespace(l.namespace).Resource(l.resource).VersionedParams(&opts).
		Do(ctx).Into(result)
	return result, err
}

// DeleteCollection mirrors alsoLister.DeleteCollection: DELETE on the collection, limited by
// the list options' selectors.
func (l *ClientWithList[T, L]) DeleteCollection(ctx context.Context, opts api.DeleteOptions, listOpts api.ListOptions) error {
	return l.client.Delete().Namespace(l.namespace).Resource(l.resource).VersionedParams(&listOpts).
		Body(&opts).Do(ctx).Error()
}

// isNil reports whether obj is a nil pointer hiding in a non-nil interface.
func isNil(obj any) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

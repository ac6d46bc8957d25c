package dynamic

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// Interface mirrors dynamic.Interface in client-go dynamic/interface.go.
type Interface interface {
	Resource(resource api.GroupVersionResource) NamespaceableResourceInterface
}

// ResourceInterface mirrors dynamic.ResourceInterface, without Apply and ApplyStatus.
type ResourceInterface interface {
	Create(ctx context.Context, obj *api.Unstructured, options api.CreateOptions, subresources ...string) (*api.Unstructured, error)
	Update(ctx context.Context, obj *api.Unstructured, options api.UpdateOptions, subresources ...string) (*api.Unstructured, error)
	UpdateStatus(ctx context.Context, obj *api.Unstructured, options api.UpdateOptions) (*api.Unstructured, error)
	Delete(ctx context.Context, name string, options api.DeleteOptions, subresources ...string) error
	DeleteCollection(ctx context.Context, options api.DeleteOptions, listOptions api.ListOptions) error
	Get(ctx context.Context, name string, options api.GetOptions, subresources ...string) (*api.Unstructured, error)
	List(ctx context.Context, opts api.ListOptions) (*api.UnstructuredList, error)
	Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt api.PatchType, data []byte, options api.PatchOptions, subresources ...string) (*api.Unstructured, error)
}

// NamespaceableResourceInterface mirrors dynamic.NamespaceableResourceInterface: a resource
// that can be narrowed to one namespace.
type NamespaceableResourceInterface interface {
	Namespace(string) ResourceInterface
	ResourceInterface
}

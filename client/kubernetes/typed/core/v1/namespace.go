package v1

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/client/gentype"
)

// NamespacesGetter mirrors NamespacesGetter in client-go kubernetes/typed/core/v1/namespace.go.
type NamespacesGetter interface {
	Namespaces() NamespaceInterface
}

// NamespaceInterface mirrors NamespaceInterface, without Apply and Finalize. Namespaces are
// cluster-scoped and, as upstream, have no DeleteCollection.
type NamespaceInterface interface {
	Create(ctx context.Context, namespace *api.Namespace, opts api.CreateOptions) (*api.Namespace, error)
	Update(ctx context.Context, namespace *api.Namespace, opts api.UpdateOptions) (*api.Namespace, error)
	UpdateStatus(ctx context.Context, namespace *api.Namespace, opts api.UpdateOptions) (*api.Namespace, error)
	Delete(ctx context.Context, name string, opts api.DeleteOptions) error
	Get(ctx context.Context, name string, opts api.GetOptions) (*api.Namespace, error)
	List(ctx context.Context, opts api.ListOptions) (*api.NamespaceList, error)
	Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt api.PatchType, data []byte, opts api.PatchOptions, subresources ...string) (*api.Namespace, error)
}

// namespaces mirrors the generated namespaces type: cluster-scoped, so no namespace.
type namespaces struct {
	*gentype.ClientWithList[*api.Namespace, *api.NamespaceList]
}

func newNamespaces(c *CoreV1Client) *namespaces {
	return &namespaces{gentype.NewClientWithList("namespaces", c.RESTClient(), "",
		func() *api.Namespace { return &api.Namespace{} },
		func() *api.NamespaceList { return &api.NamespaceList{} })}
}

package v1

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/client/gentype"
)

// NodesGetter mirrors NodesGetter in client-go kubernetes/typed/core/v1/node.go.
type NodesGetter interface {
	Nodes() NodeInterface
}

// NodeInterface mirrors NodeInterface, without Apply and DeleteCollection. Nodes are
// cluster-scoped.
type NodeInterface interface {
	Create(ctx context.Context, node *api.Node, opts api.CreateOptions) (*api.Node, error)
	Update(ctx context.Context, node *api.Node, opts api.UpdateOptions) (*api.Node, error)
	UpdateStatus(ctx context.Context, node *api.Node, opts api.UpdateOptions) (*api.Node, error)
	Delete(ctx context.Context, name string, opts api.DeleteOptions) error
	Get(ctx context.Context, name string, opts api.GetOptions) (*api.Node, error)
	List(ctx context.Context, opts api.ListOptions) (*api.NodeList, error)
	Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt api.PatchType, data []byte, opts api.PatchOptions, subresources ...string) (*api.Node, error)
}

// nodes mirrors the generated nodes type: cluster-scoped, so no namespace.
type nodes struct {
	*gentype.ClientWithList[*api.Node, *api.NodeList]
}

func newNodes(c *CoreV1Client) *nodes {
	return &nodes{gentype.NewClientWithList("nodes", c.RESTClient(), "",
		func() *api.Node { return &api.Node{} },
		func() *api.NodeList { return &api.NodeList{} })}
}

package v1

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/client/gentype"
)

// PodsGetter mirrors PodsGetter in client-go kubernetes/typed/core/v1/pod.go.
type PodsGetter interface {
	Pods(namespace string) PodInterface
}

// PodInterface mirrors PodInterface, without Apply, eviction, binding, logs and the
// ephemeral-container and resize subresources.
type PodInterface interface {
	Create(ctx context.Context, pod *api.Pod, opts api.CreateOptions) (*api.Pod, error)
	Update(ctx context.Context, pod *api.Pod, opts api.UpdateOptions) (*api.Pod, error)
	UpdateStatus(ctx context.Context, pod *api.Pod, opts api.UpdateOptions) (*api.Pod, error)
	Delete(ctx context.Context, name string, opts api.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts api.DeleteOptions, listOpts api.ListOptions) error
	Get(ctx context.Context, name string, opts api.GetOptions) (*api.Pod, error)
	List(ctx context.Context, opts api.ListOptions) (*api.PodList, error)
	Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt api.PatchType, data []byte, opts api.PatchOptions, subresources ...string) (*api.Pod, error)
}

// pods mirrors the generated pods type: gentype does the work.
type pods struct {
	*gentype.ClientWithList[*api.Pod, *api.PodList]
}

func newPods(c *CoreV1Client, namespace string) *pods {
	return &pods{gentype.NewClientWithList("pods", c.RESTClient(), namespace,
		func() *api.Pod { return &api.Pod{} },
		func() *api.PodList { return &api.PodList{} })}
}

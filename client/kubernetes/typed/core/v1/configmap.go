package v1

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/client/gentype"
)

// ConfigMapsGetter mirrors ConfigMapsGetter in client-go kubernetes/typed/core/v1/configmap.go.
type ConfigMapsGetter interface {
	ConfigMaps(namespace string) ConfigMapInterface
}

// ConfigMapInterface mirrors ConfigMapInterface, without Apply. A ConfigMap has no status, so
// there is no UpdateStatus (+genclient:noStatus upstream).
type ConfigMapInterface interface {
	Create(ctx context.Context, configMap *api.ConfigMap, opts api.CreateOptions) (*api.ConfigMap, error)
	Update(ctx context.Context, configMap *api.ConfigMap, opts api.UpdateOptions) (*api.ConfigMap, error)
	Delete(ctx context.Context, name string, opts api.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts api.DeleteOptions, listOpts api.ListOptions) error
	Get(ctx context.Context, name string, opts api.GetOptions) (*api.ConfigMap, error)
	List(ctx context.Context, opts api.ListOptions) (*api.ConfigMapList, error)
	Watch(ctx context.Context, opts api.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt api.PatchType, data []byte, opts api.PatchOptions, subresources ...string) (*api.ConfigMap, error)
}

// configMaps mirrors the generated configMaps type.
type configMaps struct {
	*gentype.ClientWithList[*api.ConfigMap, *api.ConfigMapList]
}

func newConfigMaps(c *CoreV1Client, namespace string) *configMaps {
	return &configMaps{gentype.NewClientWithList("configmaps", c.RESTClient(), namespace,
		func() *api.ConfigMap { return &api.ConfigMap{} },
		func() *api.ConfigMapList { return &api.ConfigMapList{} })}
}

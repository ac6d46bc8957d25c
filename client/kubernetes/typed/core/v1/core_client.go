package v1

import (
	"errors"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/rest"
)

// CoreV1Interface mirrors CoreV1Interface in client-go kubernetes/typed/core/v1/core_client.go,
// reduced to the kinds we serve.
type CoreV1Interface interface {
	RESTClient() *rest.RESTClient
	PodsGetter
	ConfigMapsGetter
	NamespacesGetter
	NodesGetter
}

// CoreV1Client mirrors CoreV1Client: the group-version client that hands out one typed client
// per kind, all sharing one REST client.
type CoreV1Client struct {
	restClient *rest.RESTClient
}

// Pods mirrors CoreV1Client.Pods.
func (c *CoreV1Client) Pods(namespace string) PodInterface { return newPods(c, namespace) }

// ConfigMaps mirrors CoreV1Client.ConfigMaps.
func (c *CoreV1Client) ConfigMaps(namespace string) ConfigMapInterface {
	return newConfigMaps(c, namespace)
}

// Namespaces mirrors CoreV1Client.Namespaces.
func (c *CoreV1Client) Namespaces() NamespaceInterface { return newNamespaces(c) }

// Nodes mirrors CoreV1Client.Nodes.
func (c *CoreV1Client) Nodes() NodeInterface { return newNodes(c) }

// NewForConfig mirrors v1.NewForConfig: a client for /api/v1 built from cfg, which is copied,
// not changed.
func NewForConfig(cfg *rest.Config) (*CoreV1Client, error) {
	if cfg == nil {
		return nil, errors.New("corev1: NewForConfig needs a Config")
	}
	config := *cfg
	setConfigDefaults(&config)
	rc, err := rest.RESTClientFor(&config)
	if err != nil {
		return nil, err
	}
	return &CoreV1Client{restClient: rc}, nil // RESTClientFor addresses the core group, v1
}

// New mirrors v1.New: a CoreV1Client over an existing REST client, which must decode typed
// kinds (api.DefaultScheme) and address the core group.
func New(c *rest.RESTClient) *CoreV1Client { return &CoreV1Client{restClient: c} }

// setConfigDefaults mirrors setConfigDefaults: the generated client decodes with its own
// scheme, so the kinds always come back typed.
func setConfigDefaults(config *rest.Config) {
	config.Scheme = api.DefaultScheme
}

// RESTClient mirrors CoreV1Client.RESTClient: the REST client for raw requests to /api/v1.
func (c *CoreV1Client) RESTClient() *rest.RESTClient { return c.restClient }

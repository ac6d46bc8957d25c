package kubernetes

import (
	"errors"

	"github.com/informer-lab/informer-lab/client/discovery"
	corev1 "github.com/informer-lab/informer-lab/client/kubernetes/typed/core/v1"
	"github.com/informer-lab/informer-lab/rest"
)

// Interface mirrors kubernetes.Interface in client-go kubernetes/clientset.go, reduced to
// the groups we serve.
type Interface interface {
	Discovery() discovery.DiscoveryInterface
	CoreV1() corev1.CoreV1Interface
}

// Clientset mirrors kubernetes.Clientset: the discovery client plus one typed client per
// group-version.
type Clientset struct {
	*discovery.DiscoveryClient
	coreV1 *corev1.CoreV1Client
}

var _ Interface = (*Clientset)(nil)

// CoreV1 mirrors Clientset.CoreV1.
func (c *Clientset) CoreV1() corev1.CoreV1Interface { return c.coreV1 }

// Discovery mirrors Clientset.Discovery.
func (c *Clientset) Discovery() discovery.DiscoveryInterface {
	if c == nil {
		return nil
	}
	return c.DiscoveryClient
}

// NewForConfig mirrors kubernetes.NewForConfig: a clientset for the server cfg names. cfg is
// copied, so the caller may change it afterwards.
func NewForConfig(cfg *rest.Config) (*Clientset, error) {
	if cfg == nil {
		return nil, errors.New("kubernetes: NewForConfig needs a Config")
	}
	config := *cfg
	if config.Transport == nil {
		// One transport for every group-version client, as client-go shares one http.Client.
		rc, err := rest.RESTClientFor(&config)
		if err != nil {
			return nil, err
		}
		config.Transport = rc.Transport()
	}
	core, err := corev1.NewForConfig(&config)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(&config)
	if err != nil {
		return nil, err
	}
	return &Clientset{DiscoveryClient: disc, coreV1: core}, nil
}

// New mirrors kubernetes.New: a clientset over an existing REST client, which must decode
// typed kinds (api.DefaultScheme) and address the core group.
func New(c *rest.RESTClient) *Clientset {
	return &Clientset{DiscoveryClient: discovery.NewDiscoveryClient(c), coreV1: corev1.New(c)}
}

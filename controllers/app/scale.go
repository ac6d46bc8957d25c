package app

import (
	"context"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/client/restmapper"
)

// Scale mirrors autoscalingv1.Scale (its JSON shape): what the scale subresource of a
// workload says.
type Scale struct {
	APIVersion string         `json:"apiVersion,omitempty"`
	Kind       string         `json:"kind,omitempty"`
	Metadata   api.ObjectMeta `json:"metadata"`
	Spec       struct {
		Replicas int32 `json:"replicas"`
	} `json:"spec"`
	Status struct {
		Replicas int32  `json:"replicas"`
		Selector string `json:"selector,omitempty"`
	} `json:"status"`
}

// ScaleClient mirrors k8s.io/client-go/scale's ScalesGetter with the discovery-backed REST
// mapper kube-controller-manager gives it: it reads and writes the scale subresource of any
// kind that has one, found by its apiVersion and kind.
type ScaleClient struct {
	cc     *ControllerContext
	mu     sync.Mutex
	mapper *restmapper.DiscoveryRESTMapper
}

// NewScaleClient mirrors scale.New with a deferred discovery REST mapper: discovery runs at
// the first lookup.
func NewScaleClient(cc *ControllerContext) *ScaleClient { return &ScaleClient{cc: cc} }

// ResourceFor mirrors RESTMapper.RESTMapping's resource: it maps apiVersion and kind to the resource that serves them, asking discovery
// again once when the kind is not known (a CRD created since).
func (s *ScaleClient) ResourceFor(ctx context.Context, apiVersion, kind string) (api.GroupVersionResource, error) {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	gk := api.GroupKind{Group: group, Kind: kind}
	for attempt := 0; ; attempt++ {
		s.mu.Lock()
		m := s.mapper
		s.mu.Unlock()
		if m == nil || attempt > 0 {
			dc, err := discovery.NewDiscoveryClientForConfig(s.cc.Config)
			if err != nil {
				return api.GroupVersionResource{}, err
			}
			if m, err = restmapper.NewDiscoveryRESTMapperForClient(ctx, dc); err != nil {
				return api.GroupVersionResource{}, err
			}
			s.mu.Lock()
			s.mapper = m
			s.mu.Unlock()
		}
		mapping, err := m.RESTMapping(gk, version)
		if err == nil {
			return mapping.Resource, nil
		}
		if attempt > 0 {
			return api.GroupVersionResource{}, err
		}
	}
}

// Get mirrors ScaleInterface.Get: the Scale of the named object of apiVersion and kind.
func (s *ScaleClient) Get(ctx context.Context, namespace, apiVersion, kind, name string) (*Scale, api.GroupVersionResource, error) {
	gvr, err := s.ResourceFor(ctx, apiVersion, kind)
	if err != nil {
		return nil, gvr, err
	}
	u, err := s.cc.Client.Resource(gvr).Namespace(namespace).Get(ctx, name, api.GetOptions{}, "scale")
	if err != nil {
		return nil, gvr, err
	}
	sc, err := FromUnstructured[Scale](u)
	return sc, gvr, err
}

// Update mirrors ScaleInterface.Update: write sc (as read by Get, with a new spec.replicas).
func (s *ScaleClient) Update(ctx context.Context, gvr api.GroupVersionResource, sc *Scale) (*Scale, error) {
	u, err := ToUnstructured(sc)
	if err != nil {
		return nil, err
	}
	out, err := s.cc.Client.Resource(gvr).Namespace(sc.Metadata.Namespace).Update(ctx, u, api.UpdateOptions{}, "scale")
	if err != nil {
		return nil, err
	}
	return FromUnstructured[Scale](out)
}

package informer

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

// GenericInformer mirrors informers.GenericInformer: an informer and a lister that hands out
// api.Object.
type GenericInformer interface {
	Informer() SharedIndexInformer
	Lister() store.GenericLister
}

type genericInformer struct {
	informer SharedIndexInformer
	resource api.GroupResource
}

func (g *genericInformer) Informer() SharedIndexInformer { return g.informer }
func (g *genericInformer) Lister() store.GenericLister {
	return store.NewGenericLister(g.informer.GetIndexer(), g.resource)
}

// builtin describes a kind the factory knows the Go type of.
type builtin struct {
	example    api.Object
	namespaced bool
}

var (
	podsGVR       = api.GroupVersionResource{Version: "v1", Resource: "pods"}
	configMapsGVR = api.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	namespacesGVR = api.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	nodesGVR      = api.GroupVersionResource{Version: "v1", Resource: "nodes"}
)

var builtins = map[api.GroupVersionResource]builtin{
	podsGVR:       {example: &api.Pod{}, namespaced: true},
	configMapsGVR: {example: &api.ConfigMap{}, namespaced: true},
	namespacesGVR: {example: &api.Namespace{}, namespaced: false},
	nodesGVR:      {example: &api.Node{}, namespaced: false},
}

// ForResource mirrors sharedInformerFactory.ForResource. Pods, configmaps, namespaces and
// nodes get their typed informer (the same one Core().V1() returns for the first three). Any
// other resource gets an informer of *api.Unstructured objects, namespaced, shared per
// resource: ours, not client-go's, whose typed factory answers "no informer found" and leaves
// custom resources to the dynamicinformer package.
func (f *sharedInformerFactory) ForResource(gvr api.GroupVersionResource) (GenericInformer, error) {
	if gvr.Version == "" || gvr.Resource == "" {
		return nil, fmt.Errorf("no informer found for %+v: version and resource are required", gvr)
	}
	if b, ok := builtins[gvr]; ok && !f.dynamic {
		inf := f.InformerFor(b.example, f.newInformerFor(gvr, b.example, b.namespaced))
		return &genericInformer{informer: inf, resource: gvr.GroupResource()}, nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	inf, ok := f.generic[gvr]
	if !ok {
		inf = f.newInformerFor(gvr, &api.Unstructured{}, true)(f.source, f.defaultResync)
		if f.transform != nil {
			_ = inf.SetTransform(f.transform)
		}
		f.generic[gvr] = inf
	}
	return &genericInformer{informer: inf, resource: gvr.GroupResource()}, nil
}

// CoreInterface mirrors the generated informers/core.Interface.
type CoreInterface interface{ V1() CoreV1Interface }

// CoreV1Interface mirrors the generated informers/core/v1.Interface for our three kinds.
type CoreV1Interface interface {
	Pods() PodInformer
	ConfigMaps() ConfigMapInformer
	Namespaces() NamespaceInformer
}

// PodInformer mirrors the generated v1.PodInformer.
type PodInformer interface {
	Informer() SharedIndexInformer
	Lister() store.ResourceIndexer[*api.Pod]
}

// ConfigMapInformer mirrors the generated v1.ConfigMapInformer.
type ConfigMapInformer interface {
	Informer() SharedIndexInformer
	Lister() store.ResourceIndexer[*api.ConfigMap]
}

// NamespaceInformer mirrors the generated v1.NamespaceInformer.
type NamespaceInformer interface {
	Informer() SharedIndexInformer
	Lister() store.ResourceIndexer[*api.Namespace]
}

// Core mirrors sharedInformerFactory.Core.
func (f *sharedInformerFactory) Core() CoreInterface { return coreGroup{f} }

type coreGroup struct{ f *sharedInformerFactory }

func (c coreGroup) V1() CoreV1Interface { return c }
func (c coreGroup) Pods() PodInformer {
	return typedInformer[*api.Pod]{c.f, podsGVR}
}
func (c coreGroup) ConfigMaps() ConfigMapInformer {
	return typedInformer[*api.ConfigMap]{c.f, configMapsGVR}
}
func (c coreGroup) Namespaces() NamespaceInformer {
	return typedInformer[*api.Namespace]{c.f, namespacesGVR}
}

// typedInformer is one generated per-kind informer, written once with generics.
type typedInformer[T api.Object] struct {
	f   *sharedInformerFactory
	gvr api.GroupVersionResource
}

func (t typedInformer[T]) Informer() SharedIndexInformer {
	b := builtins[t.gvr]
	return t.f.InformerFor(b.example, t.f.newInformerFor(t.gvr, b.example, b.namespaced))
}

func (t typedInformer[T]) Lister() store.ResourceIndexer[T] {
	return store.NewResourceIndexer[T](t.Informer().GetIndexer(), t.gvr.GroupResource())
}

package store

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
)

// AppendFunc mirrors cache.AppendFunc in client-go tools/cache/listers.go.
type AppendFunc func(any)

// ListAll mirrors cache.ListAll (L-1): a selector that matches nothing yields nothing, an
// empty selector yields every item without reading labels, and any other selector is matched
// against each item's labels.
func ListAll(store Store, selector labels.Selector, appendFn AppendFunc) error {
	if labels.MatchesNothing(selector) {
		return nil
	}
	return appendMatching(store.List(), selector, appendFn)
}

// ListAllByNamespace mirrors cache.ListAllByNamespace (L-2): namespace "" means all
// namespaces; otherwise the NamespaceIndex narrows the scan. Without that index it still
// works, by filtering a full List (client-go logs a warning there; a listener that wants to
// know can check GetIndexers).
func ListAllByNamespace(indexer Indexer, namespace string, selector labels.Selector, appendFn AppendFunc) error {
	if labels.MatchesNothing(selector) {
		return nil
	}
	if namespace == "" {
		return ListAll(indexer, selector, appendFn)
	}
	items, err := indexer.Index(NamespaceIndex, &api.ObjectMeta{Namespace: namespace})
	if err == nil {
		return appendMatching(items, selector, appendFn)
	}
	for _, obj := range indexer.List() {
		m, err := api.Accessor(obj)
		if err != nil {
			return err
		}
		if m.GetNamespace() == namespace && selector.Matches(labels.Set(m.GetLabels())) {
			appendFn(obj)
		}
	}
	return nil
}

func appendMatching(items []any, selector labels.Selector, appendFn AppendFunc) error {
	all := selector.Empty()
	for _, obj := range items {
		if all {
			appendFn(obj)
			continue
		}
		m, err := api.Accessor(obj)
		if err != nil {
			return err
		}
		if selector.Matches(labels.Set(m.GetLabels())) {
			appendFn(obj)
		}
	}
	return nil
}

// ResourceIndexer mirrors listers.ResourceIndexer[T] in client-go listers/generic_helpers.go,
// the typed lister behind every generated one (PodLister, ConfigMapLister, …). It reads only
// the local cache and never calls the server (L-3). Its objects are the cache's own: never
// mutate them, DeepCopy first.
type ResourceIndexer[T api.Object] struct {
	indexer   Indexer
	resource  api.GroupResource
	namespace string // "" lists every namespace and Gets cluster-scoped keys
}

// NewResourceIndexer mirrors listers.New[T].
func NewResourceIndexer[T api.Object](indexer Indexer, resource api.GroupResource) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// ByNamespace mirrors a generated lister's Pods(namespace) and listers.NewNamespaced[T]: the
// same lister, narrowed to one namespace.
func (l ResourceIndexer[T]) ByNamespace(namespace string) ResourceIndexer[T] {
	l.namespace = namespace
	return l
}

// List mirrors ResourceIndexer.List: the cached objects matching selector, in no set order.
func (l ResourceIndexer[T]) List(selector labels.Selector) ([]T, error) {
	var out []T
	var convErr error
	appendFn := func(obj any) {
		t, ok := obj.(T)
		if !ok {
			if convErr == nil {
				convErr = fmt.Errorf("lister for %s: cached object is a %T", l.resource, obj)
			}
			return
		}
		out = append(out, t)
	}
	if err := ListAllByNamespace(l.indexer, l.namespace, selector, appendFn); err != nil {
		return nil, err
	}
	return out, convErr
}

// Get mirrors ResourceIndexer.Get: the key is "namespace/name" when the lister is narrowed to a
// namespace and "name" otherwise; a missing object gives a NotFound Status (L-3).
func (l ResourceIndexer[T]) Get(name string) (T, error) {
	var zero T
	key := ObjectName{Namespace: l.namespace, Name: name}.String()
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, api.NewNotFound(l.resource, name)
	}
	t, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("lister for %s: cached object %q is a %T", l.resource, key, obj)
	}
	return t, nil
}

// GenericLister mirrors cache.GenericLister: a lister that hands out api.Object, for code that
// does not know the kind (the dynamic informer, the factory's ForResource).
type GenericLister interface {
	List(selector labels.Selector) ([]api.Object, error)
	Get(name string) (api.Object, error)
	ByNamespace(namespace string) GenericNamespaceLister
}

// GenericNamespaceLister mirrors cache.GenericNamespaceLister.
type GenericNamespaceLister interface {
	List(selector labels.Selector) ([]api.Object, error)
	Get(name string) (api.Object, error)
}

// NewGenericLister mirrors cache.NewGenericLister.
func NewGenericLister(indexer Indexer, resource api.GroupResource) GenericLister {
	return genericLister{NewResourceIndexer[api.Object](indexer, resource)}
}

// genericLister adapts ResourceIndexer[api.Object], whose ByNamespace returns its own type, to
// the GenericLister interface.
type genericLister struct {
	ResourceIndexer[api.Object]
}

func (g genericLister) ByNamespace(namespace string) GenericNamespaceLister {
	return g.ResourceIndexer.ByNamespace(namespace)
}

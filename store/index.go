package store

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// Indexer mirrors cache.Indexer in client-go tools/cache/index.go: a Store that also keeps
// secondary indices, so that "all pods on node n" is a map lookup instead of a scan.
type Indexer interface {
	Store
	// Index returns the objects sharing at least one indexed value with obj (TS-8).
	Index(indexName string, obj any) ([]any, error)
	// IndexKeys returns the sorted keys filed under indexedValue (TS-10).
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// ListIndexFuncValues returns every value that currently has at least one key (TS-3, TS-11).
	ListIndexFuncValues(indexName string) []string
	// ByIndex returns the objects filed under indexedValue (TS-9).
	ByIndex(indexName, indexedValue string) ([]any, error)
	// GetIndexers returns the live map of index functions (TS-13).
	GetIndexers() Indexers
	// AddIndexers adds index functions and indexes the items already stored (TS-12).
	AddIndexers(newIndexers Indexers) error
}

// IndexFunc mirrors cache.IndexFunc: it computes the values under which an object is filed.
// Several values file the object several times (a multi-valued index).
type IndexFunc func(obj any) ([]string, error)

// Indexers mirrors cache.Indexers: index name → index function.
type Indexers map[string]IndexFunc

// Indices mirrors cache.Indices: index name → Index.
type Indices map[string]Index

// Index mirrors cache.Index: indexed value → the set of store keys filed under it.
type Index map[string]KeySet

// KeySet is a set of store keys; client-go uses sets.Set[string] from apimachinery.
type KeySet map[string]struct{}

// NamespaceIndex mirrors cache.NamespaceIndex, the index name listers look for.
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc mirrors cache.MetaNamespaceIndexFunc: it files an object under its
// namespace.
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	m, err := api.Accessor(obj)
	if err != nil {
		return []string{""}, fmt.Errorf("object has no meta: %w", err)
	}
	return []string{m.GetNamespace()}, nil
}

// IndexFuncToKeyFuncAdapter mirrors cache.IndexFuncToKeyFuncAdapter: it turns an index function
// that yields exactly one value into a KeyFunc.
func IndexFuncToKeyFuncAdapter(indexFunc IndexFunc) KeyFunc {
	return func(obj any) (string, error) {
		values, err := indexFunc(obj)
		if err != nil {
			return "", err
		}
		if len(values) > 1 {
			return "", fmt.Errorf("too many keys: %v", values)
		}
		if len(values) == 0 {
			return "", fmt.Errorf("unexpected empty indexKeys")
		}
		return values[0], nil
	}
}

package store

import (
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// KeyFunc mirrors cache.KeyFunc in client-go tools/cache/store.go: it names the slot an object
// occupies in a store. It must be deterministic.
type KeyFunc func(obj any) (string, error)

// KeyError mirrors cache.KeyError: the object whose key could not be computed, and why.
type KeyError struct {
	Obj any
	Err error
}

// Error mirrors KeyError.Error.
func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

// Unwrap mirrors KeyError.Unwrap, so errors.Is and errors.As see the cause.
func (k KeyError) Unwrap() error { return k.Err }

// ExplicitKey mirrors cache.ExplicitKey: a key passed where an object is expected, when only
// the key is known (a tombstone, a workqueue item).
type ExplicitKey string

// MetaNamespaceKeyFunc mirrors cache.MetaNamespaceKeyFunc (K-1): an ExplicitKey is returned as
// is; otherwise the key is "namespace/name", or "name" when the namespace is empty. An object
// without metadata gives an error, never a panic.
func MetaNamespaceKeyFunc(obj any) (string, error) {
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	n, err := ObjectToName(obj)
	if err != nil {
		return "", err
	}
	return n.String(), nil
}

// ObjectToName mirrors cache.ObjectToName.
func ObjectToName(obj any) (ObjectName, error) {
	m, err := api.Accessor(obj)
	if err != nil {
		return ObjectName{}, fmt.Errorf("object has no meta: %w", err)
	}
	return ObjectName{Namespace: m.GetNamespace(), Name: m.GetName()}, nil
}

// SplitMetaNamespaceKey mirrors cache.SplitMetaNamespaceKey (K-2): one part is a name, two are
// namespace and name, more is an error. The empty string splits into ("", "").
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	ns, name, found := strings.Cut(key, "/")
	if !found {
		return "", key, nil
	}
	if strings.Contains(name, "/") {
		return "", "", fmt.Errorf("unexpected key format: %q", key)
	}
	return ns, name, nil
}

package typed

import (
	"fmt"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// The type models of built-in kinds, from the embedded OpenAPI v3 documents: one Model per
// group-version document, one root Atom per kind, each built once.
var (
	builtinMu     sync.Mutex
	builtinModels = map[string]*Model{}
	builtinKinds  = map[builtinKey]*Atom{}
)

type builtinKey struct {
	gvk api.GroupVersionKind
	doc string
}

// documentPath is where kube-apiserver serves a group-version's OpenAPI v3 document.
func documentPath(gv string) string {
	g, v := api.ParseAPIVersion(gv)
	if g == "" {
		return "api/" + v
	}
	return "apis/" + g + "/" + v
}

// ForBuiltin returns the type of a built-in kind, as kube-apiserver's type converter has it
// (managedfields.NewTypeConverter over the kind's OpenAPI definitions, unknown fields not
// kept). docVersion is the group-version whose document holds the kind; "" means the kind's
// own (autoscaling/v1 Scale of apps/v1 deployments/scale lives in apps/v1's).
func ForBuiltin(gvk api.GroupVersionKind, docVersion string) (*Atom, error) {
	if docVersion == "" {
		docVersion = gvk.APIVersion()
	}
	builtinMu.Lock()
	if a, ok := builtinKinds[builtinKey{gvk, docVersion}]; ok {
		builtinMu.Unlock()
		return a, nil
	}
	m := builtinModels[docVersion]
	builtinMu.Unlock()
	if m == nil {
		doc, ok := schema.Document(documentPath(docVersion))
		if !ok {
			return nil, fmt.Errorf("no OpenAPI document for %s", docVersion)
		}
		var err error
		if m, err = NewModelFromDocument(doc); err != nil {
			return nil, err
		}
		builtinMu.Lock()
		if prev := builtinModels[docVersion]; prev != nil {
			m = prev
		} else {
			builtinModels[docVersion] = m
		}
		builtinMu.Unlock()
	}
	a, err := m.ForKind(gvk.Group, gvk.Version, gvk.Kind)
	if err != nil {
		return nil, err
	}
	builtinMu.Lock()
	builtinKinds[builtinKey{gvk, docVersion}] = a
	builtinMu.Unlock()
	return a, nil
}

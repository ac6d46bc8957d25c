package typed

import (
	"fmt"
	"strings"
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
	// builtinVersions caches BuiltinVersions by group/kind.
	builtinVersions = map[string][]string{}
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

// ForBuiltin mirrors TypeConverter.ObjectToTyped's parser lookup for a built-in kind: its type, as kube-apiserver's type converter has it
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

// BuiltinVersions mirrors the versions the scheme registers for a kind: the group-versions ("apps/v1") whose embedded documents declare
// group's kind: the versions kube-apiserver's scheme can convert a built-in object to.
// A managedFields entry at any other apiVersion is dropped, as the version converter's
// missing-version error drops it upstream.
func BuiltinVersions(group, kind string) []string {
	key := group + "/" + kind
	builtinMu.Lock()
	if v, ok := builtinVersions[key]; ok {
		builtinMu.Unlock()
		return v
	}
	builtinMu.Unlock()
	var out []string
	for _, p := range schema.Paths() {
		parts := strings.Split(p, "/")
		var gv api.GroupVersionKind
		switch {
		case len(parts) == 2 && parts[0] == "api":
			gv = api.GroupVersionKind{Version: parts[1]}
		case len(parts) == 3 && parts[0] == "apis":
			gv = api.GroupVersionKind{Group: parts[1], Version: parts[2]}
		default:
			continue
		}
		if gv.Group != group {
			continue
		}
		gv.Kind = kind
		if _, ok := schema.ForKind(gv); ok {
			out = append(out, gv.APIVersion())
		}
	}
	builtinMu.Lock()
	builtinVersions[key] = out
	builtinMu.Unlock()
	return out
}

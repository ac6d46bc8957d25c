package ssacheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
	smdtyped "sigs.k8s.io/structured-merge-diff/v6/typed"
)

// documentsDir holds the OpenAPI v3 documents the main module embeds, the ones the
// reference server publishes (tools/cmd/openapi-gen checks them against it).
const documentsDir = "../../../apiserver/internal/schema/openapi"

// oracle is the real implementation: one type converter per group-version document, as
// kube-apiserver builds one over its resources' definitions, and a scheme of the Go types.
type oracle struct {
	scheme     *runtime.Scheme
	converters map[string]managedfields.TypeConverter // by group-version
	schemas    map[string]map[string]*spec.Schema     // by group-version
	kinds      []schema.GroupVersionKind

	mu       sync.Mutex
	managers map[managerKey]*managedfields.FieldManager
}

type managerKey struct {
	gvk         schema.GroupVersionKind
	subresource string
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

func newOracle() (*oracle, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientscheme.AddToScheme, apiextensionsv1.AddToScheme, apiregistrationv1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	o := &oracle{scheme: s, converters: map[string]managedfields.TypeConverter{}, schemas: map[string]map[string]*spec.Schema{}, managers: map[managerKey]*managedfields.FieldManager{}}
	files, err := filepath.Glob(filepath.Join(documentsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	seen := map[schema.GroupVersionKind]bool{}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		if !strings.HasPrefix(base, "api") {
			continue // swagger-only, custom-resource
		}
		parts := strings.Split(base, "__")
		gv := parts[len(parts)-1]
		if parts[0] == "apis" {
			gv = parts[1] + "/" + parts[2]
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var doc spec3.OpenAPI
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		tc, err := managedfields.NewTypeConverter(doc.Components.Schemas, false)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		o.converters[gv] = tc
		o.schemas[gv] = doc.Components.Schemas
		for _, sch := range doc.Components.Schemas {
			gvks, _ := sch.Extensions["x-kubernetes-group-version-kind"].([]any)
			for _, g := range gvks {
				m, _ := g.(map[string]any)
				gvk := schema.GroupVersionKind{Group: fmt.Sprint(m["group"]), Version: fmt.Sprint(m["version"]), Kind: fmt.Sprint(m["kind"])}
				if gvk.GroupVersion().String() != gv || seen[gvk] || strings.HasSuffix(gvk.Kind, "List") {
					continue
				}
				switch gvk.Kind {
				case "WatchEvent", "DeleteOptions", "Status", "APIResourceList":
					continue
				}
				if _, err := s.New(gvk); err != nil {
					continue
				}
				seen[gvk] = true
				o.kinds = append(o.kinds, gvk)
			}
		}
	}
	sort.Slice(o.kinds, func(i, j int) bool { return o.kinds[i].String() < o.kinds[j].String() })
	return o, nil
}

// manager is kube-apiserver's field manager for a kind's main resource ("") or a
// subresource (without the strategy's reset fields: the library is compared, not a
// strategy).
func (o *oracle) manager(gvk schema.GroupVersionKind, subresource string) (*managedfields.FieldManager, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if f, ok := o.managers[managerKey{gvk, subresource}]; ok {
		return f, nil
	}
	tc := o.converters[gvk.GroupVersion().String()]
	if tc == nil {
		return nil, fmt.Errorf("no type converter for %v", gvk)
	}
	f, err := managedfields.NewDefaultFieldManager(tc, o.scheme, noDefaults{}, o.scheme, gvk, gvk.GroupVersion(), subresource, nil)
	if err != nil {
		return nil, err
	}
	o.managers[managerKey{gvk, subresource}] = f
	return f, nil
}

// typedOf decodes JSON into the kind's Go type, as storage and request decoding hold it.
func (o *oracle) typedOf(gvk schema.GroupVersionKind, data []byte) (runtime.Object, error) {
	obj, err := o.scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, obj); err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, nil
}

// unstructuredOf is the Go object as the unstructured converter gives it, and its
// managedFields entries apart (with FieldsV1 bytes as stored).
func unstructuredOf(obj runtime.Object) (map[string]any, []metav1.ManagedFieldsEntry, error) {
	acc, err := metaAccessor(obj)
	if err != nil {
		return nil, nil, err
	}
	entries := acc.GetManagedFields()
	c := obj.DeepCopyObject()
	acc2, _ := metaAccessor(c)
	acc2.SetManagedFields(nil)
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(c)
	return u, entries, err
}

func metaAccessor(obj runtime.Object) (metav1.Object, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u, nil
	}
	m, ok := obj.(metav1.ObjectMetaAccessor)
	if !ok {
		return nil, fmt.Errorf("%T has no ObjectMeta", obj)
	}
	return m.GetObjectMeta(), nil
}

// view is the object as the type converter hands it to structured-merge-diff: the Go value
// read by reflection, so empty lists and maps a request sent stay, and members without
// omitempty appear with their zero value. It is what a server must give the field manager.
func (o *oracle) view(gvk schema.GroupVersionKind, obj runtime.Object) (map[string]any, error) {
	tc := o.converters[gvk.GroupVersion().String()]
	tv, err := tc.ObjectToTyped(obj, smdtyped.AllowDuplicates)
	if err != nil {
		return nil, err
	}
	u, _ := tv.AsValue().Unstructured().(map[string]any)
	return u, nil
}

// stored is obj after a trip through storage: JSON and back into the Go type.
func (o *oracle) stored(gvk schema.GroupVersionKind, obj runtime.Object) (runtime.Object, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return o.typedOf(gvk, b)
}

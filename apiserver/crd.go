package apiserver

import (
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
)

// CustomResourceDefinitions: apiextensions.k8s.io/v1 is a built-in kind whose
// writes do what the controllers of k8s.io/apiextensions-apiserver do, at once and in the
// same write: a valid CRD is created with NamesAccepted and Established already True and
// its resource registered (crdHandler, NamingConditionController,
// EstablishingController); an update swaps the schema, columns and scale paths its objects
// are served with; a delete removes every object of the resource (each a DELETED event),
// ends its watches after those events, and takes it out of discovery and OpenAPI
// (crdFinalizer). Custom objects are decoded, pruned, defaulted and validated against the
// served version's structural schema (internal/structural). The registry does the
// writes (internal/registry: crd.go, apiextensions); the endpoints here decode, print and
// publish custom objects.
//
// Deviations: every served version is served with the None strategy (crd_versions.go) and
// with the storage version's schema, columns and subresources. A plural that a built-in (or
// Go-registered) resource of the same group already serves is refused with 422, where the
// real server accepts the CRD and leaves it shadowed. Short names, categories, subresources
// and the storage version are read when the CRD is created: an update changes the schema,
// the columns, the scale paths and the set of served versions.

// decodeCustom reads the body of a custom object as the custom resource handler does: JSON
// into an Unstructured, unknown fields pruned (a warning each, or under Strict a 400), then
// the schema's defaults.
func (s *endpoints) decodeCustom(res *resource, cs *apiextensions.Serving, body []byte, fieldValidation string) (*api.Unstructured, []string, error) {
	gvk := res.Info.GVK()
	obj, warnings, err := decode.Body(nil, body, gvk, fieldValidation)
	if err != nil {
		return nil, nil, err
	}
	u, ok := obj.(*api.Unstructured)
	if !ok {
		return nil, nil, api.NewInternalError(fmt.Errorf("decoded a %T", obj))
	}
	u.SetGroupVersionKind(gvk)
	pruned := structural.Prune(u.Object, cs.Schema)
	if len(pruned) > 0 {
		switch fieldValidation {
		case api.FieldValidationStrict:
			return nil, nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
				gvk.Kind, gvk.Version, gvk.Kind, strings.Join(pruned, ", ")))
		case api.FieldValidationIgnore:
		default:
			warnings = append(warnings, pruned...)
		}
	}
	structural.Default(u.Object, cs.Schema)
	return u, warnings, nil
}

// columnPath splits a scale path (".spec.replicas") into member names.
func columnPath(p string) []string {
	parts, err := printers.ParseColumnPath(p)
	if err != nil {
		return nil
	}
	return parts
}

// customScaleOf is the Scale view of a custom object, read at the CRD's scale paths.
func customScaleOf(sc *apiextensions.Scale, obj *api.Unstructured) (replicas, statusReplicas int64, selector string) {
	if p := columnPath(sc.SpecReplicasPath); p != nil {
		replicas, _ = nestedInt(obj.Object, p...)
	}
	if p := columnPath(sc.StatusReplicasPath); p != nil {
		statusReplicas, _ = nestedInt(obj.Object, p...)
	}
	if p := columnPath(sc.LabelSelectorPath); p != nil {
		selector, _, _ = api.NestedString(obj.Object, p...)
	}
	return replicas, statusReplicas, selector
}

// crdCacheKey is what a group-version's OpenAPI document depends on beyond its resource
// names: the CRDs it was built from.
func (s *endpoints) crdCacheKey(group, version string) string {
	var b strings.Builder
	for _, r := range s.table.ByGV(group, version) {
		if cs := r.CRD.Load(); cs != nil {
			b.WriteString("|" + cs.Key)
		}
	}
	return b.String()
}

// printerFor is the table layout of a resource: a custom resource's columns, else the
// built-in printer (printers.For).
func printerFor(res *resource) *printers.Printer {
	if cs := res.CRD.Load(); cs != nil {
		return cs.Printer
	}
	return printers.For(res.Info.Group, res.Info.Kind, res.Builtin)
}

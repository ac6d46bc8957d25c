package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural/schemacel"
)

// The CEL interpreter compiles and runs the x-kubernetes-validations rules of every CRD.
func init() { structural.Rules = schemacel.Compiler{} }

// CustomResourceDefinitions: apiextensions.k8s.io/v1 is a built-in kind whose writes do
// what the controllers of k8s.io/apiextensions-apiserver do, in the same transaction, each
// a write of its own (internal/registry/crd.go): a valid CRD gets its accepted names and
// NamesAccepted, then Established, and its resource is registered at every served version;
// an update swaps the schemas, columns and subresources its objects are served with; a
// delete marks it, removes every object of the resource (each a DELETED event), ends its
// watches, takes it out of discovery and OpenAPI, and then deletes it. The endpoints here
// decode, convert, print and publish custom objects.
//
// A custom object written at a version is decoded as the custom resource handler decodes
// it with that version's schema: pruned (a warning each, or under Strict a 400), embedded
// resources' metadata coerced, defaulted; then converted to the storage version (None: its
// apiVersion; Webhook: a ConversionReview, crd_versions.go) and stored. Deviations: that
// object is then validated with the storage version's schema (the real server validates it
// at the version written), a patch at another version applies to the stored object, and
// the cells of a Table are printed from the stored objects.

// decodeCustom reads the body of a custom object as the custom resource handler does, at
// version (the one the request names; "" takes the body's apiVersion, for a patched
// object), and returns it at the storage version.
func (s *endpoints) decodeCustom(res *resource, cs *apiextensions.Serving, version string, body []byte, fieldValidation string) (*api.Unstructured, []string, error) {
	gvk := res.Info.GVK()
	if version == "" {
		version = bodyVersion(body, res.Info.Group, cs)
	}
	if version != "" {
		gvk.Version = version
	}
	obj, warnings, err := decode.Body(nil, body, gvk, fieldValidation)
	if err != nil {
		return nil, nil, err
	}
	u, ok := obj.(*api.Unstructured)
	if !ok {
		return nil, nil, api.NewInternalError(fmt.Errorf("decoded a %T", obj))
	}
	u.SetGroupVersionKind(gvk)
	vs := cs.Version(gvk.Version)
	var sch *structural.Schema
	if vs != nil {
		sch = vs.Schema
	}
	unknown, err := structural.CoerceObjectMeta(u.Object)
	if err != nil {
		return nil, nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, err))
	}
	unknown = append(unknown, structural.Prune(u.Object, sch, true)...)
	structural.PruneNulls(u.Object, sch)
	embedded, cerr := structural.Coerce(u.Object, sch)
	if cerr != nil {
		return nil, nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s: %s",
			gvk.Kind, gvk.Version, gvk.Kind, cerr.Field, cerr.Message))
	}
	unknown = append(unknown, embedded...)
	if len(unknown) > 0 {
		texts := make([]string, len(unknown))
		for i, p := range unknown {
			texts[i] = "unknown field " + strconv.Quote(p)
		}
		switch fieldValidation {
		case api.FieldValidationStrict:
			return nil, nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
				gvk.Kind, gvk.Version, gvk.Kind, strings.Join(texts, ", ")))
		case api.FieldValidationIgnore:
		default:
			warnings = append(warnings, texts...)
		}
	}
	structural.Default(u.Object, sch)
	if to := storedAPIVersion(res, cs); to != u.GetAPIVersion() {
		gvkText := gvk.Group + "/" + gvk.Version + ", Kind=" + gvk.Kind
		out, err := cs.Converter.Convert(context.Background(), []map[string]any{u.Object}, to, gvkText)
		if err != nil {
			return nil, nil, api.NewInternalError(err)
		}
		u.Object = out[0]
		// The storage version's schema prunes what the conversion carried over, silently,
		// as schemaCoercingConverter does after every conversion.
		if svs := cs.Version(cs.Storage); svs != nil {
			structural.Prune(u.Object, svs.Schema, true)
		}
	}
	return u, warnings, nil
}

// bodyVersion is the version a body's apiVersion names, when it is a served version of the
// CRD; "" otherwise.
func bodyVersion(body []byte, group string, cs *apiextensions.Serving) string {
	var head struct {
		APIVersion string `json:"apiVersion"`
	}
	if json.Unmarshal(body, &head) != nil {
		return ""
	}
	g, v, ok := strings.Cut(head.APIVersion, "/")
	if !ok || g != group {
		return ""
	}
	if _, served := cs.Versions[v]; !served {
		return ""
	}
	return v
}

// storedAPIVersion is the apiVersion custom objects are stored at: the storage version's.
func storedAPIVersion(res *resource, cs *apiextensions.Serving) string {
	v := cs.Storage
	if v == "" {
		v = cs.Home
	}
	return res.Info.Group + "/" + v
}

// crdScale is the scale subresource of a custom resource's home version, nil when none.
func crdScale(res *resource) *apiextensions.Scale {
	cs := res.CRD.Load()
	if cs == nil {
		return nil
	}
	if vs := cs.Version(cs.Home); vs != nil && vs.HasScale {
		return vs.Scale
	}
	return nil
}

// scalePath splits a scale path (".spec.replicas") into member names, as the real scale
// subresource does (strings.Split of the path without its leading dot).
func scalePath(p string) []string {
	p = strings.TrimPrefix(p, ".")
	if p == "" {
		return nil
	}
	return strings.Split(p, ".")
}

// customScaleOf is the Scale view of a custom object, read at the CRD's scale paths.
func customScaleOf(sc *apiextensions.Scale, obj *api.Unstructured) (replicas, statusReplicas int64, selector string) {
	if p := scalePath(sc.SpecReplicasPath); p != nil {
		replicas, _ = nestedInt(obj.Object, p...)
	}
	if p := scalePath(sc.StatusReplicasPath); p != nil {
		statusReplicas, _ = nestedInt(obj.Object, p...)
	}
	if sc.LabelSelectorPath != nil {
		if p := scalePath(*sc.LabelSelectorPath); p != nil {
			selector, _, _ = api.NestedString(obj.Object, p...)
		}
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

// printerFor is the table layout of a resource at a version ("" for its own): a custom
// resource's columns, else the built-in printer (printers.For).
func printerFor(res *resource, version string) *printers.Printer {
	if cs := res.CRD.Load(); cs != nil {
		if version == "" {
			version = cs.Home
		}
		if vs := cs.Version(version); vs != nil {
			return vs.Printer
		}
	}
	return printers.For(res.Info.Group, res.Info.Kind, res.Builtin)
}

package apiextensions

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// CustomResourceStrategy mirrors customResourceStrategy of k8s.io/apiextensions-apiserver
// pkg/registry/customresource: the status and scale subresources where the CRD declares
// them, the generation moving on any change outside metadata (and status, with a status
// subresource), conditional updates only, and objects checked against the schema of their
// version, which its CRD's updates swap.
type CustomResourceStrategy struct {
	rest.Base
	serving *atomic.Pointer[Serving]
}

// NewCustomResourceStrategy returns the strategy of a custom resource whose CRD's serving
// state is read from serving at each write.
func NewCustomResourceStrategy(namespaced, status, scale bool, serving *atomic.Pointer[Serving]) CustomResourceStrategy {
	b := rest.Base{Cluster: !namespaced, Status: status, Scale: scale, Generation: true}
	b.SpecChanged = func(old, obj *api.Unstructured) bool { return nonMetadataChanged(old, obj, status) }
	return CustomResourceStrategy{b, serving}
}

// nonMetadataChanged mirrors the generation rule of PrepareForUpdate: everything but
// metadata (and status, when the status subresource owns it) is compared.
func nonMetadataChanged(old, obj *api.Unstructured, status bool) bool {
	strip := func(u *api.Unstructured) map[string]any {
		m := make(map[string]any, len(u.Object))
		for k, v := range u.Object {
			if k != "metadata" && !(status && k == "status") {
				m[k] = v
			}
		}
		return m
	}
	return !reflect.DeepEqual(strip(old), strip(obj))
}

// PrepareForCreate implements rest.Strategy: with a status subresource, only it writes a
// status.
func (s CustomResourceStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	if s.Status {
		delete(obj.Object, "status")
	}
}

// AllowUnconditionalUpdate implements rest.Strategy: an update must carry a resourceVersion.
func (CustomResourceStrategy) AllowUnconditionalUpdate() bool { return false }

// ValidatesUpdateFully implements rest.FullUpdateValidator: ValidateUpdate checks the whole
// object, ratcheting, so the store does not add Validate's causes.
func (CustomResourceStrategy) ValidatesUpdateFully() bool { return true }

// version is the serving of obj's version (the storage one when unknown), nil without a CRD.
func (s CustomResourceStrategy) version(obj *api.Unstructured) *VersionServing {
	cs := s.serving.Load()
	if cs == nil {
		return nil
	}
	v := obj.GetAPIVersion()
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		v = v[i+1:]
	}
	return cs.Version(v)
}

// Validate implements rest.Strategy, as customResourceStrategy.Validate: the schema (as
// kube-openapi checks it), the scale paths, embedded resources, list sets and maps, and the
// x-kubernetes-validations rules when no type error came first.
func (s CustomResourceStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	vs := s.version(obj)
	if vs == nil {
		return nil
	}
	causes := structural.Validator{Schema: vs.Schema}.Validate("", obj.Object)
	causes = append(causes, scaleCauses(obj, vs, true)...)
	causes = append(causes, structural.ValidateEmbedded(obj.Object, vs.Schema)...)
	causes = append(causes, structural.ValidateListSetsAndMaps(vs.Schema, obj.Object)...)
	return append(causes, ruleCauses(vs, obj.Object, nil, causes)...)
}

// ValidateUpdate implements rest.Strategy. A write through the status subresource (nothing
// but the status differs) checks the status alone against properties[status], with field
// paths under status as the status strategy reports them; any other update checks the whole
// object. Both ratchet: errors in parts equal to the stored object are dropped, and so are
// list set and map duplicates the stored object already had.
func (s CustomResourceStrategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	vs := s.version(obj)
	if vs == nil {
		return nil
	}
	var causes []api.StatusCause
	if s.Status && !nonMetadataChanged(old, obj, true) {
		if st, ok := obj.Object["status"]; ok {
			causes = structural.Validator{Schema: vs.Status}.ValidateUpdate("status", st, old.Object["status"])
		}
		causes = append(causes, scaleCauses(obj, vs, false)...)
		// statusStrategy.ValidateUpdate: list sets and maps, then the rules over the whole
		// object, ratcheting (rules on an unchanged spec only warn).
		if len(structural.ValidateListSetsAndMaps(vs.Schema, old.Object)) == 0 {
			causes = append(causes, structural.ValidateListSetsAndMaps(vs.Schema, obj.Object)...)
		}
		return append(causes, ruleCauses(vs, obj.Object, old.Object, causes)...)
	}
	causes = structural.Validator{Schema: vs.Schema}.ValidateUpdate("", obj.Object, old.Object)
	causes = append(causes, scaleCauses(obj, vs, true)...)
	causes = append(causes, structural.ValidateEmbedded(obj.Object, vs.Schema)...)
	if len(structural.ValidateListSetsAndMaps(vs.Schema, old.Object)) == 0 {
		causes = append(causes, structural.ValidateListSetsAndMaps(vs.Schema, obj.Object)...)
	}
	return append(causes, ruleCauses(vs, obj.Object, old.Object, causes)...)
}

// maxStoredBytes is etcd's limit on one request (--max-request-bytes, 1.5 MiB), which a
// custom object or a CRD stored as JSON must fit.
const maxStoredBytes = 1572864

// ValidateLate implements rest.LateValidator: an object too large for etcd is the 500
// the real server answers, "etcdserver: request is too large".
func (CustomResourceStrategy) ValidateLate(obj *api.Unstructured) error {
	return tooLargeForEtcd(obj)
}

// tooLargeForEtcd measures the object's JSON, which the real server measures with its
// managedFields and etcd's framing: close, not to the byte.
func tooLargeForEtcd(obj *api.Unstructured) error {
	data, err := json.Marshal(obj.Object)
	if err != nil || len(data) <= maxStoredBytes {
		return nil
	}
	return &api.Status{TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: api.StatusFailure,
		Code: http.StatusInternalServerError, Message: "etcdserver: request is too large"}
}

// ruleCauses runs the version's x-kubernetes-validations rules, unless an error the rules
// cannot run past has been found (hasBlockingErr: a wrong type, a missing or unsupported
// value, a value too long or a list too long).
func ruleCauses(vs *VersionServing, obj, old map[string]any, found []api.StatusCause) []api.StatusCause {
	if vs.Rules == nil {
		return nil
	}
	for _, c := range found {
		switch c.Type {
		case api.CauseTypeFieldValueNotSupported, api.CauseTypeFieldValueRequired, api.CauseTypeTooLong, api.CauseTypeTooMany, api.CauseTypeTypeInvalid:
			return []api.StatusCause{validation.Invalid("<nil>", nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")}
		}
	}
	var oldAny any
	if old != nil {
		oldAny = old
	}
	return vs.Rules.Validate(obj, oldAny)
}

// scaleCauses mirrors ValidateScaleSpec and ValidateScaleStatus: the replicas at the scale
// paths are non-negative int32 integers, the label selector a string.
func scaleCauses(obj *api.Unstructured, vs *VersionServing, spec bool) []api.StatusCause {
	sc := vs.Scale
	if sc == nil || !vs.HasScale {
		return nil
	}
	var causes []api.StatusCause
	replicas := func(p string) {
		n, err := nestedInt64(obj.Object, p)
		switch {
		case err != nil:
			causes = append(causes, validation.Invalid(p, n, err.Error()))
		case n < 0:
			causes = append(causes, validation.Invalid(p, n, "should be a non-negative integer"))
		case n > math.MaxInt32:
			causes = append(causes, validation.Invalid(p, n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
		}
	}
	if spec {
		replicas(sc.SpecReplicasPath)
	}
	replicas(sc.StatusReplicasPath)
	if sc.LabelSelectorPath != nil {
		if _, err := nestedValue(obj.Object, *sc.LabelSelectorPath, "string"); err != nil {
			causes = append(causes, validation.Invalid(*sc.LabelSelectorPath, "", err.Error()))
		}
	}
	return causes
}

// nestedValue mirrors unstructured.NestedFieldNoCopy with a type check: the value at a
// dotted path, nil when absent, or the accessor error.
func nestedValue(obj map[string]any, path, want string) (any, error) {
	fields := strings.Split(strings.TrimPrefix(path, "."), ".")
	var cur any = obj
	for i, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", "."+strings.Join(fields[:i], "."), cur, cur)
		}
		if cur, ok = m[f]; !ok {
			return nil, nil
		}
	}
	typeName := map[string]string{"string": "string", "int64": "int64"}[want]
	switch cur.(type) {
	case string:
		if want == "string" {
			return cur, nil
		}
	case int64:
		if want == "int64" {
			return cur, nil
		}
	}
	return nil, fmt.Errorf("%v accessor error: %v is of the type %T, expected %s", "."+strings.Join(fields, "."), cur, cur, typeName)
}

func nestedInt64(obj map[string]any, path string) (int64, error) {
	v, err := nestedValue(obj, path, "int64")
	if err != nil || v == nil {
		return 0, err
	}
	return v.(int64), nil
}

package core

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// limitRangeStrategy mirrors pkg/registry/core/limitrange/strategy.go. Surprising: a
// LimitRange sent without a name (and without generateName) is not refused, it is named with
// a fresh UUID; and a PUT of a missing one creates it.
type limitRangeStrategy struct{ rest.Base }

// PrepareForCreate implements rest.Strategy.
func (limitRangeStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	if obj.GetName() == "" {
		obj.SetName(newUUID())
	}
}

// AllowCreateOnUpdate implements rest.Strategy.
func (limitRangeStrategy) AllowCreateOnUpdate() bool { return true }

// Canonicalize implements rest.Strategy: spec and its limits are always written out.
func (limitRangeStrategy) Canonicalize(obj *api.Unstructured) {
	rest.EnsureMember(obj.Object, nil, "spec", "limits")
}

// LimitRanges is the limitranges resource (pkg/registry/core/limitrange).
func LimitRanges() rest.Kind {
	return rest.Kind{Resource: "limitranges", Kind: "LimitRange", ShortNames: []string{"limits"},
		Strategy: limitRangeStrategy{rest.Base{GVK: gvk("LimitRange"), Unconditional: true}}}
}

// newUUID returns an RFC 4122 version 4 UUID, as uuid.NewUUID does.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// standardLimitTypes mirrors standardLimitRangeTypes.
var standardLimitTypes = map[string]bool{"Pod": true, "Container": true, "PersistentVolumeClaim": true}

// Validate implements rest.Strategy: ValidateLimitRange's checks of each limit's type, its
// defaults and a claim limit's storage. (Its schema's required limits list is not enforced:
// the real server accepts a LimitRange without one.)
func (limitRangeStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	seen := map[string]bool{}
	limits, _ := child(obj.Object, "spec")["limits"].([]any)
	for i, l := range limits {
		limit, _ := l.(map[string]any)
		path := fmt.Sprintf("spec.limits[%d]", i)
		typ := str(limit, "type")
		typeCauses := []api.StatusCause{}
		for _, msg := range validation.IsQualifiedName(typ) {
			typeCauses = append(typeCauses, validation.Invalid(path+".type", typ, msg))
		}
		if len(typeCauses) == 0 && !strings.Contains(typ, "/") && !standardLimitTypes[typ] {
			typeCauses = append(typeCauses, validation.Invalid(path+".type", typ, "must be a standard limit type or fully qualified"))
		}
		causes = append(causes, typeCauses...)
		if seen[typ] {
			causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path + ".type", Message: fmt.Sprintf("Duplicate value: %q", typ)})
		}
		seen[typ] = true
		if typ == "Pod" {
			for _, f := range []string{"default", "defaultRequest"} {
				if len(child(limit, f)) > 0 {
					causes = append(causes, validation.Forbidden(path+"."+f, "may not be specified when `type` is 'Pod'"))
				}
			}
		}
		if typ == "PersistentVolumeClaim" && child(limit, "min")["storage"] == nil && child(limit, "max")["storage"] == nil {
			causes = append(causes, validation.Required(path+".limits", "either minimum or maximum storage value is required, but neither was provided"))
		}
	}
	return causes
}

package patch

import (
	"errors"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

var errApplyHere = errors.New("an apply patch goes through the field manager, not the patch package")

// contentTypes are the PATCH Content-Types the real server accepts, in the order its 415
// lists them (installer.go supportedTypes).
var contentTypes = []api.PatchType{api.JSONPatchType, api.MergePatchType, api.StrategicMergePatchType, api.ApplyPatchType}

// withoutStrategic are the patch types of an endpoint that cannot do strategic merge patch
// (a custom resource), as its 415 lists them (docs/behaviour/wire.md X1, E22).
var withoutStrategic = []api.PatchType{api.JSONPatchType, api.MergePatchType, api.ApplyPatchType}

// unsupported is the 415 UnsupportedMediaType listing types.
func unsupported(types []api.PatchType) error {
	accepted := make([]string, len(types))
	for i, pt := range types {
		accepted[i] = string(pt)
	}
	return api.NewUnsupportedMediaType(accepted)
}

// TypeFromContentType mirrors the Content-Type check of PatchResource in k8s.io/apiserver
// pkg/endpoints/handlers/patch.go: parameters after ';' are dropped, the rest must be one of
// the four patch media types exactly (case and spaces count, as upstream). Anything else, an
// empty Content-Type and the CBOR apply type included, is 415 UnsupportedMediaType listing
// the accepted types (docs/behaviour/wire.md X1, E22).
func TypeFromContentType(ct string) (api.PatchType, error) {
	if i := strings.IndexByte(ct, ';'); i > 0 {
		ct = ct[:i]
	}
	for _, pt := range contentTypes {
		if string(pt) == ct {
			return pt, nil
		}
	}
	return "", unsupported(contentTypes)
}

// ApplyFor applies patch to original (the stored object's JSON; empty for an apply patch
// that creates the object) by pt, as the mechanisms of the patch handler in k8s.io/apiserver
// pkg/endpoints/handlers/patch.go do (docs/behaviour/wire.md X1–X5): JSON patch (json.go), merge patch
// (merge.go), strategic merge patch (strategic.go) for built-in kinds, the server-side
// apply stand-in (apply.go). gvk names the stored object's kind (autoscaling/v1 Scale for
// the scale subresource); strategic merge patch reads its patch metadata from the kind's
// OpenAPI schema. builtin false means a registered custom kind, which gets 415 for a
// strategic merge patch like a real custom resource, and so does a kind no embedded
// document defines. Any other pt is 415. It returns the patched JSON; the caller decodes
// it, checks name and resourceVersion (E17, E20) and stores it. Errors are *api.Status.
func ApplyFor(pt api.PatchType, original, patch []byte, gvk api.GroupVersionKind, builtin bool) ([]byte, error) {
	return apply(pt, original, patch, builtin, func() *smpSchema { return smpSchemaFor(gvk) })
}

// Apply is ApplyFor for a caller that knows only the kind's name: a name two
// group-versions serve (Event) takes the core group's schema. Prefer ApplyFor.
func Apply(pt api.PatchType, original, patch []byte, kind string, builtin bool) ([]byte, error) {
	return apply(pt, original, patch, builtin, func() *smpSchema { return smpSchemaForKind(kind) })
}

// apply dispatches on pt; schema is only called for a strategic merge patch.
func apply(pt api.PatchType, original, patch []byte, builtin bool, schema func() *smpSchema) ([]byte, error) {
	switch pt {
	case api.JSONPatchType:
		return applyJSONPatch(original, patch)
	case api.MergePatchType:
		return applyMergePatch(original, patch)
	case api.StrategicMergePatchType:
		if !builtin {
			return nil, unsupported(withoutStrategic)
		}
		return smpApply(original, patch, schema())
	case api.ApplyPatchType:
		// Apply merges by field ownership, which the field manager keeps (apiserver's apply.go).
		return nil, api.NewInternalError(errApplyHere)
	}
	return nil, unsupported(contentTypes)
}

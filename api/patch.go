package api

// PatchType is the Content-Type of a PATCH body, which selects the patch algorithm. It
// mirrors types.PatchType in k8s.io/apimachinery/pkg/types: the value is the media type
// itself, so a client sends it as the Content-Type header unchanged.
type PatchType string

// The patch types, in the order a 415 lists them. They mirror the constants of
// k8s.io/apimachinery/pkg/types.
const (
	// JSONPatchType is an RFC 6902 list of operations (add, remove, replace, move, copy, test).
	JSONPatchType PatchType = "application/json-patch+json"
	// MergePatchType is an RFC 7386 JSON merge patch: objects merge, null deletes, lists are
	// replaced whole.
	MergePatchType PatchType = "application/merge-patch+json"
	// StrategicMergePatchType is a Kubernetes strategic merge patch: like a merge patch, but
	// lists with a merge key merge element by element. Only built-in kinds accept it.
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	// ApplyPatchType is server-side apply with a YAML (or JSON) body.
	ApplyPatchType PatchType = "application/apply-patch+yaml"
	// ApplyCBORPatchType is server-side apply with a CBOR body. The simulated apiserver reads
	// JSON only and answers it 415, as a server without the CBOR feature gate does.
	ApplyCBORPatchType PatchType = "application/apply-patch+cbor"
)

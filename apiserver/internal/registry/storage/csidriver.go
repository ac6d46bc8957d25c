package storage

import (
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// tokenInSecretsWarning is the warning of a CSIDriver that asks for tokens without saying
// where they go.
const tokenInSecretsWarning = "spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes"

// CSIDrivers is the csidrivers resource (pkg/registry/storage/csidriver).
func CSIDrivers() rest.Kind {
	return rest.Kind{Group: "storage.k8s.io", Resource: "csidrivers", Kind: "CSIDriver", ReturnDeletedObject: true,
		Strategy: csiDriverStrategy{rest.Base{GVK: gvk("CSIDriver"), Cluster: true}}}
}

type csiDriverStrategy struct{ rest.Base }

// preventScheduling is the field of the VolumeLimitScaling gate (alpha, off in v1.36).
const preventScheduling = "preventPodSchedulingIfMissing"

// PrepareForCreate mirrors csiDriverStrategy.PrepareForCreate: the fields of gates that are
// off are dropped. Of its four gates only VolumeLimitScaling is off in v1.36.
func (csiDriverStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	delete(spec(obj), preventScheduling)
}

// PrepareForUpdate mirrors csiDriverStrategy.PrepareForUpdate: a field of a gate that is off
// stays only if the stored driver has it, and any change of the spec moves the generation
// on from the stored one, even from none.
func (csiDriverStrategy) PrepareForUpdate(_ rest.Context, obj, old *api.Unstructured) {
	if spec(old)[preventScheduling] == nil {
		delete(spec(obj), preventScheduling)
	}
	if !reflect.DeepEqual(old.Object["spec"], obj.Object["spec"]) {
		obj.SetGeneration(old.GetGeneration() + 1)
	}
}

// WarningsOnCreate mirrors csiDriverStrategy.WarningsOnCreate.
func (csiDriverStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	if asksTokensUnsafely(obj) {
		return []string{tokenInSecretsWarning}
	}
	return nil
}

// WarningsOnUpdate mirrors csiDriverStrategy.WarningsOnUpdate: only when tokenRequests
// changed.
func (csiDriverStrategy) WarningsOnUpdate(obj, old *api.Unstructured) []string {
	if asksTokensUnsafely(obj) && !reflect.DeepEqual(spec(old)["tokenRequests"], spec(obj)["tokenRequests"]) {
		return []string{tokenInSecretsWarning}
	}
	return nil
}

// asksTokensUnsafely: tokenRequests is not empty and serviceAccountTokenInSecrets unset.
func asksTokensUnsafely(obj *api.Unstructured) bool {
	reqs, _ := spec(obj)["tokenRequests"].([]any)
	return len(reqs) > 0 && spec(obj)["serviceAccountTokenInSecrets"] == nil
}

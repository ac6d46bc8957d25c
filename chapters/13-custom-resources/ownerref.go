package ch13

import "github.com/informer-lab/informer-lab/api"

// NewControllerRef mirrors metav1.NewControllerRef in apimachinery
// pkg/apis/meta/v1/controller_ref.go: an owner reference to owner with controller and
// blockOwnerDeletion set, the mark "this object is managed by that one".
func NewControllerRef(owner *api.Unstructured, gvk api.GroupVersionKind) api.OwnerReference {
	yes := true
	return api.OwnerReference{
		APIVersion:         gvk.APIVersion(),
		Kind:               gvk.Kind,
		Name:               owner.GetName(),
		UID:                owner.GetUID(),
		Controller:         &yes,
		BlockOwnerDeletion: &yes,
	}
}

// GetControllerOf mirrors metav1.GetControllerOf: the one owner reference with controller
// set, or nil. Only one owner may be the controller.
func GetControllerOf(obj *api.Unstructured) *api.OwnerReference {
	for _, ref := range obj.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			return &ref
		}
	}
	return nil
}

// IsControlledBy mirrors metav1.IsControlledBy: obj's controller reference names owner by UID.
// The UID, not the name, is what counts: a Foo deleted and created again under the same name
// is another Foo and does not own the first one's Deployment.
func IsControlledBy(obj, owner *api.Unstructured) bool {
	ref := GetControllerOf(obj)
	return ref != nil && ref.UID == owner.GetUID()
}

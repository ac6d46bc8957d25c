package app

import "github.com/informer-lab/informer-lab/api"

// GetControllerOf mirrors metav1.GetControllerOf: the owner reference with controller: true.
func GetControllerOf(u *api.Unstructured) *api.OwnerReference {
	for _, r := range u.GetOwnerReferences() {
		if r.Controller != nil && *r.Controller {
			return &r
		}
	}
	return nil
}

// NewControllerRef mirrors metav1.NewControllerRef: a reference to owner that marks it the
// controller and blocks its foreground deletion until the dependent is gone.
func NewControllerRef(owner *api.Unstructured) api.OwnerReference {
	t := true
	return api.OwnerReference{
		APIVersion:         owner.GetAPIVersion(),
		Kind:               owner.GetKind(),
		Name:               owner.GetName(),
		UID:                owner.GetUID(),
		Controller:         &t,
		BlockOwnerDeletion: &t,
	}
}

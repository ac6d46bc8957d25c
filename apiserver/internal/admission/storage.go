package admission

import (
	"context"
	"sort"

	"github.com/informer-lab/informer-lab/api"
)

// DefaultStorageClass mirrors plugin/pkg/admission/storage/storageclass/setdefault: a
// claim that names no class gets the default StorageClass, the newest when several are.
type DefaultStorageClass struct{}

// Name implements Interface.
func (DefaultStorageClass) Name() string { return "DefaultStorageClass" }

// Handles implements Interface.
func (DefaultStorageClass) Handles(op Operation) bool { return op == Create }

// Admit implements MutationInterface.
func (DefaultStorageClass) Admit(_ context.Context, a *Attributes) error {
	if a.Resource != (api.GroupResource{Resource: "persistentvolumeclaims"}) || a.Subresource != "" || a.Object == nil {
		return nil
	}
	if _, ok := a.Object.GetAnnotations()["volume.beta.kubernetes.io/storage-class"]; ok {
		return nil
	}
	spec := ensureChild(a.Object.Object, "spec")
	if _, ok := spec["storageClassName"].(string); ok {
		return nil
	}
	def := newestDefault(a.list("storage.k8s.io", "storageclasses", ""), func(o *api.Unstructured) bool {
		an := o.GetAnnotations()
		return an["storageclass.kubernetes.io/is-default-class"] == "true" || an["storageclass.beta.kubernetes.io/is-default-class"] == "true"
	})
	if def != nil {
		spec["storageClassName"] = def.GetName()
	}
	return nil
}

// newestDefault mirrors GetDefaultClass's choice among the default classes: the newest,
// then the first by name.
func newestDefault(all []*api.Unstructured, isDefault func(*api.Unstructured) bool) *api.Unstructured {
	var defaults []*api.Unstructured
	for _, o := range all {
		if isDefault(o) {
			defaults = append(defaults, o)
		}
	}
	if len(defaults) == 0 {
		return nil
	}
	sort.SliceStable(defaults, func(i, j int) bool {
		ti, tj := defaults[i].GetCreationTimestamp().Time, defaults[j].GetCreationTimestamp().Time
		if ti.Equal(tj) {
			return defaults[i].GetName() < defaults[j].GetName()
		}
		return ti.After(tj)
	})
	return defaults[0]
}

// StorageObjectInUseProtection mirrors plugin/pkg/admission/storage/storageobjectinuseprotection:
// new PersistentVolumes, claims and VolumeAttributesClasses get the finalizer their
// protection controller removes once nothing uses them.
type StorageObjectInUseProtection struct{}

// Name implements Interface.
func (StorageObjectInUseProtection) Name() string { return "StorageObjectInUseProtection" }

// Handles implements Interface.
func (StorageObjectInUseProtection) Handles(op Operation) bool { return op == Create }

// protectionFinalizers are the finalizers by resource.
var protectionFinalizers = map[api.GroupResource]string{
	{Resource: "persistentvolumes"}:                                "kubernetes.io/pv-protection",
	{Resource: "persistentvolumeclaims"}:                           "kubernetes.io/pvc-protection",
	{Group: "storage.k8s.io", Resource: "volumeattributesclasses"}: "kubernetes.io/vac-protection",
}

// Admit implements MutationInterface.
func (StorageObjectInUseProtection) Admit(_ context.Context, a *Attributes) error {
	f, ok := protectionFinalizers[a.Resource]
	if !ok || a.Subresource != "" || a.Object == nil {
		return nil
	}
	fs := a.Object.GetFinalizers()
	for _, x := range fs {
		if x == f {
			return nil
		}
	}
	a.Object.SetFinalizers(append(fs, f))
	return nil
}

// DefaultIngressClass mirrors plugin/pkg/admission/network/defaultingressclass: an Ingress
// with neither a class nor the legacy class annotation gets the default IngressClass, the
// newest when several are.
type DefaultIngressClass struct{}

// Name implements Interface.
func (DefaultIngressClass) Name() string { return "DefaultIngressClass" }

// Handles implements Interface.
func (DefaultIngressClass) Handles(op Operation) bool { return op == Create }

// Admit implements MutationInterface.
func (DefaultIngressClass) Admit(_ context.Context, a *Attributes) error {
	if a.Resource != (api.GroupResource{Group: "networking.k8s.io", Resource: "ingresses"}) || a.Subresource != "" || a.Object == nil {
		return nil
	}
	spec := ensureChild(a.Object.Object, "spec")
	if _, ok := spec["ingressClassName"].(string); ok {
		return nil
	}
	if _, ok := a.Object.GetAnnotations()["kubernetes.io/ingress.class"]; ok {
		return nil
	}
	def := newestDefault(a.list("networking.k8s.io", "ingressclasses", ""), func(o *api.Unstructured) bool {
		return o.GetAnnotations()["ingressclass.kubernetes.io/is-default-class"] == "true"
	})
	if def != nil {
		spec["ingressClassName"] = def.GetName()
	}
	return nil
}

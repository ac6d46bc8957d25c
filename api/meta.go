package api

import (
	"strings"
)

// GroupVersionKind mirrors schema.GroupVersionKind in apimachinery pkg/runtime/schema.
// An empty Group means the core ("legacy") group served under /api/v1. Its JSON form is
// metav1.GroupVersionKind's, the one discovery documents carry.
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// APIVersion returns the apiVersion string for the group and version: "v1" for the core
// group, "group/version" otherwise. Mirrors GroupVersion.String.
func (gvk GroupVersionKind) APIVersion() string {
	if gvk.Group == "" {
		return gvk.Version
	}
	return gvk.Group + "/" + gvk.Version
}

// String mirrors GroupVersionKind.String, e.g. "/v1, Kind=Pod".
func (gvk GroupVersionKind) String() string {
	return gvk.Group + "/" + gvk.Version + ", Kind=" + gvk.Kind
}

// ParseAPIVersion splits an apiVersion ("v1", "apps/v1") into group and version.
// Mirrors schema.ParseGroupVersion, without its error for more than one slash: the
// remainder after the first slash is the version.
func ParseAPIVersion(apiVersion string) (group, version string) {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// ObjectKind mirrors schema.ObjectKind: the type information every serialised object carries.
type ObjectKind interface {
	GroupVersionKind() GroupVersionKind
	SetGroupVersionKind(GroupVersionKind)
}

// Object mirrors runtime.Object: anything the Scheme can encode, including lists and Status.
type Object interface {
	GetObjectKind() ObjectKind
	DeepCopyObject() Object
}

// MetaObject mirrors metav1.Object: the metadata accessors every top-level object (not a list)
// satisfies. It is the "small accessor interface" that the store, queues and informers use
// instead of reflection.
type MetaObject interface {
	GetName() string
	SetName(string)
	GetGenerateName() string
	SetGenerateName(string)
	GetNamespace() string
	SetNamespace(string)
	GetUID() string
	SetUID(string)
	GetResourceVersion() string
	SetResourceVersion(string)
	GetGeneration() int64
	SetGeneration(int64)
	GetCreationTimestamp() Time
	SetCreationTimestamp(Time)
	GetDeletionTimestamp() *Time
	SetDeletionTimestamp(*Time)
	GetDeletionGracePeriodSeconds() *int64
	SetDeletionGracePeriodSeconds(*int64)
	GetLabels() map[string]string
	SetLabels(map[string]string)
	GetAnnotations() map[string]string
	SetAnnotations(map[string]string)
	GetOwnerReferences() []OwnerReference
	SetOwnerReferences([]OwnerReference)
	GetFinalizers() []string
	SetFinalizers([]string)
}

// ListInterface mirrors metav1.ListInterface: the accessors of a list's ListMeta.
type ListInterface interface {
	GetResourceVersion() string
	SetResourceVersion(string)
	GetContinue() string
	SetContinue(string)
	GetRemainingItemCount() *int64
	SetRemainingItemCount(*int64)
}

// TypeMeta mirrors metav1.TypeMeta: the apiVersion and kind carried inline by every object.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// GetObjectKind mirrors TypeMeta.GetObjectKind; embedding TypeMeta makes a type an Object.
func (t *TypeMeta) GetObjectKind() ObjectKind { return t }

// GroupVersionKind mirrors TypeMeta.GroupVersionKind.
func (t *TypeMeta) GroupVersionKind() GroupVersionKind {
	g, v := ParseAPIVersion(t.APIVersion)
	return GroupVersionKind{Group: g, Version: v, Kind: t.Kind}
}

// SetGroupVersionKind mirrors TypeMeta.SetGroupVersionKind.
func (t *TypeMeta) SetGroupVersionKind(gvk GroupVersionKind) {
	t.APIVersion = gvk.APIVersion()
	t.Kind = gvk.Kind
}

// OwnerReference mirrors metav1.OwnerReference.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// ObjectMeta mirrors metav1.ObjectMeta, limited to the fields the informer machinery and the
// simulated apiserver use. JSON names and omitempty follow the real API.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

// GetName mirrors ObjectMeta.GetName.
func (m *ObjectMeta) GetName() string { return m.Name }

// SetName mirrors ObjectMeta.SetName.
func (m *ObjectMeta) SetName(v string) { m.Name = v }

// GetGenerateName mirrors ObjectMeta.GetGenerateName.
func (m *ObjectMeta) GetGenerateName() string { return m.GenerateName }

// SetGenerateName mirrors ObjectMeta.SetGenerateName.
func (m *ObjectMeta) SetGenerateName(v string) { m.GenerateName = v }

// GetNamespace mirrors ObjectMeta.GetNamespace.
func (m *ObjectMeta) GetNamespace() string { return m.Namespace }

// SetNamespace mirrors ObjectMeta.SetNamespace.
func (m *ObjectMeta) SetNamespace(v string) { m.Namespace = v }

// GetUID mirrors ObjectMeta.GetUID (a plain string here instead of types.UID).
func (m *ObjectMeta) GetUID() string { return m.UID }

// SetUID mirrors ObjectMeta.SetUID.
func (m *ObjectMeta) SetUID(v string) { m.UID = v }

// GetResourceVersion mirrors ObjectMeta.GetResourceVersion.
func (m *ObjectMeta) GetResourceVersion() string { return m.ResourceVersion }

// SetResourceVersion mirrors ObjectMeta.SetResourceVersion.
func (m *ObjectMeta) SetResourceVersion(v string) { m.ResourceVersion = v }

// GetGeneration mirrors ObjectMeta.GetGeneration.
func (m *ObjectMeta) GetGeneration() int64 { return m.Generation }

// SetGeneration mirrors ObjectMeta.SetGeneration.
func (m *ObjectMeta) SetGeneration(v int64) { m.Generation = v }

// GetCreationTimestamp mirrors ObjectMeta.GetCreationTimestamp.
func (m *ObjectMeta) GetCreationTimestamp() Time { return m.CreationTimestamp }

// SetCreationTimestamp mirrors ObjectMeta.SetCreationTimestamp.
func (m *ObjectMeta) SetCreationTimestamp(v Time) { m.CreationTimestamp = v }

// GetDeletionTimestamp mirrors ObjectMeta.GetDeletionTimestamp.
func (m *ObjectMeta) GetDeletionTimestamp() *Time { return m.DeletionTimestamp }

// SetDeletionTimestamp mirrors ObjectMeta.SetDeletionTimestamp.
func (m *ObjectMeta) SetDeletionTimestamp(v *Time) { m.DeletionTimestamp = v }

// GetDeletionGracePeriodSeconds mirrors ObjectMeta.GetDeletionGracePeriodSeconds.
func (m *ObjectMeta) GetDeletionGracePeriodSeconds() *int64 { return m.DeletionGracePeriodSeconds }

// SetDeletionGracePeriodSeconds mirrors ObjectMeta.SetDeletionGracePeriodSeconds.
func (m *ObjectMeta) SetDeletionGracePeriodSeconds(v *int64) { m.DeletionGracePeriodSeconds = v }

// GetLabels mirrors ObjectMeta.GetLabels.
func (m *ObjectMeta) GetLabels() map[string]string { return m.Labels }

// SetLabels mirrors ObjectMeta.SetLabels.
func (m *ObjectMeta) SetLabels(v map[string]string) { m.Labels = v }

// GetAnnotations mirrors ObjectMeta.GetAnnotations.
func (m *ObjectMeta) GetAnnotations() map[string]string { return m.Annotations }

// SetAnnotations mirrors ObjectMeta.SetAnnotations.
func (m *ObjectMeta) SetAnnotations(v map[string]string) { m.Annotations = v }

// GetOwnerReferences mirrors ObjectMeta.GetOwnerReferences.
func (m *ObjectMeta) GetOwnerReferences() []OwnerReference { return m.OwnerReferences }

// SetOwnerReferences mirrors ObjectMeta.SetOwnerReferences.
func (m *ObjectMeta) SetOwnerReferences(v []OwnerReference) { m.OwnerReferences = v }

// GetFinalizers mirrors ObjectMeta.GetFinalizers.
func (m *ObjectMeta) GetFinalizers() []string { return m.Finalizers }

// SetFinalizers mirrors ObjectMeta.SetFinalizers.
func (m *ObjectMeta) SetFinalizers(v []string) { m.Finalizers = v }

// ListMeta mirrors metav1.ListMeta: the list's resourceVersion and paging fields.
type ListMeta struct {
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// GetResourceVersion mirrors ListMeta.GetResourceVersion.
func (m *ListMeta) GetResourceVersion() string { return m.ResourceVersion }

// SetResourceVersion mirrors ListMeta.SetResourceVersion.
func (m *ListMeta) SetResourceVersion(v string) { m.ResourceVersion = v }

// GetContinue mirrors ListMeta.GetContinue.
func (m *ListMeta) GetContinue() string { return m.Continue }

// SetContinue mirrors ListMeta.SetContinue.
func (m *ListMeta) SetContinue(v string) { m.Continue = v }

// GetRemainingItemCount mirrors ListMeta.GetRemainingItemCount.
func (m *ListMeta) GetRemainingItemCount() *int64 { return m.RemainingItemCount }

// SetRemainingItemCount mirrors ListMeta.SetRemainingItemCount.
func (m *ListMeta) SetRemainingItemCount(v *int64) { m.RemainingItemCount = v }

package api

import (
	"bytes"
	"maps"
	"slices"
)

// Hand-written versions of what deepcopy-gen generates upstream (zz_generated.deepcopy.go).
// The rule is the same everywhere: copy the struct, then give every map, slice and pointer
// its own backing storage. nil stays nil and empty stays empty, so a copy compares equal to
// its original with go-cmp. Structs that hold only values (Container, PodCondition,
// StatusCause, ...) need no method: assignment already copies them. Informers hand out shared cache objects; code that wants to
// change one must DeepCopy it first.

// deepCopyOf returns a fresh copy of *in made by its DeepCopyInto, or nil for nil. Every
// DeepCopy method below is this one line.
func deepCopyOf[T any, PT interface {
	*T
	DeepCopyInto(*T)
}](in PT) PT {
	if in == nil {
		return nil
	}
	out := PT(new(T))
	in.DeepCopyInto(out)
	return out
}

// deepCopySlice copies a slice whose elements own references (maps, pointers, slices).
func deepCopySlice[T any, PT interface {
	*T
	DeepCopyInto(*T)
}](in []T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i := range in {
		PT(&in[i]).DeepCopyInto(&out[i])
	}
	return out
}

// copyPtr copies the value behind a pointer to a plain value (*bool, *int64).
func copyPtr[T any](in *T) *T {
	if in == nil {
		return nil
	}
	out := *in
	return &out
}

// DeepCopyInto mirrors the generated metav1.OwnerReference.DeepCopyInto.
func (in *OwnerReference) DeepCopyInto(out *OwnerReference) {
	*out = *in
	out.Controller = copyPtr(in.Controller)
	out.BlockOwnerDeletion = copyPtr(in.BlockOwnerDeletion)
}

// DeepCopy mirrors the generated metav1.OwnerReference.DeepCopy.
func (in *OwnerReference) DeepCopy() *OwnerReference { return deepCopyOf(in) }

// DeepCopyInto mirrors the generated metav1.ObjectMeta.DeepCopyInto.
func (m *ObjectMeta) DeepCopyInto(out *ObjectMeta) {
	*out = *m
	out.DeletionTimestamp = m.DeletionTimestamp.DeepCopy()
	out.DeletionGracePeriodSeconds = copyPtr(m.DeletionGracePeriodSeconds)
	out.Labels = maps.Clone(m.Labels)
	out.Annotations = maps.Clone(m.Annotations)
	out.OwnerReferences = deepCopySlice(m.OwnerReferences)
	out.Finalizers = slices.Clone(m.Finalizers)
}

// DeepCopy mirrors the generated metav1.ObjectMeta.DeepCopy.
func (m *ObjectMeta) DeepCopy() *ObjectMeta { return deepCopyOf(m) }

// DeepCopyInto mirrors the generated metav1.ListMeta.DeepCopyInto.
func (m *ListMeta) DeepCopyInto(out *ListMeta) {
	*out = *m
	out.RemainingItemCount = copyPtr(m.RemainingItemCount)
}

// DeepCopy mirrors the generated metav1.ListMeta.DeepCopy.
func (m *ListMeta) DeepCopy() *ListMeta { return deepCopyOf(m) }

// DeepCopyInto mirrors the generated core/v1 Pod.DeepCopyInto.
func (in *Pod) DeepCopyInto(out *Pod) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Spec.DeepCopyInto(&out.Spec)
	in.Status.DeepCopyInto(&out.Status)
}

// DeepCopy mirrors the generated core/v1 Pod.DeepCopy.
func (in *Pod) DeepCopy() *Pod { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 Pod.DeepCopyObject. A nil *Pod gives a nil
// Object, not an interface holding a nil pointer.
func (in *Pod) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated core/v1 PodSpec.DeepCopyInto.
func (in *PodSpec) DeepCopyInto(out *PodSpec) {
	*out = *in
	out.Containers = slices.Clone(in.Containers) // Container holds only strings
}

// DeepCopy mirrors the generated core/v1 PodSpec.DeepCopy.
func (in *PodSpec) DeepCopy() *PodSpec { return deepCopyOf(in) }

// DeepCopyInto mirrors the generated core/v1 PodStatus.DeepCopyInto.
func (in *PodStatus) DeepCopyInto(out *PodStatus) {
	*out = *in
	out.Conditions = slices.Clone(in.Conditions) // PodCondition holds only values
}

// DeepCopy mirrors the generated core/v1 PodStatus.DeepCopy.
func (in *PodStatus) DeepCopy() *PodStatus { return deepCopyOf(in) }

// DeepCopyInto mirrors the generated core/v1 PodList.DeepCopyInto.
func (in *PodList) DeepCopyInto(out *PodList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepCopySlice(in.Items)
}

// DeepCopy mirrors the generated core/v1 PodList.DeepCopy.
func (in *PodList) DeepCopy() *PodList { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 PodList.DeepCopyObject.
func (in *PodList) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated core/v1 ConfigMap.DeepCopyInto.
func (in *ConfigMap) DeepCopyInto(out *ConfigMap) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Immutable = copyPtr(in.Immutable)
	out.Data = maps.Clone(in.Data)
	if in.BinaryData != nil {
		out.BinaryData = make(map[string][]byte, len(in.BinaryData))
		for k, v := range in.BinaryData {
			out.BinaryData[k] = bytes.Clone(v)
		}
	}
}

// DeepCopy mirrors the generated core/v1 ConfigMap.DeepCopy.
func (in *ConfigMap) DeepCopy() *ConfigMap { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 ConfigMap.DeepCopyObject.
func (in *ConfigMap) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated core/v1 ConfigMapList.DeepCopyInto.
func (in *ConfigMapList) DeepCopyInto(out *ConfigMapList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepCopySlice(in.Items)
}

// DeepCopy mirrors the generated core/v1 ConfigMapList.DeepCopy.
func (in *ConfigMapList) DeepCopy() *ConfigMapList { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 ConfigMapList.DeepCopyObject.
func (in *ConfigMapList) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated core/v1 Namespace.DeepCopyInto.
func (in *Namespace) DeepCopyInto(out *Namespace) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Spec.DeepCopyInto(&out.Spec)
}

// DeepCopy mirrors the generated core/v1 Namespace.DeepCopy.
func (in *Namespace) DeepCopy() *Namespace { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 Namespace.DeepCopyObject.
func (in *Namespace) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated core/v1 NamespaceSpec.DeepCopyInto.
func (in *NamespaceSpec) DeepCopyInto(out *NamespaceSpec) {
	*out = *in
	out.Finalizers = slices.Clone(in.Finalizers)
}

// DeepCopy mirrors the generated core/v1 NamespaceSpec.DeepCopy.
func (in *NamespaceSpec) DeepCopy() *NamespaceSpec { return deepCopyOf(in) }

// DeepCopyInto mirrors the generated core/v1 NamespaceList.DeepCopyInto.
func (in *NamespaceList) DeepCopyInto(out *NamespaceList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepCopySlice(in.Items)
}

// DeepCopy mirrors the generated core/v1 NamespaceList.DeepCopy.
func (in *NamespaceList) DeepCopy() *NamespaceList { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 NamespaceList.DeepCopyObject.
func (in *NamespaceList) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated metav1.Status.DeepCopyInto.
func (s *Status) DeepCopyInto(out *Status) {
	*out = *s
	s.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Details = s.Details.DeepCopy()
}

// DeepCopy mirrors the generated metav1.Status.DeepCopy.
func (s *Status) DeepCopy() *Status { return deepCopyOf(s) }

// DeepCopyObject mirrors the generated metav1.Status.DeepCopyObject.
func (s *Status) DeepCopyObject() Object {
	if c := s.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated metav1.StatusDetails.DeepCopyInto.
func (in *StatusDetails) DeepCopyInto(out *StatusDetails) {
	*out = *in
	out.Causes = slices.Clone(in.Causes) // StatusCause holds only strings
}

// DeepCopy mirrors the generated metav1.StatusDetails.DeepCopy.
func (in *StatusDetails) DeepCopy() *StatusDetails { return deepCopyOf(in) }

// DeepCopyInto mirrors the generated metav1.Table.DeepCopyInto.
func (in *Table) DeepCopyInto(out *Table) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	out.ColumnDefinitions = slices.Clone(in.ColumnDefinitions)
	out.Rows = deepCopySlice(in.Rows)
}

// DeepCopy mirrors the generated metav1.Table.DeepCopy.
func (in *Table) DeepCopy() *Table { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated metav1.Table.DeepCopyObject.
func (in *Table) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated metav1.TableRow.DeepCopyInto. Cells are JSON values and
// are copied as such (see DeepCopyJSONValue).
func (in *TableRow) DeepCopyInto(out *TableRow) {
	*out = *in
	if in.Cells != nil {
		out.Cells = make([]any, len(in.Cells))
		for i, c := range in.Cells {
			out.Cells[i] = DeepCopyJSONValue(c)
		}
	}
	out.Conditions = slices.Clone(in.Conditions)
	out.Object = bytes.Clone(in.Object)
}

// DeepCopy mirrors the generated metav1.TableRow.DeepCopy.
func (in *TableRow) DeepCopy() *TableRow { return deepCopyOf(in) }

// DeepCopyInto mirrors the generated metav1.PartialObjectMetadata.DeepCopyInto.
func (in *PartialObjectMetadata) DeepCopyInto(out *PartialObjectMetadata) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
}

// DeepCopy mirrors the generated metav1.PartialObjectMetadata.DeepCopy.
func (in *PartialObjectMetadata) DeepCopy() *PartialObjectMetadata { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated metav1.PartialObjectMetadata.DeepCopyObject.
func (in *PartialObjectMetadata) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated metav1.PartialObjectMetadataList.DeepCopyInto.
func (in *PartialObjectMetadataList) DeepCopyInto(out *PartialObjectMetadataList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepCopySlice(in.Items)
}

// DeepCopy mirrors the generated metav1.PartialObjectMetadataList.DeepCopy.
func (in *PartialObjectMetadataList) DeepCopy() *PartialObjectMetadataList {
	return deepCopyOf(in)
}

// DeepCopyObject mirrors the generated metav1.PartialObjectMetadataList.DeepCopyObject.
func (in *PartialObjectMetadataList) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated metav1.WatchEvent.DeepCopyInto.
func (in *WatchEvent) DeepCopyInto(out *WatchEvent) {
	*out = *in
	out.Object = bytes.Clone(in.Object)
}

// DeepCopy mirrors the generated metav1.WatchEvent.DeepCopy.
func (in *WatchEvent) DeepCopy() *WatchEvent { return deepCopyOf(in) }

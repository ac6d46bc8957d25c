package api

// GroupName mirrors core/v1 GroupName: the core ("legacy") group has the empty name and is
// served under /api/v1.
const GroupName = ""

// MetaGroupName mirrors metav1.GroupName: the group of Table and PartialObjectMetadata.
const MetaGroupName = "meta.k8s.io"

// AddToScheme mirrors core/v1 AddToScheme (plus the meta.k8s.io/v1 kinds that
// metav1.AddMetaToScheme registers): it registers every kind of this package in s.
func AddToScheme(s *Scheme) {
	core := func(kind string) GroupVersionKind {
		return GroupVersionKind{Group: GroupName, Version: "v1", Kind: kind}
	}
	meta := func(kind string) GroupVersionKind {
		return GroupVersionKind{Group: MetaGroupName, Version: "v1", Kind: kind}
	}
	s.AddKnownType(core("Pod"), func() Object { return &Pod{} }, func() ListObject { return &PodList{} })
	s.AddKnownType(core("ConfigMap"), func() Object { return &ConfigMap{} }, func() ListObject { return &ConfigMapList{} })
	s.AddKnownType(core("Namespace"), func() Object { return &Namespace{} }, func() ListObject { return &NamespaceList{} })
	s.AddKnownType(core("Node"), func() Object { return &Node{} }, func() ListObject { return &NodeList{} })
	s.AddKnownType(core("Status"), func() Object { return &Status{} }, nil)
	s.AddKnownType(meta("Table"), func() Object { return &Table{} }, nil)
	s.AddKnownType(meta("PartialObjectMetadata"), func() Object { return &PartialObjectMetadata{} },
		func() ListObject { return &PartialObjectMetadataList{} })
}

// DefaultScheme mirrors scheme.Scheme in client-go kubernetes/scheme: a Scheme holding every
// kind of this package. Go does not allow a variable and a type of the same name in one
// package, hence "Default".
var DefaultScheme = newDefaultScheme()

func newDefaultScheme() *Scheme {
	s := NewScheme()
	AddToScheme(s)
	return s
}

// Compile-time checks of the contract in doc.go: every kind is an Object, every top-level
// kind a MetaObject, every list a ListObject.
var (
	_ MetaObject = (*Pod)(nil)
	_ MetaObject = (*ConfigMap)(nil)
	_ MetaObject = (*Namespace)(nil)
	_ MetaObject = (*Node)(nil)
	_ MetaObject = (*PartialObjectMetadata)(nil)
	_ MetaObject = (*Unstructured)(nil)

	_ Object = (*Pod)(nil)
	_ Object = (*ConfigMap)(nil)
	_ Object = (*Namespace)(nil)
	_ Object = (*PartialObjectMetadata)(nil)
	_ Object = (*Unstructured)(nil)
	_ Object = (*Status)(nil)
	_ Object = (*Table)(nil)

	_ ListObject = (*PodList)(nil)
	_ ListObject = (*ConfigMapList)(nil)
	_ ListObject = (*NamespaceList)(nil)
	_ ListObject = (*NodeList)(nil)
	_ ListObject = (*PartialObjectMetadataList)(nil)
	_ ListObject = (*UnstructuredList)(nil)

	_ error = (*Status)(nil)
)

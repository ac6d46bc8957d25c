package store

// ObjectName mirrors cache.ObjectName in client-go tools/cache/object-names.go: the structured
// form of a store key.
type ObjectName struct {
	Namespace string
	Name      string
}

// NewObjectName mirrors cache.NewObjectName.
func NewObjectName(namespace, name string) ObjectName {
	return ObjectName{Namespace: namespace, Name: name}
}

// Parts mirrors ObjectName.Parts.
func (n ObjectName) Parts() (namespace, name string) { return n.Namespace, n.Name }

// String mirrors ObjectName.String: "namespace/name", or "name" for cluster-scoped objects.
func (n ObjectName) String() string {
	if n.Namespace == "" {
		return n.Name
	}
	return n.Namespace + "/" + n.Name
}

// ParseObjectName mirrors cache.ParseObjectName; it follows SplitMetaNamespaceKey (K-2).
func ParseObjectName(key string) (ObjectName, error) {
	ns, name, err := SplitMetaNamespaceKey(key)
	return ObjectName{Namespace: ns, Name: name}, err
}

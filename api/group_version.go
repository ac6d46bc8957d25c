package api

// The names of API groups, versions, kinds and resources (apimachinery pkg/runtime/schema),
// shared by the client and the server. GroupVersionKind is in meta.go, beside TypeMeta.

// GroupResource mirrors schema.GroupResource: a resource name ("pods") and its group ("" for
// the core group). Errors and listers name resources this way.
type GroupResource struct {
	Group    string
	Resource string
}

// String mirrors GroupResource.String: "pods" for the core group, "deployments.apps" otherwise.
func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

// GroupKind mirrors schema.GroupKind: a kind ("Pod") and its group ("" for the core group).
// Invalid errors name the object by kind, not by resource (docs/behaviour/wire.md S1).
type GroupKind struct {
	Group string
	Kind  string
}

// String mirrors GroupKind.String: "Pod" for the core group, "Deployment.apps" otherwise.
func (gk GroupKind) String() string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

// GroupVersion mirrors schema.GroupVersion: "" is the core group, served under /api.
type GroupVersion struct {
	Group   string
	Version string
}

// String mirrors GroupVersion.String: "v1" for the core group, "apps/v1" otherwise.
func (gv GroupVersion) String() string {
	if gv.Group == "" {
		return gv.Version
	}
	return gv.Group + "/" + gv.Version
}

// GroupVersionResource mirrors schema.GroupVersionResource: how a request names what it
// addresses, e.g. {"", "v1", "pods"} or {"apps", "v1", "deployments"}.
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// GroupVersion mirrors GroupVersionResource.GroupVersion.
func (gvr GroupVersionResource) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvr.Group, Version: gvr.Version}
}

// GroupResource mirrors GroupVersionResource.GroupResource.
func (gvr GroupVersionResource) GroupResource() GroupResource {
	return GroupResource{Group: gvr.Group, Resource: gvr.Resource}
}

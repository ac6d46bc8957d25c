package openapi

// ActionPathItem is the path of a resource that serves no PATCH, with the one operation
// kubectl explain finds its kind by: a create-only resource (the reviews, bindings) has
// its collection's POST ("post"), a read-only one (componentstatuses) its collection's GET
// ("list"), each with the x-kubernetes-group-version-kind the installer puts on it. verb is
// "create" or "list".
func ActionPathItem(r Resource, v2 bool, verb string) (string, *Node) {
	path := "/apis/" + r.Group + "/" + r.Version
	if r.Group == "" {
		path = "/api/" + r.Version
	}
	if r.Namespaced {
		path += "/namespaces/{namespace}"
	}
	path += "/" + r.Resource
	group, tag := operationGroup(r.Group, r.Version)
	method, action, opID, desc, code := "post", "post", "create", "create a "+r.Kind, "201"
	if verb == "list" {
		method, action, opID, desc, code = "get", "list", "list", "list objects of kind "+r.Kind, "200"
	}
	namespaced := ""
	if r.Namespaced {
		namespaced = "Namespaced"
	}
	kind := definitionName(r)
	if verb == "list" {
		kind += "List"
	}
	response := func() *Node {
		if v2 {
			return Obj().Set("description", Str("OK")).Set("schema", refTo(kind, true))
		}
		return Obj().Set("description", Str("OK")).Set("content",
			Obj().Set("application/json", Obj().Set("schema", refTo(kind, false))))
	}
	op := Obj().
		Set("tags", Strs(tag)).
		Set("description", Str(desc)).
		Set("operationId", Str(opID+group+namespaced+r.Kind)).
		Set("responses", Obj().Set(code, response()).Set("401", Obj().Set("description", Str("Unauthorized")))).
		Set("x-kubernetes-action", Str(action)).
		Set("x-kubernetes-group-version-kind", gvkNode(r.Group, r.Version, r.Kind))
	item := Obj().Set(method, op)
	if r.Namespaced {
		ns := Obj().Set("name", Str("namespace")).Set("in", Str("path")).Set("description", Str(namespaceDoc)).Set("required", Boolean(true))
		if v2 {
			ns.Set("type", Str("string"))
		} else {
			ns.Set("schema", Obj().Set("type", Str("string")))
		}
		item.Set("parameters", Arr(ns))
	}
	return path, item
}

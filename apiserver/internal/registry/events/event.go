package events

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// fields are the events.k8s.io/v1 labels: the group's own conversion function renames them
// onto the core ones (regarding.* → involvedObject.*, reportingController →
// reportingComponent), so each reads the events.k8s.io member of the same meaning. source
// is not among them.
var fields = map[string]rest.FieldRead{
	"regarding.kind": rest.TextField("regarding.kind"), "regarding.namespace": rest.TextField("regarding.namespace"),
	"regarding.name": rest.TextField("regarding.name"), "regarding.uid": rest.TextField("regarding.uid"),
	"regarding.apiVersion": rest.TextField("regarding.apiVersion"), "regarding.resourceVersion": rest.TextField("regarding.resourceVersion"),
	"regarding.fieldPath": rest.TextField("regarding.fieldPath"), "reason": rest.TextField("reason"),
	"reportingController": rest.TextField("reportingController"), "type": rest.TextField("type"),
}

// Events is the events.k8s.io events resource.
func Events() rest.Kind {
	return rest.Kind{Group: "events.k8s.io", Resource: "events", Kind: "Event", ShortNames: []string{"ev"}, Fields: fields,
		Storage:  api.GroupVersionKind{Version: "v1", Kind: "Event"}, // core v1 Events hold them
		Strategy: rest.Base{GVK: api.GroupVersionKind{Group: "events.k8s.io", Version: "v1", Kind: "Event"}, Unconditional: true}}
}

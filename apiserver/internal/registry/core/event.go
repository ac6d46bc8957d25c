package core

import "github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"

// eventFields are the core/v1 Event labels: its conversion function accepts them and
// ToSelectableFields sets them (pkg/apis/core/v1/conversion.go, pkg/registry/core/event).
var eventFields = map[string]rest.FieldRead{
	"involvedObject.kind": rest.TextField("involvedObject.kind"), "involvedObject.namespace": rest.TextField("involvedObject.namespace"),
	"involvedObject.name": rest.TextField("involvedObject.name"), "involvedObject.uid": rest.TextField("involvedObject.uid"),
	"involvedObject.apiVersion": rest.TextField("involvedObject.apiVersion"), "involvedObject.resourceVersion": rest.TextField("involvedObject.resourceVersion"),
	"involvedObject.fieldPath": rest.TextField("involvedObject.fieldPath"), "reason": rest.TextField("reason"),
	"reportingComponent": rest.TextField("reportingComponent"), "type": rest.TextField("type"),
	// source is the component, or the reporting controller when the component is empty.
	"source": rest.TextField("source.component", "reportingComponent"),
}

// Events is the core/v1 events resource (pkg/registry/core/event).
func Events() rest.Kind {
	return rest.Kind{Resource: "events", Kind: "Event", ShortNames: []string{"ev"}, Fields: eventFields,
		Strategy: rest.Base{GVK: gvk("Event"), Unconditional: true}}
}

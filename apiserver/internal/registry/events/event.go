package events

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/core"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// fields are the events.k8s.io/v1 labels. The group's conversion function renames each onto
// the core label of the same meaning (regarding.* → involvedObject.*, reportingController →
// reportingComponent), which ToSelectableFields computes from the stored core Event, so
// each reads that member of the stored object. source is not among them.
var fields = map[string]rest.FieldRead{
	"regarding.kind": rest.TextField("involvedObject.kind"), "regarding.namespace": rest.TextField("involvedObject.namespace"),
	"regarding.name": rest.TextField("involvedObject.name"), "regarding.uid": rest.TextField("involvedObject.uid"),
	"regarding.apiVersion": rest.TextField("involvedObject.apiVersion"), "regarding.resourceVersion": rest.TextField("involvedObject.resourceVersion"),
	"regarding.fieldPath": rest.TextField("involvedObject.fieldPath"), "reason": rest.TextField("reason"),
	"reportingController": rest.TextField("reportingComponent"), "type": rest.TextField("type"),
}

// renames pairs each events.k8s.io/v1 member with the core/v1 member it converts to
// (Convert_v1_Event_To_core_Event and its reverse); the others keep their names.
var renames = [][2]string{
	{"regarding", "involvedObject"},
	{"note", "message"},
	{"deprecatedSource", "source"},
	{"deprecatedFirstTimestamp", "firstTimestamp"},
	{"deprecatedLastTimestamp", "lastTimestamp"},
	{"deprecatedCount", "count"},
	{"reportingController", "reportingComponent"},
}

// sameNames are the members both versions share.
var sameNames = []string{"metadata", "reason", "type", "eventTime", "series", "action", "related", "reportingInstance"}

// ToStorage mirrors Convert_v1_Event_To_core_Event followed by the core/v1 conversion: an
// events.k8s.io/v1 Event as the core/v1 Event it is stored as.
func ToStorage(obj map[string]any) map[string]any {
	out := map[string]any{"apiVersion": "v1", "kind": "Event"}
	for _, k := range sameNames {
		if v, ok := obj[k]; ok {
			out[k] = v
		}
	}
	for _, r := range renames {
		if v, ok := obj[r[0]]; ok {
			out[r[1]] = v
		}
	}
	return out
}

// FromStorage mirrors Convert_core_Event_To_v1_Event: a stored core/v1 Event as the
// events.k8s.io/v1 Event its Go type writes out, with the members it writes even when
// empty (regarding and deprecatedSource as {}, eventTime and the deprecated timestamps as
// null).
func FromStorage(obj map[string]any) map[string]any {
	out := map[string]any{"apiVersion": "events.k8s.io/v1", "kind": "Event"}
	for _, k := range sameNames {
		if v, ok := obj[k]; ok {
			out[k] = api.DeepCopyJSONValue(v)
		}
	}
	for _, r := range renames {
		if v, ok := obj[r[1]]; ok {
			out[r[0]] = api.DeepCopyJSONValue(v)
		}
	}
	for k, zero := range map[string]func() any{
		"regarding": emptyObject, "deprecatedSource": emptyObject,
		"eventTime": null, "deprecatedFirstTimestamp": null, "deprecatedLastTimestamp": null,
	} {
		if _, ok := out[k]; !ok {
			out[k] = zero()
		}
	}
	return out
}

func emptyObject() any { return map[string]any{} }
func null() any        { return nil }

// strategy is the core Event strategy with the request version events.k8s.io/v1:
// ValidateEventCreate and ValidateEventUpdate are strict for it.
type strategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidateEventCreate for events.k8s.io/v1, on the core
// form.
func (strategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return core.EventCauses(obj.Object, true)
}

// ValidateUpdate implements rest.Strategy: ValidateEventUpdate for events.k8s.io/v1, which
// keeps every member but the metadata (and eventTime's sub-microsecond digits).
func (strategy) ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause {
	return core.EventUpdateCauses(obj.Object, old.Object)
}

// OwnUpdateRules implements rest.OwnUpdateRules: an update is not checked by the create rules.
func (strategy) OwnUpdateRules() {}

// Events is the events.k8s.io events resource: a view of the core Events, stored as them
// (pkg/registry/events serves the core event REST storage).
func Events() rest.Kind {
	return rest.Kind{Group: "events.k8s.io", Resource: "events", Kind: "Event", ShortNames: []string{"ev"}, Fields: fields,
		Storage: api.GroupVersionKind{Version: "v1", Kind: "Event"}, ToStorage: ToStorage, FromStorage: FromStorage,
		Strategy: strategy{rest.Base{GVK: api.GroupVersionKind{Version: "v1", Kind: "Event"}, Unconditional: true}}}
}

package core

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

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

// The limits of pkg/apis/core/validation/events.go.
const (
	reportingInstanceLengthLimit = 128
	actionLengthLimit            = 128
	reasonLengthLimit            = 128
	noteLengthLimit              = 1024
)

// eventStrategy mirrors pkg/registry/core/event/strategy.go for requests of core/v1.
type eventStrategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidateEventCreate for core/v1, which is the legacy
// validation alone. Nothing is required for being absent: the OpenAPI schema marks
// involvedObject required only because the Go member is not a pointer.
func (eventStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	return EventCauses(obj.Object, false)
}

// ValidatesMetaGenerically implements rest.GenericMetaValidator: core/v1's ValidateEventCreate
// checks no metadata, so an invalid label shows only when the legacy check passes.
func (eventStrategy) ValidatesMetaGenerically() bool { return true }

// EventCauses mirrors ValidateEventCreate on a core/v1 Event (the stored form), for a
// request of core/v1 or, strict, of events.k8s.io/v1: legacyValidateEvent, and for the
// latter the series, eventTime, type and the deprecated members that must be unset.
func EventCauses(ev map[string]any, strict bool) []api.StatusCause {
	causes := legacyEventCauses(ev, strict)
	if !strict {
		return causes
	}
	causes = append(causes, eventSeriesCauses(ev)...)
	if ev["eventTime"] == nil {
		causes = append(causes, validation.Required("eventTime", ""))
	}
	if t := str(ev, "type"); t != "Normal" && t != "Warning" {
		causes = append(causes, validation.Invalid("type", "", "has invalid value: "+t))
	}
	for _, f := range []string{"firstTimestamp", "lastTimestamp"} {
		if ev[f] != nil {
			causes = append(causes, validation.Invalid(f, "", "needs to be unset"))
		}
	}
	if intOf(ev["count"]) != 0 {
		causes = append(causes, validation.Invalid("count", "", "needs to be unset"))
	}
	if src := child(ev, "source"); str(src, "component") != "" || str(src, "host") != "" {
		causes = append(causes, validation.Invalid("source", "", "needs to be unset"))
	}
	return causes
}

// eventSeriesCauses mirrors validateV1EventSeries.
func eventSeriesCauses(ev map[string]any) []api.StatusCause {
	series, ok := ev["series"].(map[string]any)
	if !ok {
		return nil
	}
	var causes []api.StatusCause
	if intOf(series["count"]) < 2 {
		causes = append(causes, validation.Invalid("series.count", "", "should be at least 2"))
	}
	if series["lastObservedTime"] == nil {
		causes = append(causes, validation.Required("series.lastObservedTime", ""))
	}
	return causes
}

// legacyEventCauses mirrors legacyValidateEvent: without an eventTime (an old client's
// event) the involved object's namespace must be the event's; with one, the reporting
// members, action and reason are required and bounded. The reporting controller is named
// reportingComponent for a core/v1 request.
func legacyEventCauses(ev map[string]any, eventsV1 bool) []api.StatusCause {
	var causes []api.StatusCause
	reporting := "reportingComponent"
	if eventsV1 {
		reporting = "reportingController"
	}
	ns := str(child(ev, "metadata"), "namespace")
	involvedNS := str(child(ev, "involvedObject"), "namespace")
	mismatch := validation.Invalid("involvedObject.namespace", involvedNS, "does not match event.namespace")
	if ev["eventTime"] == nil {
		switch {
		case involvedNS == "" && ns != "" && ns != "default":
			causes = append(causes, mismatch)
		case involvedNS != "" && ns != involvedNS:
			causes = append(causes, mismatch)
		}
	} else {
		if involvedNS == "" && ns != "default" && ns != "kube-system" {
			causes = append(causes, mismatch)
		}
		controller := str(ev, "reportingComponent")
		if controller == "" {
			causes = append(causes, validation.Required(reporting, ""))
		}
		for _, msg := range validation.IsQualifiedName(controller) {
			causes = append(causes, validation.Invalid(reporting, controller, msg))
		}
		for _, f := range []struct {
			name  string
			limit int
			req   bool
		}{{"reportingInstance", reportingInstanceLengthLimit, true}, {"action", actionLengthLimit, true}, {"reason", reasonLengthLimit, true}} {
			v := str(ev, f.name)
			if v == "" {
				causes = append(causes, validation.Required(f.name, ""))
			}
			if len(v) > f.limit {
				causes = append(causes, validation.Invalid(f.name, "", fmt.Sprintf("can have at most %d characters", f.limit)))
			}
		}
		if len(str(ev, "message")) > noteLengthLimit {
			causes = append(causes, validation.Invalid("message", "", fmt.Sprintf("can have at most %d characters", noteLengthLimit)))
		}
	}
	for _, msg := range validation.IsDNS1123Subdomain(ns) {
		causes = append(causes, validation.Invalid("namespace", ns, msg))
	}
	return causes
}

// EventUpdateCauses mirrors the events.k8s.io/v1 half of ValidateEventUpdate: the legacy
// rules, a changed series checked again, and every member but the metadata immutable
// (eventTime to the microsecond). An absent member equals its zero value, as the internal
// type cannot tell them apart.
func EventUpdateCauses(ev, old map[string]any) []api.StatusCause {
	causes := legacyEventCauses(ev, true)
	if !reflect.DeepEqual(ev["series"], old["series"]) {
		causes = append(causes, eventSeriesCauses(ev)...)
	}
	immutable := func(k string) {
		if !reflect.DeepEqual(eventMember(ev, k), eventMember(old, k)) {
			causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueInvalid, Field: k,
				Message: "Invalid value: " + internalEventValue(k, ev[k]) + ": field is immutable"})
		}
	}
	for _, k := range []string{"involvedObject", "reason", "message", "source", "firstTimestamp", "lastTimestamp", "count", "reason", "type"} {
		immutable(k)
	}
	if microseconds(ev["eventTime"]) != microseconds(old["eventTime"]) {
		immutable("eventTime")
	}
	for _, k := range []string{"action", "related", "reportingComponent", "reportingInstance"} {
		immutable(k)
	}
	return causes
}

// eventMember is member k of a core Event as the internal type holds it: an absent struct
// is its zero value, an absent string "", an absent count 0.
func eventMember(ev map[string]any, k string) any {
	v, ok := ev[k]
	switch k {
	case "involvedObject", "source":
		m, _ := v.(map[string]any)
		out := map[string]any{}
		for mk, mv := range m {
			if mv != "" && mv != nil {
				out[mk] = mv
			}
		}
		return out
	case "count":
		return intOf(v)
	case "reason", "message", "type", "action", "reportingComponent", "reportingInstance":
		s, _ := v.(string)
		return s
	}
	if !ok {
		return nil
	}
	return v
}

// internalEventValue prints member k as field.Invalid prints the internal Go value: structs
// of the internal types have no JSON tags, so their members print with their Go names, all
// of them, in declaration order.
func internalEventValue(k string, v any) string {
	m, _ := v.(map[string]any)
	var names [][2]string
	switch k {
	case "involvedObject", "related":
		if k == "related" && v == nil {
			return "null"
		}
		names = [][2]string{{"Kind", "kind"}, {"Namespace", "namespace"}, {"Name", "name"}, {"UID", "uid"},
			{"APIVersion", "apiVersion"}, {"ResourceVersion", "resourceVersion"}, {"FieldPath", "fieldPath"}}
	case "source":
		names = [][2]string{{"Component", "component"}, {"Host", "host"}}
	case "count":
		return fmt.Sprint(intOf(v))
	default:
		return immutableValue(eventMember(map[string]any{k: v}, k))
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		s, _ := m[n[1]].(string)
		fmt.Fprintf(&b, "%q:%q", n[0], s)
	}
	b.WriteByte('}')
	return b.String()
}

// immutableValue prints a value as ValidateImmutableField's field.Invalid does.
func immutableValue(v any) string {
	if v == nil {
		return "null"
	}
	c := validation.Invalid("", v, "")
	return c.Message[len("Invalid value: "):]
}

// microseconds is a MicroTime's instant truncated to the microsecond ("" when unset).
func microseconds(v any) string {
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.Truncate(time.Microsecond).UTC().String()
}

// Events is the core/v1 events resource (pkg/registry/core/event).
func Events() rest.Kind {
	return rest.Kind{Resource: "events", Kind: "Event", ShortNames: []string{"ev"}, Fields: eventFields,
		FromStorage: EventFromStorage, Strategy: eventStrategy{rest.Base{GVK: gvk("Event"), Unconditional: true}}}
}

// EventFromStorage is a stored core/v1 Event as its Go type writes it out: with the members
// it writes even when empty (involvedObject and source as {}, the reporting members as "",
// eventTime and the timestamps as null).
func EventFromStorage(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj)+7)
	for k, v := range obj {
		out[k] = api.DeepCopyJSONValue(v)
	}
	for k, zero := range map[string]func() any{
		"involvedObject": emptyObject, "source": emptyObject, "reportingComponent": emptyString, "reportingInstance": emptyString,
		"eventTime": null, "firstTimestamp": null, "lastTimestamp": null,
	} {
		if _, ok := out[k]; !ok {
			out[k] = zero()
		}
	}
	return out
}

func emptyObject() any { return map[string]any{} }
func emptyString() any { return "" }
func null() any        { return nil }

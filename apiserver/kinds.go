package apiserver

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
)

// The built-in kinds: what kube-apiserver v1.36's registries (pkg/registry/…) tell discovery
// and the generic store about each. Every one is stored whole, as an *api.Unstructured; its
// schema, defaults and table columns come from apiserver/internal/{schema,defaulting,printers}.
// There are no controllers: a Deployment creates no ReplicaSet and no Pod (chapter 10 builds
// a controller on the informers instead). kinds_test.go pins every fact below, one row per
// resource.

// kindTraits are the strategy switches of one built-in kind.
type kindTraits struct {
	status     bool // the status subresource exists, and the main resource keeps the stored status
	scale      bool // the scale subresource (autoscaling/v1 Scale) exists
	generation bool // metadata.generation starts at 1 and moves on spec changes
	// resetStatus is the status PrepareForCreate gives a new object, as the real server
	// writes it out (the members without omitempty included); nil keeps the body's.
	resetStatus func() map[string]any
	// noCollectionDelete: the resource has no collection DELETE (namespaces).
	noCollectionDelete bool
}

// builtin describes one served built-in resource.
type builtin struct {
	info  ResourceInfo
	reads map[string]fieldRead // where each extra field label reads its value
}

// fieldRead says where the value of one field label comes from, as the registry's
// GetAttrs/ToSelectableFields computes it.
type fieldRead struct {
	// paths are dotted paths into the stored object (a number indexes a list), tried in
	// order: the first non-empty value wins. None: the label is accepted but never set.
	paths []string
	zero  string // the text of an absent field: "false" for a bool, "0" for a number
}

func textField(paths ...string) fieldRead { return fieldRead{paths: paths} }
func boolField(path string) fieldRead     { return fieldRead{paths: []string{path}, zero: "false"} }
func intField(path string) fieldRead      { return fieldRead{paths: []string{path}, zero: "0"} }

func emptyStatus() map[string]any { return map[string]any{} }

// zeroStatus is an empty status whose members without omitempty are written out as 0, as
// the real server serialises a status struct that PrepareForCreate has cleared.
func zeroStatus(members ...string) func() map[string]any {
	return func() map[string]any {
		st := make(map[string]any, len(members))
		for _, m := range members {
			st[m] = int64(0)
		}
		return st
	}
}

// coreEventFields are the core/v1 Event labels: its conversion function accepts them and
// ToSelectableFields sets them (pkg/apis/core/v1/conversion.go, pkg/registry/core/event).
var coreEventFields = map[string]fieldRead{
	"involvedObject.kind": textField("involvedObject.kind"), "involvedObject.namespace": textField("involvedObject.namespace"),
	"involvedObject.name": textField("involvedObject.name"), "involvedObject.uid": textField("involvedObject.uid"),
	"involvedObject.apiVersion": textField("involvedObject.apiVersion"), "involvedObject.resourceVersion": textField("involvedObject.resourceVersion"),
	"involvedObject.fieldPath": textField("involvedObject.fieldPath"), "reason": textField("reason"),
	"reportingComponent": textField("reportingComponent"), "type": textField("type"),
	// source is the component, or the reporting controller when the component is empty.
	"source": textField("source.component", "reportingComponent"),
}

// eventsV1Fields are the events.k8s.io/v1 labels: the group's own conversion function
// renames them onto the core ones (regarding.* → involvedObject.*, reportingController →
// reportingComponent), so each reads the events.k8s.io member of the same meaning. source
// is not among them.
var eventsV1Fields = map[string]fieldRead{
	"regarding.kind": textField("regarding.kind"), "regarding.namespace": textField("regarding.namespace"),
	"regarding.name": textField("regarding.name"), "regarding.uid": textField("regarding.uid"),
	"regarding.apiVersion": textField("regarding.apiVersion"), "regarding.resourceVersion": textField("regarding.resourceVersion"),
	"regarding.fieldPath": textField("regarding.fieldPath"), "reason": textField("reason"),
	"reportingController": textField("reportingController"), "type": textField("type"),
}

// podFields are the Pod labels. The values are those of the internal Pod the v1 object
// converts to: status.podIP is podIP, else podIPs[0]; spec.serviceAccountName falls back
// to the deprecated spec.serviceAccount.
var podFields = map[string]fieldRead{
	"spec.nodeName": textField("spec.nodeName"), "spec.restartPolicy": textField("spec.restartPolicy"),
	"spec.schedulerName":      textField("spec.schedulerName"),
	"spec.serviceAccountName": textField("spec.serviceAccountName", "spec.serviceAccount"),
	"spec.hostNetwork":        boolField("spec.hostNetwork"), "status.phase": textField("status.phase"),
	"status.podIP": textField("status.podIP", "status.podIPs.0.ip"), "status.nominatedNodeName": textField("status.nominatedNodeName"),
	// Surprising: the conversion function accepts status.podIPs but ToSelectableFields never
	// sets it, so it is always "": status.podIPs= matches every pod, any other value none.
	"status.podIPs": {},
}

// builtinTable lists the built-ins in the order discovery sends them: by group, then resource
// name, as the real /api/v1 and /apis/{group}/{version} documents do. Every resource serves
// the collection DELETE but namespaces, whose REST hides the store's.
var builtinTable = []builtin{
	core("configmaps", "ConfigMap", true, []string{"cm"}, nil, kindTraits{}, nil),
	core("endpoints", "Endpoints", true, []string{"ep"}, nil, kindTraits{}, nil),
	core("events", "Event", true, []string{"ev"}, nil, kindTraits{}, coreEventFields),
	core("namespaces", "Namespace", false, []string{"ns"}, nil, kindTraits{status: true, noCollectionDelete: true},
		map[string]fieldRead{"status.phase": textField("status.phase")}),
	// A node keeps the status it is created with: the kubelet registers it with one.
	core("nodes", "Node", false, []string{"no"}, nil, kindTraits{status: true},
		map[string]fieldRead{"spec.unschedulable": boolField("spec.unschedulable")}),
	// PrepareForCreate empties the status; the v1 defaults then set phase Pending on it.
	core("persistentvolumeclaims", "PersistentVolumeClaim", true, []string{"pvc"}, nil, kindTraits{status: true, resetStatus: emptyStatus}, nil),
	// The real PrepareForCreate replaces the whole status with {phase: Pending, qosClass};
	// object.go only sets phase Pending where the body has none (no qosClass either).
	core("pods", "Pod", true, []string{"po"}, []string{"all"}, kindTraits{status: true, generation: true}, podFields),
	core("secrets", "Secret", true, nil, nil, kindTraits{}, map[string]fieldRead{"type": textField("type")}),
	core("serviceaccounts", "ServiceAccount", true, []string{"sa"}, nil, kindTraits{}, nil),
	core("services", "Service", true, []string{"svc"}, []string{"all"}, kindTraits{status: true,
		resetStatus: func() map[string]any { return map[string]any{"loadBalancer": map[string]any{}} }},
		map[string]fieldRead{"spec.clusterIP": textField("spec.clusterIP"), "spec.type": textField("spec.type")}),

	// The CRD strategy keeps generation and clears the status on create; crd.go writes the
	// conditions its controllers would, in the same write.
	crdKind(),

	group("apps", "daemonsets", "DaemonSet", []string{"ds"}, []string{"all"}, kindTraits{status: true, generation: true,
		resetStatus: zeroStatus("currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady")}, nil),
	group("apps", "deployments", "Deployment", []string{"deploy"}, []string{"all"}, kindTraits{status: true, scale: true, generation: true, resetStatus: emptyStatus}, nil),
	// Surprising: the ReplicaSet strategy computes status.replicas for selectors, but apps/v1
	// registers no field-label conversion for ReplicaSet, so the request is refused (400)
	// before that value is ever read. Only metadata.name and metadata.namespace work.
	group("apps", "replicasets", "ReplicaSet", []string{"rs"}, []string{"all"}, kindTraits{status: true, scale: true, generation: true,
		resetStatus: zeroStatus("replicas")}, nil),
	group("apps", "statefulsets", "StatefulSet", []string{"sts"}, []string{"all"}, kindTraits{status: true, scale: true, generation: true,
		resetStatus: zeroStatus("replicas", "availableReplicas")}, nil),

	group("batch", "cronjobs", "CronJob", []string{"cj"}, []string{"all"}, kindTraits{status: true, generation: true, resetStatus: emptyStatus}, nil),
	// The label says "successful"; the member it reads is status.succeeded.
	group("batch", "jobs", "Job", nil, []string{"all"}, kindTraits{status: true, generation: true, resetStatus: emptyStatus},
		map[string]fieldRead{"status.successful": intField("status.succeeded")}),

	group("coordination.k8s.io", "leases", "Lease", nil, nil, kindTraits{}, nil),
	group("discovery.k8s.io", "endpointslices", "EndpointSlice", nil, nil, kindTraits{generation: true}, nil),
	// kube-apiserver serves events.k8s.io from the core Event storage (pkg/registry/events/rest),
	// short name included; here the two are separate resources.
	group("events.k8s.io", "events", "Event", []string{"ev"}, nil, kindTraits{}, eventsV1Fields),
}

// deleteReturnsObject lists the built-in registries that set ReturnDeletedObject: DELETE
// answers with the object; the others answer with a Success Status.
var deleteReturnsObject = map[string]bool{
	"namespaces": true, "persistentvolumeclaims": true, "pods": true, "serviceaccounts": true, "services": true,
}

func core(resource, kind string, namespaced bool, short, categories []string, t kindTraits, reads map[string]fieldRead) builtin {
	b := group("", resource, kind, short, categories, t, reads)
	b.info.Namespaced = namespaced
	b.info.ReturnDeletedObject = deleteReturnsObject[resource]
	return b
}

func crdKind() builtin {
	b := group(apiextensionsGroup, "customresourcedefinitions", "CustomResourceDefinition", []string{"crd", "crds"}, []string{"api-extensions"},
		kindTraits{status: true, generation: true}, nil)
	b.info.Namespaced = false
	return b
}

func group(g, resource, kind string, short, categories []string, t kindTraits, reads map[string]fieldRead) builtin {
	labels := make([]string, 0, len(reads))
	for l := range reads {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	b := builtin{
		info: ResourceInfo{
			Group: g, Version: "v1", Resource: resource, Kind: kind, Namespaced: true,
			ShortNames: short, Categories: categories, AllowUnconditionalUpdate: true,
			FieldLabels: labels,
			builtin:     true,
			traits:      t,
		},
		reads: reads,
	}
	if len(reads) > 0 {
		b.info.FieldSet = fieldSetOf(reads)
	}
	return b
}

// builtinResources returns a fresh copy of the built-in resources.
func builtinResources() []ResourceInfo {
	out := make([]ResourceInfo, len(builtinTable))
	for i, b := range builtinTable {
		out[i] = b.info
		out[i].ShortNames = append([]string(nil), b.info.ShortNames...)
		out[i].Categories = append([]string(nil), b.info.Categories...)
		out[i].FieldLabels = append([]string(nil), b.info.FieldLabels...)
	}
	return out
}

// fieldSetOf returns a FieldSet that reads each label's value from the stored object, as the
// registries' GetAttrs/ToSelectableFields do: formatted by fieldText, and an absent field is
// its read's zero ("" for a string).
func fieldSetOf(reads map[string]fieldRead) func(api.Object) fields.Set {
	type compiled struct {
		label string
		paths [][]string
		zero  string
	}
	all := make([]compiled, 0, len(reads))
	for label, r := range reads {
		c := compiled{label: label, zero: r.zero}
		for _, p := range r.paths {
			c.paths = append(c.paths, strings.Split(p, "."))
		}
		all = append(all, c)
	}
	return func(obj api.Object) fields.Set {
		set := make(fields.Set, len(all)+2)
		u, ok := obj.(*api.Unstructured)
		if !ok {
			return set
		}
		for _, c := range all {
			set[c.label] = c.zero
			for _, path := range c.paths {
				if v := fieldText(u.Object, path); v != "" {
					set[c.label] = v
					break
				}
			}
		}
		return set
	}
}

// fieldText formats the value at path as GetAttrs does: a string as it is, a bool as
// "true" or "false", an integer in decimal (the registries format their int32 members with
// strconv.Itoa). A number in the path indexes a list. Anything absent, or not a scalar, is "".
func fieldText(obj map[string]any, path []string) string {
	var cur any = obj
	for _, p := range path {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return ""
			}
			cur = c[i]
		default:
			return ""
		}
	}
	switch v := cur.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64: // a whole number decoded as a float is still written as an integer
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

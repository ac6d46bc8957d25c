package rest

import (
	"math"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
)

// Kind is everything the registry needs to serve one built-in kind: its names, what
// discovery says of it, its field labels and its strategy. Each kind's file under
// registry/<group>/ returns one; the registry's table lists them.
type Kind struct {
	Group, Resource, Kind  string
	ShortNames, Categories []string
	// Fields are the field labels beyond metadata.name and metadata.namespace, and where
	// each reads its value (GetAttrs/ToSelectableFields).
	Fields map[string]FieldRead
	// ReturnDeletedObject: DELETE answers with the object, not a Success Status.
	ReturnDeletedObject bool
	// NoCollectionDelete: the resource has no collection DELETE (namespaces).
	NoCollectionDelete bool
	// Version is the served version; "v1" when empty.
	Version string
	// Verbs, when set, are the only verbs served (sorted as discovery sends them): "create"
	// for the reviews and bindings, "get" and "list" for componentstatuses. Any other verb
	// is 405, as for a REST storage that lacks the interface.
	Verbs []string
	// Subresources are the subresources beyond status, scale and finalize (which the
	// strategy implies): pods/eviction, serviceaccounts/token, nodes/proxy, … Each needs a
	// handler in the endpoints layer.
	Subresources []Subresource
	// Storage is the kind objects are stored as when it is another group-version's: core
	// v1 Event for events.k8s.io, autoscaling/v2 for autoscaling/v1 HorizontalPodAutoscalers.
	Storage api.GroupVersionKind
	// ToStorage converts an object of this kind, as a request carries it, into the kind it
	// is stored as (Storage), and FromStorage a stored object back, as the group's
	// conversion functions do through the internal type (Convert_v1_Event_To_core_Event of
	// events.k8s.io). FromStorage also serves a kind stored as itself whose stored form
	// lacks members its Go type always writes out. Nil: the object as stored.
	ToStorage, FromStorage func(obj map[string]any) map[string]any
	// Bootstrap returns the objects of this kind a fresh kube-apiserver creates in its
	// post-start hooks (the system PriorityClasses, the bootstrap RBAC roles and bindings,
	// the default FlowSchemas, the built-in APIServices, …), as JSON trees with apiVersion
	// and kind, built afresh on every call and sharing nothing: the caller stores them as
	// they are. Nil for none.
	Bootstrap func() []map[string]any
	// Conversions are the further versions the kind is served at, each converted to and
	// from Version (autoscaling/v1 HorizontalPodAutoscalers beside the stored v2).
	Conversions []Conversion
	// Deprecated is the warning every request to the resource gets, whatever its verb and
	// answer: what the deprecation filter builds from the type's APILifecycleDeprecated and
	// APILifecycleReplacement ("v1 Endpoints is deprecated in v1.33+; use
	// discovery.k8s.io/v1 EndpointSlice"). "": not deprecated.
	Deprecated string
	Strategy   Strategy
}

// Conversion is one further served version of a kind: what the scheme's conversion through
// the internal version does to an object, as two functions that change a JSON tree in place,
// its apiVersion included.
type Conversion struct {
	Version string
	// ToStorage turns an object of Version into the stored version; FromStorage the reverse.
	ToStorage, FromStorage func(obj map[string]any)
}

// The verb sets discovery lists for subresources.
var (
	// StatusVerbs are the verbs of status, scale and the other subresources that read and
	// write a part of the object.
	StatusVerbs = []string{"get", "patch", "update"}
	// ProxyVerbs are the verbs of the proxy subresources.
	ProxyVerbs = []string{"create", "delete", "get", "patch", "update"}
)

// Subresource is one further subresource of a kind, as discovery lists it.
type Subresource struct {
	Name string
	// Kind is the request and response kind; an empty group and version mean the
	// resource's own group-version, which discovery then leaves empty as the real one does.
	Kind  api.GroupVersionKind
	Verbs []string // sorted
}

// FieldRead says where the value of one field label comes from, as the registry's
// GetAttrs/ToSelectableFields computes it.
type FieldRead struct {
	// Paths are dotted paths into the stored object (a number indexes a list), tried in
	// order: the first non-empty value wins. None: the label is accepted but never set.
	Paths []string
	Zero  string // the text of an absent field: "false" for a bool, "0" for a number
}

// TextField reads a string label from the first non-empty path.
func TextField(paths ...string) FieldRead { return FieldRead{Paths: paths} }

// BoolField reads a bool label ("false" when absent).
func BoolField(path string) FieldRead { return FieldRead{Paths: []string{path}, Zero: "false"} }

// IntField reads an integer label ("0" when absent).
func IntField(path string) FieldRead { return FieldRead{Paths: []string{path}, Zero: "0"} }

// FieldSetOf returns a FieldSet that reads each label's value from the stored object, as the
// registries' GetAttrs/ToSelectableFields do: formatted by fieldText, and an absent field is
// its read's zero ("" for a string).
func FieldSetOf(reads map[string]FieldRead) func(api.Object) fields.Set {
	type compiled struct {
		label string
		paths [][]string
		zero  string
	}
	all := make([]compiled, 0, len(reads))
	for label, r := range reads {
		c := compiled{label: label, zero: r.Zero}
		for _, p := range r.Paths {
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
				if v := FieldText(u.Object, path); v != "" {
					set[c.label] = v
					break
				}
			}
		}
		return set
	}
}

// FieldText formats the value at path as GetAttrs does: a string as it is, a bool as
// "true" or "false", an integer in decimal (the registries format their int32 members with
// strconv.Itoa). A number in the path indexes a list. Anything absent, or not a scalar, is "".
func FieldText(obj map[string]any, path []string) string {
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

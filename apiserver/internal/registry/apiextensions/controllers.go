package apiextensions

import (
	"reflect"
	"slices"

	"github.com/informer-lab/informer-lab/api"
)

// The status writes of the controllers of k8s.io/apiextensions-apiserver pkg/controller,
// which the registry runs at once after a CRD's write, each as a write of its own: the
// NamingConditionController (acceptedNames, NamesAccepted, Established False while
// installing), the EstablishingController (Established True) and the
// KubernetesAPIApprovalPolicyConformantConditionController. The NonStructuralSchema
// condition never appears: a v1 CRD's schemas must all be structural.

// condition is one status condition, as a stored map.
type condition struct{ typ, status, reason, message string }

func conditionsOf(st map[string]any) []any {
	l, _ := st["conditions"].([]any)
	return l
}

func findCondition(st map[string]any, typ string) map[string]any {
	for _, c := range conditionsOf(st) {
		if m, ok := c.(map[string]any); ok && m["type"] == typ {
			return m
		}
	}
	return nil
}

// equivalent mirrors IsCRDConditionEquivalent.
func (c condition) equivalent(m map[string]any) bool {
	return m != nil && m["status"] == c.status && m["reason"] == c.reason && m["message"] == c.message
}

// setCondition mirrors SetCRDCondition: the transition time moves only with the status.
func setCondition(st map[string]any, c condition, now api.Time) {
	ts := now.UTC().Format("2006-01-02T15:04:05Z")
	if m := findCondition(st, c.typ); m != nil {
		if m["status"] != c.status || m["lastTransitionTime"] == nil {
			m["lastTransitionTime"] = ts
		}
		m["status"], m["reason"], m["message"] = c.status, c.reason, c.message
		return
	}
	st["conditions"] = append(conditionsOf(st), map[string]any{
		"type": c.typ, "status": c.status, "reason": c.reason, "message": c.message, "lastTransitionTime": ts,
	})
}

func statusOf(obj *api.Unstructured) map[string]any {
	st, _ := obj.Object["status"].(map[string]any)
	return st
}

// acceptedNamesOf reads status.acceptedNames.
func acceptedNamesOf(obj *api.Unstructured) Names {
	var n Names
	an, _ := statusOf(obj)["acceptedNames"].(map[string]any)
	n.Plural, _ = an["plural"].(string)
	n.Singular, _ = an["singular"].(string)
	n.Kind, _ = an["kind"].(string)
	n.ListKind, _ = an["listKind"].(string)
	n.ShortNames = toStrings(an["shortNames"])
	n.Categories = toStrings(an["categories"])
	return n
}

func namesJSON(n Names) map[string]any {
	m := map[string]any{"plural": n.Plural, "kind": n.Kind}
	if n.Singular != "" {
		m["singular"] = n.Singular
	}
	if n.ListKind != "" {
		m["listKind"] = n.ListKind
	}
	if len(n.ShortNames) > 0 {
		m["shortNames"] = toAnySlice(n.ShortNames)
	}
	if len(n.Categories) > 0 {
		m["categories"] = toAnySlice(n.Categories)
	}
	return m
}

// NamingStatus mirrors NamingConditionController.sync: the CRD's next state given the
// other CRDs of its group, or nil when its accepted names and NamesAccepted condition would
// not change. A name another CRD of the group has accepted is a conflict: NamesAccepted
// False with the conflict's reason, Established False NotAccepted (if not yet True).
func NamingStatus(crd *api.Unstructured, others []*api.Unstructured, now api.Time) *api.Unstructured {
	spec := ReadSpec(crd)
	resources, kinds := map[string]bool{}, map[string]bool{}
	for _, o := range others {
		if o.GetName() == crd.GetName() || ReadSpec(o).Group != spec.Group {
			continue
		}
		n := acceptedNamesOf(o)
		resources[n.Plural], resources[n.Singular] = true, true
		for _, s := range n.ShortNames {
			resources[s] = true
		}
		kinds[n.Kind], kinds[n.ListKind] = true, true
	}
	fresh := func(requested, accepted string, used map[string]bool) bool {
		return requested == accepted || !used[requested]
	}
	accepted := acceptedNamesOf(crd)
	next := accepted
	named := condition{typ: "NamesAccepted", status: "Unknown"}
	conflict := func(reason, name string) {
		named.status, named.reason, named.message = "False", reason, `"`+name+`" is already in use`
	}
	req := spec.Names
	if fresh(req.Plural, accepted.Plural, resources) {
		next.Plural = req.Plural
	} else {
		conflict("PluralConflict", req.Plural)
	}
	if fresh(req.Singular, accepted.Singular, resources) {
		next.Singular = req.Singular
	} else {
		conflict("SingularConflict", req.Singular)
	}
	if !slices.Equal(req.ShortNames, accepted.ShortNames) {
		var bad []string
		for _, s := range req.ShortNames {
			if !slices.Contains(accepted.ShortNames, s) && !fresh(s, "", resources) {
				bad = append(bad, `"`+s+`" is already in use`)
			}
		}
		if len(bad) > 0 {
			named.status, named.reason, named.message = "False", "ShortNamesConflict", aggregate(bad)
		} else {
			next.ShortNames = req.ShortNames
		}
	}
	if fresh(req.Kind, accepted.Kind, kinds) {
		next.Kind = req.Kind
	} else {
		conflict("KindConflict", req.Kind)
	}
	if fresh(req.ListKind, accepted.ListKind, kinds) {
		next.ListKind = req.ListKind
	} else {
		conflict("ListKindConflict", req.ListKind)
	}
	next.Categories = req.Categories
	if named.status == "Unknown" {
		named.status, named.reason, named.message = "True", "NoConflicts", "no conflicts found"
	}
	st := statusOf(crd)
	if reflect.DeepEqual(namesJSON(accepted), namesJSON(next)) && named.equivalent(findCondition(st, "NamesAccepted")) {
		return nil
	}
	established := condition{typ: "Established", status: "False", reason: "NotAccepted", message: "not all names are accepted"}
	if old := findCondition(st, "Established"); old != nil {
		established.status, _ = old["status"].(string)
		established.reason, _ = old["reason"].(string)
		established.message, _ = old["message"].(string)
	}
	if established.status != "True" && named.status == "True" {
		established = condition{typ: "Established", status: "False", reason: "Installing", message: "the initial names have been accepted"}
	}
	out := crd.DeepCopy()
	ost := statusOf(out)
	ost["acceptedNames"] = namesJSON(next)
	setCondition(ost, named, now)
	setCondition(ost, established, now)
	return out
}

// aggregate prints errors as utilerrors.NewAggregate does.
func aggregate(msgs []string) string {
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + joinComma(msgs) + "]"
}

// EstablishedStatus mirrors EstablishingController.sync: a CRD whose names are accepted
// becomes Established (or not, with an invalid conversion caBundle); nil when nothing
// changes.
func EstablishedStatus(crd *api.Unstructured, now api.Time) *api.Unstructured {
	st := statusOf(crd)
	if !conditionTrue(crd, "NamesAccepted") || conditionTrue(crd, "Established") {
		return nil
	}
	c := condition{typ: "Established", status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted"}
	spec := ReadSpec(crd)
	if spec.Conversion != nil && spec.Conversion.Webhook != nil && spec.Conversion.Webhook.ClientConfig != nil &&
		caBundleError(spec.Conversion.Webhook.ClientConfig.CABundle) != nil {
		c = condition{typ: "Established", status: "False", reason: "InvalidCABundle", message: "The conversion webhook CABundle is invalid"}
	}
	if c.equivalent(findCondition(st, "Established")) {
		return nil
	}
	out := crd.DeepCopy()
	setCondition(statusOf(out), c, now)
	return out
}

// ApprovalStatus mirrors the KubernetesAPIApprovalPolicyConformant condition controller:
// for a CRD of a group under k8s.io or kubernetes.io, whether it carries the approval
// annotation; nil when nothing changes.
func ApprovalStatus(crd *api.Unstructured, now api.Time) *api.Unstructured {
	spec := ReadSpec(crd)
	if !isProtectedGroup(spec.Group) {
		return nil
	}
	state, reason := approvalState(crd.GetAnnotations())
	c := condition{typ: "KubernetesAPIApprovalPolicyConformant", message: reason}
	switch state {
	case "Invalid":
		c.status, c.reason = "False", "InvalidAnnotation"
	case "Missing":
		c.status, c.reason = "False", "MissingAnnotation"
	case "Approved":
		c.status, c.reason = "True", "ApprovedAnnotation"
	case "Bypassed":
		c.status, c.reason = "False", "UnapprovedAnnotation"
	}
	if c.equivalent(findCondition(statusOf(crd), c.typ)) {
		return nil
	}
	out := crd.DeepCopy()
	setCondition(statusOf(out), c, now)
	return out
}

// Serves reports whether a CRD's resource is served: its names are accepted, or it is
// Established (crdHandler serves both).
func Serves(crd *api.Unstructured) bool {
	return conditionTrue(crd, "Established") || conditionTrue(crd, "NamesAccepted")
}

// SetTerminating sets the Terminating condition, as the CRD's REST delete and the
// CRDFinalizer do.
func SetTerminating(obj *api.Unstructured, status, reason, message string, now api.Time) {
	st := statusOf(obj)
	if st == nil {
		st = map[string]any{}
		obj.Object["status"] = st
	}
	setCondition(st, condition{typ: "Terminating", status: status, reason: reason, message: message}, now)
}

// IsTerminating mirrors IsCRDConditionTrue(crd, Terminating): the condition the CRD's delete
// sets, under which its custom resource refuses creates.
func IsTerminating(obj *api.Unstructured) bool { return conditionTrue(obj, "Terminating") }

// Established reports the Established condition True.
func Established(obj *api.Unstructured) bool { return conditionTrue(obj, "Established") }

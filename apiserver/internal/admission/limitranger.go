package admission

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// limitRangerAnnotation records what LimitRanger set on a pod.
const limitRangerAnnotation = "kubernetes.io/limit-ranger"

// LimitRanger mirrors plugin/pkg/admission/limitranger with its default actions: the
// mutating phase gives a new pod's containers the defaults of the namespace's LimitRanges
// (Container limits), the validating phase refuses pods and claims outside their min, max
// and maxLimitRequestRatio.
type LimitRanger struct{}

// Name implements Interface.
func (LimitRanger) Name() string { return "LimitRanger" }

// Handles implements Interface.
func (LimitRanger) Handles(op Operation) bool { return op == Create || op == Update }

// supports mirrors DefaultLimitRangerActions.SupportsAttributes.
func (LimitRanger) supports(a *Attributes) bool {
	if a.Object == nil || a.Resource.Group != "" {
		return false
	}
	isPod := a.Resource.Resource == "pods"
	if isPod && a.Operation == Update && a.Subresource == "resize" {
		return true
	}
	if a.Subresource != "" || (isPod && a.Operation == Update) {
		return false
	}
	return isPod || a.Resource.Resource == "persistentvolumeclaims"
}

// ranges returns the namespace's LimitRanges, or nil when the request is not the plugin's.
func (l LimitRanger) ranges(a *Attributes) []*api.Unstructured {
	if !l.supports(a) || (a.OldObject != nil && a.OldObject.GetDeletionTimestamp() != nil) {
		return nil
	}
	return a.list("", "limitranges", a.Namespace)
}

// Admit implements MutationInterface (PodMutateLimitFunc).
func (l LimitRanger) Admit(_ context.Context, a *Attributes) error {
	for _, lr := range l.ranges(a) {
		if a.Resource.Resource != "pods" {
			continue
		}
		requests, limits := map[string]any{}, map[string]any{}
		for _, item := range items(child(lr.Object, "spec"), "limits") {
			if str(item, "type") != "Container" {
				continue
			}
			for k, v := range child(item, "defaultRequest") {
				requests[k] = v
			}
			for k, v := range child(item, "default") {
				limits[k] = v
			}
		}
		spec := podSpec(a)
		var notes []string
		for i, key := range []string{"containers", "initContainers"} {
			for _, c := range items(spec, key) {
				notes = mergeDefaults(c, requests, limits, [...]string{"container", "init container"}[i], notes)
			}
		}
		if len(notes) > 0 {
			an := a.Object.GetAnnotations()
			if an == nil {
				an = map[string]string{}
			}
			an[limitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
			a.Object.SetAnnotations(an)
		}
	}
	return nil
}

// mergeDefaults mirrors mergeContainerResources: what a container lacks, and the note.
func mergeDefaults(c map[string]any, requests, limits map[string]any, who string, notes []string) []string {
	res := ensureChild(c, "resources")
	var setReq, setLim []string
	for _, d := range []struct {
		key  string
		from map[string]any
		set  *[]string
	}{{"limits", limits, &setLim}, {"requests", requests, &setReq}} {
		if len(d.from) == 0 {
			continue
		}
		to := ensureChild(res, d.key)
		for k, v := range d.from {
			if _, ok := to[k]; !ok {
				to[k] = v
				*d.set = append(*d.set, k)
			}
		}
	}
	name := str(c, "name")
	if len(setReq) > 0 {
		sort.Strings(setReq)
		notes = append(notes, strings.Join(setReq, ", ")+" request for "+who+" "+name)
	}
	if len(setLim) > 0 {
		sort.Strings(setLim)
		notes = append(notes, strings.Join(setLim, ", ")+" limit for "+who+" "+name)
	}
	return notes
}

// Validate implements ValidationInterface (PodValidateLimitFunc and
// PersistentVolumeClaimValidateLimitFunc).
func (l LimitRanger) Validate(_ context.Context, a *Attributes) error {
	for _, lr := range l.ranges(a) {
		var errs []error
		for _, item := range items(child(lr.Object, "spec"), "limits") {
			typ := str(item, "type")
			switch {
			case a.Resource.Resource == "persistentvolumeclaims" && typ == "PersistentVolumeClaim":
				req := child(child(child(a.Object.Object, "spec"), "resources"), "requests")
				errs = checkLimitItem(errs, item, typ, req, nil, true)
			case a.Resource.Resource == "pods" && typ == "Container":
				spec := podSpec(a)
				for _, key := range []string{"containers", "initContainers"} {
					for _, c := range items(spec, key) {
						res := child(c, "resources")
						errs = checkLimitItem(errs, item, typ, child(res, "requests"), child(res, "limits"), false)
					}
				}
			case a.Resource.Resource == "pods" && typ == "Pod":
				req, lim := podTotals(podSpec(a), "requests"), podTotals(podSpec(a), "limits")
				errs = checkLimitItem(errs, item, typ, req, lim, false)
			}
		}
		if len(errs) > 0 {
			return forbidden(a, aggregate(errs))
		}
	}
	return nil
}

// aggregate mirrors utilerrors.NewAggregate's message: one error alone, else a list.
func aggregate(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}

// checkLimitItem applies one LimitRange item's min, max and ratio (a claim's max is on its
// request).
func checkLimitItem(errs []error, item map[string]any, typ string, req, lim map[string]any, claim bool) []error {
	for _, k := range sortedKeys(child(item, "min")) {
		if err := minConstraint(typ, k, child(item, "min")[k], req, lim); err != nil {
			errs = append(errs, err)
		}
	}
	for _, k := range sortedKeys(child(item, "max")) {
		var err error
		if claim {
			err = maxRequestConstraint(typ, k, child(item, "max")[k], req)
		} else {
			err = maxConstraint(typ, k, child(item, "max")[k], req, lim)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if claim {
		return errs
	}
	for _, k := range sortedKeys(child(item, "maxLimitRequestRatio")) {
		if err := ratioConstraint(typ, k, child(item, "maxLimitRequestRatio")[k], req, lim); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// observed returns the list's quantity of name, and whether it is there.
func observed(list map[string]any, name string) (quantity, string, bool) {
	v, ok := list[name]
	if !ok {
		return zeroQuantity(), "0", false
	}
	q, err := parseQuantity(v)
	if err != nil {
		return zeroQuantity(), fmt.Sprint(v), true
	}
	return q, q.text(v), true
}

// text is what Quantity.String prints of a stored value: its own text when canonical.
func (q quantity) text(stored any) string {
	if s, ok := stored.(string); ok {
		return s
	}
	return q.String()
}

func minConstraint(typ, name string, enforcedRaw any, req, lim map[string]any) error {
	enforced, _ := parseQuantity(enforcedRaw)
	e := enforced.text(enforcedRaw)
	r, rs, rok := observed(req, name)
	l, ls, lok := observed(lim, name)
	if !rok {
		return fmt.Errorf("minimum %s usage per %s is %s.  No request is specified", name, typ, e)
	}
	if r.milliValue().Cmp(enforced.milliValue()) < 0 {
		return fmt.Errorf("minimum %s usage per %s is %s, but request is %s", name, typ, e, rs)
	}
	if lok && l.milliValue().Cmp(enforced.milliValue()) < 0 {
		return fmt.Errorf("minimum %s usage per %s is %s, but limit is %s", name, typ, e, ls)
	}
	return nil
}

func maxRequestConstraint(typ, name string, enforcedRaw any, req map[string]any) error {
	enforced, _ := parseQuantity(enforcedRaw)
	e := enforced.text(enforcedRaw)
	r, rs, rok := observed(req, name)
	if !rok {
		return fmt.Errorf("maximum %s usage per %s is %s.  No request is specified", name, typ, e)
	}
	if r.milliValue().Cmp(enforced.milliValue()) > 0 {
		return fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, typ, e, rs)
	}
	return nil
}

func maxConstraint(typ, name string, enforcedRaw any, req, lim map[string]any) error {
	enforced, _ := parseQuantity(enforcedRaw)
	e := enforced.text(enforcedRaw)
	r, rs, rok := observed(req, name)
	l, ls, lok := observed(lim, name)
	if !lok {
		return fmt.Errorf("maximum %s usage per %s is %s.  No limit is specified", name, typ, e)
	}
	if l.milliValue().Cmp(enforced.milliValue()) > 0 {
		return fmt.Errorf("maximum %s usage per %s is %s, but limit is %s", name, typ, e, ls)
	}
	if rok && r.milliValue().Cmp(enforced.milliValue()) > 0 {
		return fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, typ, e, rs)
	}
	return nil
}

func ratioConstraint(typ, name string, enforcedRaw any, req, lim map[string]any) error {
	enforced, _ := parseQuantity(enforcedRaw)
	e := enforced.text(enforcedRaw)
	r, _, rok := observed(req, name)
	l, _, lok := observed(lim, name)
	if !rok || r.v.Sign() == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", name, typ, e)
	}
	if !lok || l.v.Sign() == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", name, typ, e)
	}
	rm, lm := r.milliValue(), l.milliValue()
	ratio, _ := new(big.Rat).SetFrac(lm, rm).Float64()
	max, _ := enforced.v.Float64()
	if ratio > max {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but provided ratio is %f", name, typ, e, ratio)
	}
	return nil
}

// podTotals mirrors podRequests and podLimits: the containers' sum, at least the largest
// init container (restartable ones add up as sidecars), replaced by pod-level values.
func podTotals(spec map[string]any, key string) map[string]any {
	total := map[string]quantity{}
	addTo := func(into map[string]quantity, list map[string]any) {
		for k, v := range list {
			q, err := parseQuantity(v)
			if err != nil {
				continue
			}
			if cur, ok := into[k]; ok {
				into[k] = cur.add(q)
			} else {
				into[k] = q
			}
		}
	}
	maxInto := func(into, from map[string]quantity) {
		for k, q := range from {
			if cur, ok := into[k]; !ok || q.cmp(cur) > 0 {
				into[k] = q
			}
		}
	}
	for _, c := range items(spec, "containers") {
		addTo(total, child(child(c, "resources"), key))
	}
	sidecars, inits := map[string]quantity{}, map[string]quantity{}
	for _, c := range items(spec, "initContainers") {
		list := child(child(c, "resources"), key)
		tmp := map[string]quantity{}
		if str(c, "restartPolicy") == "Always" {
			addTo(total, list)
			addTo(sidecars, list)
			for k, q := range sidecars {
				tmp[k] = q
			}
		} else {
			addTo(tmp, list)
			for k, q := range sidecars {
				if cur, ok := tmp[k]; ok {
					tmp[k] = cur.add(q)
				} else {
					tmp[k] = q
				}
			}
		}
		maxInto(inits, tmp)
	}
	maxInto(total, inits)
	out := make(map[string]any, len(total))
	for k, q := range total {
		out[k] = q.String()
	}
	for k, v := range child(child(spec, "resources"), key) {
		if k == "cpu" || k == "memory" || strings.HasPrefix(k, "hugepages-") {
			out[k] = v
		}
	}
	return out
}

package admission

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// Recheck implements Rechecker (CheckRequest, then the quota status update).
func (ResourceQuota) Recheck(_ context.Context, a *Attributes) error {
	if !quotaHandles(a) || a.Store == nil {
		return nil
	}
	quotas := a.list("", "resourcequotas", a.Namespace)
	if len(quotas) == 0 {
		return nil
	}
	isPod := a.Resource == api.GroupResource{Resource: "pods"}
	type hit struct {
		q    *api.Unstructured
		hard map[string]any
	}
	var hits []hit
	for _, q := range quotas {
		hard := child(child(q.Object, "status"), "hard")
		names := quotaMatches(a.Resource, sortedKeys(hard))
		if len(names) == 0 || !scopesMatch(q.Object, a.Object.Object, isPod) {
			continue
		}
		if isPod {
			if err := podConstraints(names, podSpec(a)); err != nil {
				return forbidden(a, fmt.Errorf("failed quota: %s: %v", q.GetName(), err))
			}
		}
		used := child(child(q.Object, "status"), "used")
		for _, n := range names {
			if _, ok := used[n]; !ok {
				return forbidden(a, fmt.Errorf("status unknown for quota: %s, resources: %s", q.GetName(), strings.Join(sortedCopy(names), ",")))
			}
		}
		hits = append(hits, hit{q, hard})
	}
	if len(hits) == 0 {
		return nil
	}
	delta := usage(a.Resource, a.Object.Object)
	for k, v := range delta {
		if v.v.Sign() < 0 {
			return forbidden(a, fmt.Errorf("quota usage is negative for resource(s): %s", k))
		}
	}
	if a.Operation == Update && a.OldObject != nil {
		prev := usage(a.Resource, a.OldObject.Object)
		for k, v := range delta {
			if p, ok := prev[k]; ok {
				if d := v.sub(p); d.v.Sign() > 0 {
					delta[k] = d
				} else {
					delete(delta, k)
				}
			}
		}
	}
	for k, v := range delta {
		if v.v.Sign() == 0 {
			delete(delta, k)
		}
	}
	if len(delta) == 0 {
		return nil
	}
	var changed []*api.Unstructured
	for _, h := range hits {
		used := child(child(h.q.Object, "status"), "used")
		requested := map[string]quantity{}
		for k, v := range delta {
			if _, limited := h.hard[k]; limited {
				requested[k] = v
			}
		}
		if len(requested) == 0 {
			continue
		}
		newUsed := map[string]quantity{}
		for k, v := range used {
			if q, err := parseQuantity(v); err == nil {
				newUsed[k] = q
			}
		}
		var exceeded []string
		for k, v := range requested {
			cur, ok := newUsed[k]
			if !ok {
				cur = zeroQuantity()
			}
			newUsed[k] = cur.add(v)
			hard, err := parseQuantity(h.hard[k])
			if a.Subresource != "status" && err == nil && newUsed[k].cmp(hard) > 0 {
				exceeded = append(exceeded, k)
			}
		}
		if len(exceeded) > 0 {
			pick := func(from func(string) string) string {
				parts := make([]string, 0, len(exceeded))
				for _, k := range sortedCopy(exceeded) {
					parts = append(parts, k+"="+from(k))
				}
				return strings.Join(parts, ",")
			}
			return forbidden(a, fmt.Errorf("exceeded quota: %s, requested: %s, used: %s, limited: %s", h.q.GetName(),
				pick(func(k string) string { return requested[k].String() }),
				pick(func(k string) string { return textOf(used[k]) }),
				pick(func(k string) string { return textOf(h.hard[k]) })))
		}
		next := h.q.DeepCopy()
		nu := ensureChild(ensureChild(next.Object, "status"), "used")
		for k := range requested {
			nu[k] = newUsed[k].String()
		}
		changed = append(changed, next)
	}
	if a.DryRun {
		return nil
	}
	for _, q := range changed {
		if err := a.Store.UpdateStatus("", "resourcequotas", q); err != nil {
			return err
		}
	}
	return nil
}

// textOf prints a stored quantity as Quantity.String does.
func textOf(v any) string {
	q, err := parseQuantity(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return q.text(v)
}

func sortedCopy(l []string) []string {
	out := append([]string(nil), l...)
	sort.Strings(out)
	return out
}

// podConstraints mirrors the pod evaluator's Constraints: every container must state the
// cpu and memory requests and limits the quota limits.
func podConstraints(limited []string, spec map[string]any) error {
	if child(spec, "resources") != nil {
		return nil // pod-level resources stand for the containers'
	}
	required := map[string]bool{}
	for _, n := range limited {
		switch n {
		case "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory":
			required[n] = true
		}
	}
	missing := map[string][]string{}
	for _, key := range []string{"containers", "initContainers"} {
		for _, c := range items(spec, key) {
			res := child(c, "resources")
			has := podUsage(child(res, "requests"), child(res, "limits"))
			for n := range required {
				if _, ok := has[n]; !ok {
					missing[n] = append(missing[n], str(c, "name"))
				}
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var msgs []string
	for _, n := range sortedKeys(anyMap(missing)) {
		msgs = append(msgs, n+" for: "+strings.Join(sortedUnique(missing[n]), ","))
	}
	return fmt.Errorf("must specify %s", strings.Join(msgs, "; "))
}

func anyMap(m map[string][]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func sortedUnique(l []string) []string {
	s := sortedCopy(l)
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

package admission

import (
	"context"
	"fmt"
	"reflect"
	"sort"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// RuntimeClass mirrors plugin/pkg/admission/runtimeclass: a pod's RuntimeClass must exist;
// its overhead becomes the pod's, and its scheduling constraints join the pod's node
// selector and tolerations.
type RuntimeClass struct{}

// Name implements Interface.
func (RuntimeClass) Name() string { return "RuntimeClass" }

// Handles implements Interface.
func (RuntimeClass) Handles(op Operation) bool { return op == Create }

// runtimeClassOf mirrors prepareObjects: the pod's class, or a 403 when it is missing.
func runtimeClassOf(a *Attributes) (map[string]any, error) {
	name, ok := podSpec(a)["runtimeClassName"].(string)
	if !ok {
		return nil, nil
	}
	rc := a.get("node.k8s.io", "runtimeclasses", "", name)
	if rc == nil {
		return nil, forbidden(a, fmt.Errorf("pod rejected: RuntimeClass %q not found", name))
	}
	return rc.Object, nil
}

// Admit implements MutationInterface.
func (RuntimeClass) Admit(_ context.Context, a *Attributes) error {
	if !isPod(a) {
		return nil
	}
	rc, err := runtimeClassOf(a)
	if err != nil || rc == nil {
		return err
	}
	spec := podSpec(a)
	if fixed := child(child(rc, "overhead"), "podFixed"); fixed != nil {
		if cur := child(spec, "overhead"); len(cur) > 0 && !sameResources(cur, fixed) {
			return forbidden(a, fmt.Errorf("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"))
		}
		spec["overhead"] = api.DeepCopyJSONValue(fixed)
	}
	sched := child(rc, "scheduling")
	if sched == nil {
		return nil
	}
	if sel := child(sched, "nodeSelector"); sel != nil {
		podSel := child(spec, "nodeSelector")
		if podSel == nil {
			spec["nodeSelector"] = api.DeepCopyJSONValue(sel)
		} else {
			keys := make([]string, 0, len(sel))
			for k := range sel {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if pv, ok := podSel[k]; ok && pv != sel[k] {
					return forbidden(a, fmt.Errorf("conflict: runtimeClass.scheduling.nodeSelector[%s] = %v; pod.spec.nodeSelector[%s] = %v", k, sel[k], k, pv))
				}
				podSel[k] = sel[k]
			}
		}
	}
	for _, t := range items(sched, "tolerations") {
		dup := false
		for _, have := range items(spec, "tolerations") {
			if reflect.DeepEqual(have, t) {
				dup = true
				break
			}
		}
		if !dup {
			appendItem(spec, "tolerations", api.DeepCopyJSONValue(t))
		}
	}
	return nil
}

// Validate implements ValidationInterface (validateOverhead).
func (RuntimeClass) Validate(_ context.Context, a *Attributes) error {
	if !isPod(a) {
		return nil
	}
	rc, err := runtimeClassOf(a)
	if err != nil {
		return err
	}
	overhead := child(podSpec(a), "overhead")
	if fixed := child(child(rc, "overhead"), "podFixed"); fixed != nil {
		if !sameResources(overhead, fixed) {
			return forbidden(a, fmt.Errorf("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"))
		}
	} else if _, set := podSpec(a)["overhead"].(map[string]any); set {
		return forbidden(a, fmt.Errorf("pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"))
	}
	return nil
}

// sameResources compares two resource lists by value, as Semantic.DeepEqual does.
func sameResources(x, y map[string]any) bool {
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		w, ok := y[k]
		if !ok {
			return false
		}
		c, err := schema.CompareQuantities(fmt.Sprint(v), fmt.Sprint(w))
		if err != nil || c != 0 {
			return false
		}
	}
	return true
}

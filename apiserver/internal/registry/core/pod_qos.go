package core

import (
	"fmt"

	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// PodQOSClass mirrors qos.GetPodQOS for a v1 pod as generic JSON: the status's class when
// the body has one, else ComputePodQOS with PodLevelResources on. Only cpu and memory
// count, and only amounts above zero.
func PodQOSClass(pod map[string]any) string {
	status, _ := pod["status"].(map[string]any)
	if q, _ := status["qosClass"].(string); q != "" {
		return q
	}
	spec, _ := pod["spec"].(map[string]any)
	requests, limits := map[string][]string{}, map[string][]string{}
	guaranteed := true
	add := func(into map[string][]string, list map[string]any) map[string]bool {
		found := map[string]bool{}
		for _, name := range []string{"cpu", "memory"} {
			v, ok := list[name]
			if !ok {
				continue
			}
			if c, err := schema.CompareQuantities(fmt.Sprint(v), "0"); err == nil && c > 0 {
				into[name] = append(into[name], fmt.Sprint(v))
				found[name] = true
			}
		}
		return found
	}
	if res, ok := spec["resources"].(map[string]any); ok {
		req, _ := res["requests"].(map[string]any)
		lim, _ := res["limits"].(map[string]any)
		add(requests, req)
		if len(lim) > 0 {
			if f := add(limits, lim); !f["cpu"] || !f["memory"] {
				guaranteed = false
			}
		}
	} else {
		for _, key := range []string{"containers", "initContainers"} {
			list, _ := spec[key].([]any)
			for _, x := range list {
				c, _ := x.(map[string]any)
				res, _ := c["resources"].(map[string]any)
				req, _ := res["requests"].(map[string]any)
				lim, _ := res["limits"].(map[string]any)
				add(requests, req)
				if f := add(limits, lim); !f["cpu"] || !f["memory"] {
					guaranteed = false
				}
			}
		}
	}
	if len(requests) == 0 && len(limits) == 0 {
		return "BestEffort"
	}
	if guaranteed {
		for name, req := range requests {
			lim, ok := limits[name]
			if !ok {
				guaranteed = false
				break
			}
			if c, err := schema.CompareSums(lim, req); err != nil || c != 0 {
				guaranteed = false
				break
			}
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return "Guaranteed"
	}
	return "Burstable"
}

package defaulting

import "strings"

// defaultPod mirrors SetObjectDefaults_Pod in pkg/apis/core/v1: SetDefaults_Pod, then the
// pod spec defaults every template shares.
func defaultPod(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	for _, key := range []string{"containers", "initContainers"} {
		each(spec, key, requestsFromLimits)
	}
	defaultPodLevelRequests(spec)
	setPtr(spec, "enableServiceLinks", true)
	if spec["hostNetwork"] == true {
		for _, key := range []string{"containers", "initContainers"} {
			each(spec, key, hostPortsFromContainerPorts)
		}
	}
	defaultPodSpec(spec)
	// Convert_v1_Pod_To_core_Pod: a pod's (not a template's) negative grace period is 1.
	if g, ok := spec["terminationGracePeriodSeconds"].(int64); ok && g < 0 {
		spec["terminationGracePeriodSeconds"] = int64(1)
	}
}

// requestsFromLimits mirrors the first loop of SetDefaults_Pod: a resource with a limit
// and no request asks for its limit. Only a Pod gets this, never a template. We add
// requests only when there is something to copy: an empty map would not print anyway.
func requestsFromLimits(c map[string]any) {
	res := child(c, "resources")
	limits := child(res, "limits")
	if len(limits) == 0 {
		return
	}
	requests := ensure(res, "requests")
	if requests == nil {
		return
	}
	for k, v := range limits {
		if _, ok := requests[k]; !ok {
			requests[k] = v
		}
	}
}

// hostPortsFromContainerPorts mirrors defaultHostNetworkPorts: on the host network a
// container port is also the host port.
func hostPortsFromContainerPorts(c map[string]any) {
	each(c, "ports", func(p map[string]any) {
		if isZeroNumber(p["hostPort"]) && p["containerPort"] != nil {
			p["hostPort"] = p["containerPort"]
		}
	})
}

// defaultPodLevelRequests mirrors the part of defaultPodRequests (PodLevelResources, beta
// and on since v1.34) that needs no arithmetic: with pod-level limits, a supported resource
// that neither the pod nor any container requests is requested at its pod-level limit.
// Upstream sums the containers' requests for a resource some container does request; we
// leave that one unset (see doc.go).
func defaultPodLevelRequests(spec map[string]any) {
	res := child(spec, "resources")
	limits := child(res, "limits")
	if len(limits) == 0 {
		return
	}
	requested := map[string]bool{}
	for _, key := range []string{"containers", "initContainers"} {
		each(spec, key, func(c map[string]any) {
			for k := range path(c, "resources", "requests") {
				requested[k] = true
			}
		})
	}
	var add map[string]any
	for k, v := range limits {
		if !podLevelResource(k) || requested[k] {
			continue
		}
		if reqs := child(res, "requests"); reqs != nil && reqs[k] != nil {
			continue
		}
		if add == nil {
			add = map[string]any{}
		}
		add[k] = v
	}
	if add == nil {
		return
	}
	requests := ensure(res, "requests")
	if requests == nil {
		return
	}
	for k, v := range add {
		requests[k] = v
	}
}

// podLevelResource mirrors IsSupportedPodLevelResource: cpu, memory and huge pages.
func podLevelResource(name string) bool {
	return name == "cpu" || name == "memory" || strings.HasPrefix(name, "hugepages-")
}

package admission

import (
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// ResourceQuota mirrors the ResourceQuota plugin (k8s.io/apiserver
// pkg/admission/plugin/resourcequota) with kube-apiserver's evaluators: a write that
// would take a quota's used beyond its hard limits is refused with 403 "exceeded quota",
// and an admitted one is charged to status.used at once. As on the real server, a quota
// counts only once its status.hard is set (the quota controller's job; none runs here),
// and is refused as "status unknown" while its status.used lacks a limited resource.
//
// It runs as a Rechecker, under the storage's write lock, where it is the last validating
// plugin of the real chain: the charge and the write are then one transaction.
type ResourceQuota struct{}

// Name implements Interface.
func (ResourceQuota) Name() string { return "ResourceQuota" }

// Handles implements Interface.
func (ResourceQuota) Handles(op Operation) bool { return op == Create || op == Update }

// legacyCounts are the core resources whose object count has a name of its own.
var legacyCounts = map[string]string{
	"pods": "pods", "services": "services", "persistentvolumeclaims": "persistentvolumeclaims",
	"configmaps": "configmaps", "secrets": "secrets", "replicationcontrollers": "replicationcontrollers",
	"resourcequotas": "resourcequotas",
}

// quotaHandles mirrors each evaluator's Handles.
func quotaHandles(a *Attributes) bool {
	if a.Object == nil || a.Namespace == "" {
		return false
	}
	core := a.Resource.Group == ""
	switch {
	case core && a.Resource.Resource == "pods":
		if a.Subresource == "resize" {
			return a.Operation == Update
		}
		if a.Subresource != "" {
			return false
		}
		if a.Operation == Update {
			return isTerminating(a.Object.Object) != isTerminating(a.OldObject.Object)
		}
		return a.Operation == Create
	case core && (a.Resource.Resource == "services" || a.Resource.Resource == "persistentvolumeclaims"):
		return a.Subresource == ""
	}
	return a.Subresource == "" && a.Operation == Create
}

func isTerminating(pod map[string]any) bool {
	_, ok := child(pod, "spec")["activeDeadlineSeconds"]
	return ok && child(pod, "spec")["activeDeadlineSeconds"] != nil
}

// countName is the object count resource, count/<resource>[.<group>].
func countName(gr api.GroupResource) string {
	if gr.Group == "" {
		return "count/" + gr.Resource
	}
	return "count/" + gr.Resource + "." + gr.Group
}

// usage mirrors the evaluators' Usage.
func usage(gr api.GroupResource, obj map[string]any) map[string]quantity {
	one := func() quantity { q, _ := parseQuantity("1"); return q }
	out := map[string]quantity{countName(gr): one()}
	if gr.Group != "" {
		return out
	}
	if legacy, ok := legacyCounts[gr.Resource]; ok {
		out[legacy] = one()
	}
	spec := child(obj, "spec")
	switch gr.Resource {
	case "pods":
		phase := str(child(obj, "status"), "phase")
		if phase == "Failed" || phase == "Succeeded" {
			return map[string]quantity{countName(gr): one()}
		}
		req, lim := podTotals(spec, "requests"), podTotals(spec, "limits")
		for k, v := range child(spec, "overhead") {
			for _, l := range []map[string]any{req, lim} {
				if cur, ok := l[k]; ok {
					a, _ := parseQuantity(cur)
					b, _ := parseQuantity(v)
					l[k] = a.add(b).String()
				}
			}
		}
		for k, q := range podUsage(req, lim) {
			out[k] = q
		}
	case "services":
		ports := int64(len(items(spec, "ports")))
		nodePorts, lbs := int64(0), int64(0)
		switch str(spec, "type") {
		case "NodePort":
			nodePorts = ports
		case "LoadBalancer":
			lbs = 1
			nodePorts = ports
			if b, ok := boolPtr(spec, "allocateLoadBalancerNodePorts"); ok && !b {
				nodePorts = 0
				for _, p := range items(spec, "ports") {
					if n, _ := api.AsInt64(p["nodePort"]); n > 0 {
						nodePorts++
					}
				}
			}
		}
		np, _ := parseQuantity(nodePorts)
		lb, _ := parseQuantity(lbs)
		out["services.nodeports"], out["services.loadbalancers"] = np, lb
	case "persistentvolumeclaims":
		class, hasClass := spec["storageClassName"].(string)
		if an, ok := child(child(obj, "metadata"), "annotations")["volume.beta.kubernetes.io/storage-class"].(string); ok {
			class, hasClass = an, true
		}
		if hasClass && class != "" {
			out[class+".storageclass.storage.k8s.io/persistentvolumeclaims"] = one()
		}
		if v, ok := child(child(spec, "resources"), "requests")["storage"]; ok {
			if q, err := parseQuantity(v); err == nil {
				out["requests.storage"] = q
				if hasClass && class != "" {
					out[class+".storageclass.storage.k8s.io/requests.storage"] = q
				}
			}
		}
	}
	return out
}

// podUsage mirrors podComputeUsageHelper.
func podUsage(req, lim map[string]any) map[string]quantity {
	out := map[string]quantity{}
	out["pods"], _ = parseQuantity("1")
	set := func(list map[string]any, from string, to ...string) {
		if v, ok := list[from]; ok {
			if q, err := parseQuantity(v); err == nil {
				for _, t := range to {
					out[t] = q
				}
			}
		}
	}
	set(req, "cpu", "cpu", "requests.cpu")
	set(lim, "cpu", "limits.cpu")
	set(req, "memory", "memory", "requests.memory")
	set(lim, "memory", "limits.memory")
	set(req, "ephemeral-storage", "ephemeral-storage", "requests.ephemeral-storage")
	set(lim, "ephemeral-storage", "limits.ephemeral-storage")
	for k := range req {
		if strings.HasPrefix(k, "hugepages-") {
			set(req, k, k, "requests."+k)
		}
	}
	return out
}

// quotaMatches mirrors the evaluators' MatchingResources: which of names the object's
// evaluator tracks.
func quotaMatches(gr api.GroupResource, names []string) []string {
	var out []string
	for _, n := range names {
		ok := n == countName(gr)
		if gr.Group == "" && !ok {
			switch gr.Resource {
			case "pods":
				ok = n == "pods" || n == "cpu" || n == "memory" || n == "ephemeral-storage" ||
					strings.HasPrefix(n, "requests.") || strings.HasPrefix(n, "limits.") || strings.HasPrefix(n, "hugepages-")
				ok = ok && n != "requests.storage"
			case "services":
				ok = n == "services" || n == "services.nodeports" || n == "services.loadbalancers"
			case "persistentvolumeclaims":
				ok = n == "persistentvolumeclaims" || n == "requests.storage" ||
					strings.HasSuffix(n, ".storageclass.storage.k8s.io/persistentvolumeclaims") ||
					strings.HasSuffix(n, ".storageclass.storage.k8s.io/requests.storage")
			default:
				ok = legacyCounts[gr.Resource] == n
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// scopesMatch mirrors the pod evaluator's scope matching; other objects match no scope.
func scopesMatch(quotaObj, obj map[string]any, isPod bool) bool {
	spec := child(quotaObj, "spec")
	var sels []map[string]any
	scopes, _ := spec["scopes"].([]any)
	for _, s := range scopes {
		sels = append(sels, map[string]any{"scopeName": s, "operator": "Exists"})
	}
	sels = append(sels, items(child(spec, "scopeSelector"), "matchExpressions")...)
	for _, s := range sels {
		if !isPod || !podScope(s, obj) {
			return false
		}
	}
	return true
}

func podScope(sel map[string]any, pod map[string]any) bool {
	spec := child(pod, "spec")
	switch str(sel, "scopeName") {
	case "Terminating":
		return isTerminating(pod)
	case "NotTerminating":
		return !isTerminating(pod)
	case "BestEffort":
		return podIsBestEffort(spec)
	case "NotBestEffort":
		return !podIsBestEffort(spec)
	case "PriorityClass":
		name := str(spec, "priorityClassName")
		in := false
		values, _ := sel["values"].([]any)
		for _, v := range values {
			in = in || v == name
		}
		switch str(sel, "operator") {
		case "Exists":
			return name != ""
		case "DoesNotExist":
			return name == ""
		case "In":
			return in
		case "NotIn":
			return !in
		}
	}
	return false
}

// podIsBestEffort mirrors isBestEffort: no container requests or limits cpu or memory.
func podIsBestEffort(spec map[string]any) bool {
	for _, key := range []string{"containers", "initContainers"} {
		for _, c := range items(spec, key) {
			res := child(c, "resources")
			for _, l := range []map[string]any{child(res, "requests"), child(res, "limits")} {
				if _, ok := l["cpu"]; ok {
					return false
				}
				if _, ok := l["memory"]; ok {
					return false
				}
			}
		}
	}
	return true
}

package core

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The pod subresources that write a part of the spec (podEphemeralContainersStrategy and
// podResizeStrategy of pkg/registry/core/pod/strategy.go): each keeps the stored pod but
// for its part, moves the generation when the spec changed, and checks the update with its
// own rules (ValidatePodEphemeralContainersUpdate, ValidatePodResize).

// PrepareSubresourceUpdate implements rest.SubresourceUpdater.
func (podStrategy) PrepareSubresourceUpdate(sub string, obj, old *api.Unstructured) (*api.Unstructured, bool) {
	var next *api.Unstructured
	switch sub {
	case "ephemeralcontainers":
		next = old.DeepCopy()
		setMember(child(next.Object, "spec"), "ephemeralContainers", child(obj.Object, "spec")["ephemeralContainers"])
	case "resize":
		next = dropNonResizeUpdates(obj, old)
	default:
		return nil, false
	}
	if !reflect.DeepEqual(next.Object["spec"], old.Object["spec"]) && old.GetGeneration() > 0 {
		next.SetGeneration(old.GetGeneration() + 1) // updatePodGeneration
	}
	return next, true
}

// setMember sets m[k] to a copy of v, or removes k when v is nil.
func setMember(m map[string]any, k string, v any) {
	if m == nil {
		return
	}
	if v == nil {
		delete(m, k)
		return
	}
	m[k] = api.DeepCopyJSONValue(v)
}

// dropNonResizeUpdates mirrors dropNonResizeUpdates: the stored pod with the containers'
// resources and resize policies and the pod-level resources of the update, unless
// containers were added, removed, renamed or reordered (validation refuses that update as
// it came).
func dropNonResizeUpdates(obj, old *api.Unstructured) *api.Unstructured {
	spec, oldSpec := child(obj.Object, "spec"), child(old.Object, "spec")
	merged := map[string][]any{}
	for _, list := range []string{"containers", "initContainers"} {
		news, olds := containersOf(spec, list), containersOf(oldSpec, list)
		if len(news) != len(olds) {
			return obj
		}
		out := make([]any, len(olds))
		for i, o := range olds {
			c := api.DeepCopyJSONValue(o).(map[string]any)
			if str(c, "name") != str(news[i], "name") {
				return obj
			}
			setMember(c, "resources", news[i]["resources"])
			setMember(c, "resizePolicy", news[i]["resizePolicy"])
			out[i] = c
		}
		merged[list] = out
	}
	next := old.DeepCopy()
	nextSpec := child(next.Object, "spec")
	for list, items := range merged {
		if len(items) > 0 {
			nextSpec[list] = items
		}
	}
	setMember(nextSpec, "resources", spec["resources"]) // InPlacePodLevelResourcesVerticalScaling, on
	return next
}

// containersOf lists the containers of a pod spec's list.
func containersOf(spec map[string]any, list string) []map[string]any {
	items, _ := spec[list].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, c := range items {
		m, _ := c.(map[string]any)
		out = append(out, m)
	}
	return out
}

// ValidateSubresourceUpdate implements rest.SubresourceUpdater.
func (podStrategy) ValidateSubresourceUpdate(sub string, obj, old *api.Unstructured) []api.StatusCause {
	if sub == "resize" {
		return resizeCauses(obj.Object, old.Object)
	}
	return ephemeralContainersCauses(obj.Object, old.Object)
}

// ephemeralForbidden are the members of EphemeralContainerCommon an ephemeral container may
// not set (allowedEphemeralContainerFields), in the struct's order.
var ephemeralForbidden = []string{"ports", "resources", "resizePolicy", "restartPolicy", "restartPolicyRules",
	"livenessProbe", "readinessProbe", "startupProbe", "lifecycle"}

// ephemeralContainersCauses mirrors the parts of ValidatePodEphemeralContainersUpdate that
// concern ephemeral containers: each new one named uniquely among all containers, with an
// image, mounting the pod's volumes without subPath, targeting a container of the pod and
// setting none of the fields ephemeral containers may not have; and no existing one
// removed or changed.
func ephemeralContainersCauses(pod, old map[string]any) []api.StatusCause {
	spec, oldSpec := child(pod, "spec"), child(old, "spec")
	var causes []api.StatusCause
	var others []string
	for _, list := range []string{"containers", "initContainers"} {
		for _, c := range containersOf(spec, list) {
			others = append(others, str(c, "name"))
		}
	}
	volumes := map[string]bool{}
	for _, v := range containersOf(spec, "volumes") {
		volumes[str(v, "name")] = true
	}
	all := slices.Clone(others)
	for i, ec := range containersOf(spec, "ephemeralContainers") {
		path := fmt.Sprintf("spec.ephemeralContainers[%d]", i)
		name := str(ec, "name")
		if name == "" {
			causes = append(causes, validation.Required(path+".name", ""))
		} else {
			for _, msg := range validation.IsDNS1123Label(name) {
				causes = append(causes, validation.Invalid(path+".name", name, msg))
			}
		}
		if strings.TrimSpace(str(ec, "image")) == "" {
			causes = append(causes, validation.Required(path+".image", ""))
		}
		for j, vm := range containersOf(ec, "volumeMounts") {
			if !volumes[str(vm, "name")] {
				causes = append(causes, notFound(fmt.Sprintf("%s.volumeMounts[%d].name", path, j), str(vm, "name")))
			}
		}
		if slices.Contains(all, name) {
			causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path + ".name", Message: fmt.Sprintf("Duplicate value: %q", name)})
		} else {
			all = append(all, name)
		}
		if t := str(ec, "targetContainerName"); t != "" && !slices.Contains(others, t) {
			causes = append(causes, notFound(path+".targetContainerName", t))
		}
		for _, f := range ephemeralForbidden {
			if !isZero(ec[f]) {
				causes = append(causes, validation.Forbidden(path+"."+f, "cannot be set for an Ephemeral Container"))
			}
		}
		for j, vm := range containersOf(ec, "volumeMounts") {
			for _, f := range []string{"subPath", "subPathExpr"} {
				if str(vm, f) != "" {
					causes = append(causes, validation.Forbidden(fmt.Sprintf("%s.volumeMounts[%d].%s", path, j, f), "cannot be set for an Ephemeral Container"))
				}
			}
		}
	}
	current := map[string]map[string]any{}
	for _, ec := range containersOf(spec, "ephemeralContainers") {
		current[str(ec, "name")] = ec
	}
	for _, o := range containersOf(oldSpec, "ephemeralContainers") {
		n, ok := current[str(o, "name")]
		switch {
		case !ok:
			causes = append(causes, validation.Forbidden("spec.ephemeralContainers", fmt.Sprintf("existing ephemeral containers %q may not be removed\n", str(o, "name"))))
		case !reflect.DeepEqual(o, n):
			causes = append(causes, validation.Forbidden("spec.ephemeralContainers", fmt.Sprintf("existing ephemeral containers %q may not be changed\n%s", str(o, "name"), memberDiff(o, n))))
		}
	}
	return causes
}

// notFound mirrors field.NotFound.
func notFound(path string, v any) api.StatusCause {
	b, _ := json.Marshal(v)
	return api.StatusCause{Type: api.CauseTypeFieldValueNotFound, Field: path, Message: "Not found: " + string(b)}
}

// isZero reports whether a member is unset or its Go zero value (an empty object or list).
func isZero(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range t {
			if !isZero(e) {
				return false
			}
		}
		return true
	case []any:
		return len(t) == 0
	case string:
		return t == ""
	case bool:
		return !t
	}
	return false
}

// memberDiff lists the members that differ between two containers, one "-old +new" pair a
// line. Upstream prints a unified diff of the internal structs here.
func memberDiff(o, n map[string]any) string {
	keys := map[string]bool{}
	for k := range o {
		keys[k] = true
	}
	for k := range n {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	var b strings.Builder
	for _, k := range sorted {
		if reflect.DeepEqual(o[k], n[k]) {
			continue
		}
		ob, _ := json.Marshal(o[k])
		nb, _ := json.Marshal(n[k])
		fmt.Fprintf(&b, "- %q: %s\n+ %q: %s\n", k, ob, k, nb)
	}
	return b.String()
}

// resizeCauses mirrors ValidatePodResize: no change of QoS class, a node that can resize,
// the same containers in the same order, no request or limit removed, requests within
// limits, and nothing changed but cpu and memory.
func resizeCauses(pod, old map[string]any) []api.StatusCause {
	spec, oldSpec := child(pod, "spec"), child(old, "spec")
	var causes []api.StatusCause
	for _, list := range []string{"containers", "initContainers"} {
		for i, c := range containersOf(spec, list) {
			causes = append(causes, requestsWithinLimits(c, fmt.Sprintf("spec.%s[%d].resources", list, i))...)
		}
	}
	// The value is the stored status's class, which the real server set on create (here
	// computed when the stored status has none).
	if was := podQOS(old); was != computeQOS(spec) {
		causes = append(causes, validation.Invalid("spec", was, "Pod QOS Class may not change as a result of resizing"))
	}
	if !resizeSupported(old) {
		causes = append(causes, validation.Forbidden("spec", "Pod running on node without support for resize"))
	}
	var order []api.StatusCause
	for _, list := range []string{"containers", "initContainers"} {
		news, olds := containersOf(spec, list), containersOf(oldSpec, list)
		if len(news) != len(olds) {
			order = append(order, validation.Forbidden("spec."+list, list+" may not be added or removed on resize"))
			continue
		}
		for i, o := range olds {
			if str(news[i], "name") != str(o, "name") {
				order = append(order, validation.Forbidden(fmt.Sprintf("spec.%s[%d].name", list, i), list+" may not be renamed or reordered on resize"))
			}
		}
	}
	if len(order) > 0 {
		return append(causes, order...)
	}
	for i, o := range containersOf(oldSpec, "containers") {
		n := containersOf(spec, "containers")[i]
		path := fmt.Sprintf("spec.containers[%d].resources", i)
		for _, part := range []string{"requests", "limits"} {
			if removed(child(child(n, "resources"), part), child(child(o, "resources"), part)) {
				causes = append(causes, validation.Forbidden(path+"."+part, "resource "+part+" cannot be removed"))
			}
		}
	}
	if len(causes) > 0 {
		return causes
	}
	if !reflect.DeepEqual(withoutCPUMemory(spec, oldSpec), withoutCPUMemory(oldSpec, oldSpec)) {
		causes = append(causes, validation.Forbidden("spec", "only cpu and memory resources are mutable"))
	}
	return causes
}

// removed reports whether a resource of old is missing from now (resourcesRemoved).
func removed(now, old map[string]any) bool {
	for k := range old {
		if _, ok := now[k]; !ok {
			return true
		}
	}
	return false
}

// requestsWithinLimits mirrors the request ≤ limit rule of validateResourceRequirements.
func requestsWithinLimits(c map[string]any, path string) []api.StatusCause {
	res := child(c, "resources")
	limits, requests := child(res, "limits"), child(res, "requests")
	var causes []api.StatusCause
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		req, _ := requests[k].(string)
		lim, ok := limits[k].(string)
		if !ok {
			continue
		}
		if cmp, err := schema.CompareQuantities(req, lim); err == nil && cmp > 0 {
			causes = append(causes, validation.Invalid(path+".requests", req, fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim)))
		}
	}
	return causes
}

// withoutCPUMemory is a pod spec with each container's cpu and memory taken from old's
// (dropCPUMemoryResourcesFromContainer): what must be unchanged by a resize.
func withoutCPUMemory(spec, oldSpec map[string]any) map[string]any {
	out := api.DeepCopyJSONValue(spec).(map[string]any)
	for _, list := range []string{"containers", "initContainers"} {
		olds := containersOf(oldSpec, list)
		for i, c := range containersOf(out, list) {
			if i >= len(olds) {
				break
			}
			res := map[string]any{}
			for _, part := range []string{"limits", "requests"} {
				now, before := child(child(c, "resources"), part), child(child(olds[i], "resources"), part)
				if now == nil && before == nil {
					continue
				}
				m := map[string]any{}
				for k, v := range now {
					m[k] = v
				}
				delete(m, "cpu")
				delete(m, "memory")
				for _, k := range []string{"cpu", "memory"} {
					if v, ok := before[k]; ok {
						m[k] = v
					}
				}
				if len(m) > 0 { // empty and absent are equal (Semantic.DeepEqual)
					res[part] = m
				}
			}
			c["resources"] = res
		}
	}
	for _, list := range []string{"containers", "initContainers"} {
		for _, c := range containersOf(out, list) {
			if r, ok := c["resources"].(map[string]any); ok && len(r) == 0 {
				delete(c, "resources")
			}
		}
	}
	return out
}

// resizeSupported mirrors isPodResizeRequestSupported: the first running container tells,
// by reporting its resources, whether its node can resize.
func resizeSupported(pod map[string]any) bool {
	for _, cs := range containersOf(child(pod, "status"), "containerStatuses") {
		if child(child(cs, "state"), "running") != nil {
			return cs["resources"] != nil
		}
	}
	return true
}

// podQOS mirrors GetPodQOS: the status's class, else computed.
func podQOS(pod map[string]any) string {
	if q := str(child(pod, "status"), "qosClass"); q != "" {
		return q
	}
	return computeQOS(child(pod, "spec"))
}

// computeQOS mirrors ComputePodQOS: from the pod-level resources when they are set, else
// from the containers' cpu and memory: none is BestEffort, every container limiting both
// with requests equal to the limits is Guaranteed, the rest Burstable.
func computeQOS(spec map[string]any) string {
	type sums struct{ req, lim map[string][]string }
	s := sums{req: map[string][]string{}, lim: map[string][]string{}}
	guaranteed := true
	add := func(res map[string]any) (limited map[string]bool) {
		limited = map[string]bool{}
		// A limit without a request is also the request, as SetDefaults_Pod makes it, so
		// that an object not yet defaulted has its class too.
		requests := map[string]any{}
		for k, v := range child(res, "limits") {
			requests[k] = v
		}
		for k, v := range child(res, "requests") {
			requests[k] = v
		}
		for part, list := range map[string]map[string]any{"requests": requests, "limits": child(res, "limits")} {
			into := s.req
			if part == "limits" {
				into = s.lim
			}
			for k, v := range list {
				q, _ := v.(string)
				if (k == "cpu" || k == "memory") && positive(q) {
					into[k] = append(into[k], q)
					if part == "limits" {
						limited[k] = true
					}
				}
			}
		}
		return limited
	}
	if pr := child(spec, "resources"); len(child(pr, "requests"))+len(child(pr, "limits")) > 0 {
		if l := add(pr); !l["cpu"] || !l["memory"] {
			guaranteed = false
		}
	} else {
		for _, list := range []string{"initContainers", "containers"} {
			for _, c := range containersOf(spec, list) {
				if l := add(child(c, "resources")); !l["cpu"] || !l["memory"] {
					guaranteed = false
				}
			}
		}
	}
	if len(s.req) == 0 && len(s.lim) == 0 {
		return "BestEffort"
	}
	if guaranteed {
		for k, reqs := range s.req {
			if !sameSum(reqs, s.lim[k]) {
				guaranteed = false
			}
		}
	}
	if guaranteed && len(s.req) == len(s.lim) {
		return "Guaranteed"
	}
	return "Burstable"
}

// positive reports whether a quantity is above zero.
func positive(q string) bool {
	c, err := schema.CompareQuantities(q, "0")
	return err == nil && c > 0
}

// sameSum reports whether two lists of quantities add up to the same amount.
func sameSum(a, b []string) bool {
	if len(b) == 0 {
		return false
	}
	c, err := schema.CompareSums(a, b)
	return err == nil && c == 0
}

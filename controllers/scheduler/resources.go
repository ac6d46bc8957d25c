package scheduler

import (
	"math"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// resources are the amounts NodeResourcesFit compares: milli-CPU, bytes of memory, pods.
type resources struct {
	milliCPU, memory, pods int64
}

func (r *resources) add(o resources) {
	r.milliCPU += o.milliCPU
	r.memory += o.memory
	r.pods += o.pods
}

func (r *resources) sub(o resources) {
	r.milliCPU -= o.milliCPU
	r.memory -= o.memory
	r.pods -= o.pods
}

// The non-zero requests a container without requests counts for in scoring
// (schedutil.DefaultMilliCPURequest and DefaultMemoryRequest).
const (
	defaultMilliCPURequest = 100
	defaultMemoryRequest   = 200 * 1024 * 1024
)

// podRequests mirrors resourcehelper.PodRequests: the sum of the containers' requests, at
// least the largest init container's, plus the pod's overhead; one pod. nonZero counts a
// missing cpu or memory request as the scoring defaults.
func podRequests(pod *api.Unstructured, nonZero bool) resources {
	spec := app.NestedMap(pod.Object, "spec")
	sum := resources{pods: 1}
	for _, c := range list(spec["containers"]) {
		cpu, mem := containerRequests(c, nonZero)
		sum.milliCPU += cpu
		sum.memory += mem
	}
	for _, c := range list(spec["initContainers"]) {
		cpu, mem := containerRequests(c, nonZero)
		sum.milliCPU = max(sum.milliCPU, cpu)
		sum.memory = max(sum.memory, mem)
	}
	if o, _ := spec["overhead"].(map[string]any); o != nil {
		sum.milliCPU += milli(o["cpu"])
		sum.memory += value(o["memory"])
	}
	return sum
}

func containerRequests(c any, nonZero bool) (int64, int64) {
	m, _ := c.(map[string]any)
	req := app.NestedMap(m, "resources", "requests")
	if req == nil {
		req = app.NestedMap(m, "resources", "limits") // limits default requests
	}
	cpu, hasCPU := req["cpu"]
	mem, hasMem := req["memory"]
	c1, m1 := milli(cpu), value(mem)
	if nonZero && !hasCPU {
		c1 = defaultMilliCPURequest
	}
	if nonZero && !hasMem {
		m1 = defaultMemoryRequest
	}
	return c1, m1
}

// allocatable reads a node's status.allocatable (capacity when absent).
func allocatable(node *api.Unstructured) resources {
	a := app.NestedMap(node.Object, "status", "allocatable")
	if a == nil {
		a = app.NestedMap(node.Object, "status", "capacity")
	}
	return resources{milliCPU: milli(a["cpu"]), memory: value(a["memory"]), pods: value(a["pods"])}
}

func list(v any) []any { l, _ := v.([]any); return l }

// milli and value mirror resource.Quantity's MilliValue and Value (rounded up).
func milli(v any) int64 { return int64(math.Ceil(quantity(v) * 1000)) }
func value(v any) int64 { return int64(math.Ceil(quantity(v))) }

// quantity parses a resource.Quantity's string (or a JSON number).
func quantity(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int64:
		return float64(n)
	case string:
		return parseQuantity(n)
	}
	return 0
}

var suffixes = []struct {
	s string
	m float64
}{
	{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"Pi", 1 << 50}, {"Ei", 1 << 60},
	{"n", 1e-9}, {"u", 1e-6}, {"m", 1e-3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18},
}

func parseQuantity(s string) float64 {
	s = strings.TrimSpace(s)
	for _, x := range suffixes {
		if num, ok := strings.CutSuffix(s, x.s); ok {
			f, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return 0
			}
			return f * x.m
		}
	}
	f, _ := strconv.ParseFloat(s, 64) // plain or with an exponent (1e3)
	return f
}

package core

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The node ports of a Service, as the REST storage allocates them (txnAllocNodePorts and
// txnUpdateNodePorts in pkg/registry/core/service/storage/alloc.go).

// intOf reads a JSON integer (0 when absent or not a number).
func intOf(v any) int {
	switch n := v.(type) {
	case int64:
		return int(n)
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}

// ports returns the spec's ports as objects.
func ports(spec map[string]any) []map[string]any {
	list, _ := spec["ports"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, p := range list {
		if m, ok := p.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// serviceNodePorts mirrors collectServiceNodePorts: the node ports set, in port order.
func serviceNodePorts(spec map[string]any) []int {
	var out []int
	for _, p := range ports(spec) {
		if np := intOf(p["nodePort"]); np != 0 {
			out = append(out, np)
		}
	}
	return out
}

// shouldAllocateNodePorts mirrors shouldAllocateNodePorts: a NodePort service, or a
// LoadBalancer that has not turned allocateLoadBalancerNodePorts off.
func shouldAllocateNodePorts(spec map[string]any) bool {
	switch str(spec, "type") {
	case "NodePort":
		return true
	case "LoadBalancer":
		b, _ := spec["allocateLoadBalancerNodePorts"].(bool)
		return b
	}
	return false
}

// needsNodePort mirrors the REST storage's needsNodePort (an unset
// allocateLoadBalancerNodePorts counts as on).
func needsNodePort(spec map[string]any) bool {
	switch str(spec, "type") {
	case "NodePort":
		return true
	case "LoadBalancer":
		b, ok := spec["allocateLoadBalancerNodePorts"].(bool)
		return !ok || b
	}
	return false
}

// needsHealthCheck mirrors NeedsHealthCheck: a LoadBalancer that keeps traffic local.
func needsHealthCheck(spec map[string]any) bool {
	return str(spec, "type") == "LoadBalancer" && str(spec, "externalTrafficPolicy") == "Local"
}

// nodePortInvalid is the 422 of a requested node port the allocator refused.
func nodePortInvalid(svc map[string]any, i, port int, err error) error {
	return api.NewInvalid(serviceKind, str(child(svc, "metadata"), "name"), []api.StatusCause{
		validation.Invalid(fmt.Sprintf("spec.ports[%d].nodePort", i), port, err.Error())})
}

// nodePortFull is the 500 of an allocator without a free port.
func nodePortFull(err error) error {
	return api.NewInternalError(fmt.Errorf("failed to allocate a nodePort: %w", err))
}

// allocNodePorts mirrors txnAllocNodePorts on create: initNodePorts for a NodePort or
// LoadBalancer service (ports of the same number share a node port, a requested one is
// reserved, the others allocated), then the health check node port.
func allocNodePorts(svc map[string]any, op *portOperation) error {
	spec := child(svc, "spec")
	if t := str(spec, "type"); t == "NodePort" || t == "LoadBalancer" {
		list := ports(spec)
		byPort := map[int]int{}
		for i, p := range list {
			np := intOf(p["nodePort"])
			if np == 0 && !shouldAllocateNodePorts(spec) {
				continue // only a requested one is honoured
			}
			port := intOf(p["port"])
			switch shared := byPort[port]; {
			case shared == 0:
				requested := 0
				for _, q := range list[i:] { // the first request among this port's entries
					if intOf(q["port"]) == port && intOf(q["nodePort"]) != 0 {
						requested = intOf(q["nodePort"])
						break
					}
				}
				if requested != 0 {
					if err := op.allocate(requested); err != nil {
						return nodePortInvalid(svc, i, requested, err)
					}
				} else {
					var err error
					if requested, err = op.allocateNext(); err != nil {
						return nodePortFull(err)
					}
				}
				p["nodePort"] = int64(requested)
				byPort[port] = requested
			case np == 0:
				p["nodePort"] = int64(shared)
			case np != shared:
				if err := op.allocate(np); err != nil {
					return nodePortInvalid(svc, i, np, err)
				}
			}
		}
	}
	if needsHealthCheck(spec) {
		return allocHealthCheckNodePort(spec, op)
	}
	return nil
}

// allocHealthCheckNodePort mirrors allocHealthCheckNodePort; its failures are 500s.
func allocHealthCheckNodePort(spec map[string]any, op *portOperation) error {
	if hc := intOf(spec["healthCheckNodePort"]); hc != 0 {
		if err := op.allocate(hc); err != nil {
			return api.NewInternalError(fmt.Errorf("failed to allocate requested HealthCheck NodePort %v: %v", hc, err))
		}
		return nil
	}
	hc, err := op.allocateNext()
	if err != nil {
		return api.NewInternalError(fmt.Errorf("failed to allocate a HealthCheck NodePort %v: %v", hc, err))
	}
	spec["healthCheckNodePort"] = int64(hc)
	return nil
}

// updateNodePorts mirrors txnUpdateNodePorts: a service leaving NodePort or LoadBalancer
// frees its node ports; one of those types keeps the ports it had, reserves the new ones
// asked for, allocates the missing ones and frees those it dropped; then the health check
// node port follows the need for it.
func updateNodePorts(svc, old map[string]any, op *portOperation) error {
	spec, oldSpec := child(svc, "spec"), child(old, "spec")
	oldType, newType := str(oldSpec, "type"), str(spec, "type")
	if (oldType == "NodePort" || oldType == "LoadBalancer") && (newType == "ExternalName" || newType == "ClusterIP") {
		op.release = append(op.release, serviceNodePorts(oldSpec)...)
	}
	if newType == "NodePort" || newType == "LoadBalancer" {
		oldPorts := serviceNodePorts(oldSpec)
		reserved := map[int]bool{}
		type key struct {
			protocol string
			nodePort int
		}
		var seen []key
		for i, p := range ports(spec) {
			np := intOf(p["nodePort"])
			if np == 0 && !shouldAllocateNodePorts(spec) {
				continue
			}
			if np != 0 {
				if !slices.Contains(oldPorts, np) && !reserved[np] {
					if err := op.allocate(np); err != nil {
						return nodePortInvalid(svc, i, np, err)
					}
					reserved[np] = true
				}
			} else {
				var err error
				if np, err = op.allocateNext(); err != nil {
					return nodePortFull(err)
				}
				p["nodePort"] = int64(np)
			}
			k := key{str(p, "protocol"), np}
			if slices.Contains(seen, k) {
				return api.NewInternalError(fmt.Errorf("duplicate nodePort: {%s %d}", k.protocol, k.nodePort))
			}
			seen = append(seen, k)
		}
		kept := serviceNodePorts(spec)
		for _, p := range oldPorts {
			if !slices.Contains(kept, p) {
				op.release = append(op.release, p)
			}
		}
	}
	switch needed, needs := needsHealthCheck(oldSpec), needsHealthCheck(spec); {
	case !needed && needs:
		return allocHealthCheckNodePort(spec, op)
	case needed && !needs:
		op.release = append(op.release, intOf(oldSpec["healthCheckNodePort"]))
	}
	return nil
}

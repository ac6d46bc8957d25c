package apiserver

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
)

// serveServiceProxy mirrors the service REST's ResourceLocation: a port number names the
// service port it is, the Endpoints give the addresses, and only an address that is a pod
// of the namespace with that IP is proxied to.
func (s *endpoints) serveServiceProxy(w http.ResponseWriter, r *http.Request, info requestInfo) {
	scheme, name, portName, ok := splitSchemeNamePort(info.name)
	if !ok {
		writeError(w, api.NewBadRequest(fmt.Sprintf("invalid service request %q", info.name)))
		return
	}
	if num, err := strconv.ParseInt(portName, 10, 64); err == nil {
		svc, err := s.getObject(r, "services", info.namespace, name)
		if err != nil {
			writeError(w, err)
			return
		}
		found := false
		spec, _ := svc["spec"].(map[string]any)
		ports, _ := spec["ports"].([]any)
		for _, p := range ports {
			m, _ := p.(map[string]any)
			if int64(intMember(m, "port")) == num {
				portName, _ = m["name"].(string)
				found = true
				break
			}
		}
		if !found {
			writeError(w, api.NewServiceUnavailable(fmt.Sprintf("no service port %d found for service %q", num, name)))
			return
		}
	}
	eps, err := s.getObject(r, "endpoints", info.namespace, name)
	if api.IsNotFound(err) {
		// The endpoints getter answers for the request's resource.
		err = api.NewNotFound(api.GroupResource{Resource: "services"}, name)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	subsets, _ := eps["subsets"].([]any)
	if len(subsets) == 0 {
		writeError(w, api.NewServiceUnavailable(fmt.Sprintf("no endpoints available for service %q", name)))
		return
	}
	for _, ss := range subsets {
		sm, _ := ss.(map[string]any)
		addrs, _ := sm["addresses"].([]any)
		ports, _ := sm["ports"].([]any)
		if len(addrs) == 0 {
			continue
		}
		for _, p := range ports {
			pm, _ := p.(map[string]any)
			if pn, _ := pm["name"].(string); pn != portName {
				continue
			}
			for _, a := range addrs {
				am, _ := a.(map[string]any)
				if ip, _ := am["ip"].(string); s.isPodAddress(r, info.namespace, am, ip) {
					proxyTo(w, r, scheme, ip, strconv.Itoa(intMember(pm, "port")))
					return
				}
			}
		}
	}
	writeError(w, api.NewServiceUnavailable(fmt.Sprintf("no endpoints available for service %q", info.name)))
}

// isPodAddress mirrors isValidAddress: the address names a pod of the namespace, which
// has that IP.
func (s *endpoints) isPodAddress(r *http.Request, ns string, addr map[string]any, ip string) bool {
	ref, ok := addr["targetRef"].(map[string]any)
	if !ok {
		return false
	}
	if refNS, _ := ref["namespace"].(string); refNS != ns {
		return false
	}
	podName, _ := ref["name"].(string)
	pod, err := s.getObject(r, "pods", ns, podName)
	if err != nil {
		return false
	}
	status, _ := pod["status"].(map[string]any)
	ips, _ := status["podIPs"].([]any)
	for _, p := range ips {
		m, _ := p.(map[string]any)
		if m["ip"] == ip {
			return true
		}
	}
	return false
}

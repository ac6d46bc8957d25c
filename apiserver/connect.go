package apiserver

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The connect subresources of a kube-apiserver (pkg/registry/core/pod/rest/subresources.go,
// log.go, node/rest/proxy.go, service/proxy.go) in a cluster without kubelets. Each finds
// where the request would go as the real one does, with its errors: the pod, its container,
// its node, the node's address and kubelet port. Where the real server would then connect
// to a kubelet or a pod, this cluster has nothing listening: every such connection is
// refused, and the answer is the real one's for a refused connection. A pod without a node
// has empty logs (204), as upstream.

func init() {
	handlers["/pods/log"] = (*endpoints).servePodLog
	handlers["/pods/exec"] = (*endpoints).servePodStream
	handlers["/pods/attach"] = (*endpoints).servePodStream
	handlers["/pods/portforward"] = (*endpoints).servePodPortForward
	handlers["/pods/proxy"] = (*endpoints).servePodProxy
	handlers["/nodes/proxy"] = (*endpoints).serveNodeProxy
	handlers["/services/proxy"] = (*endpoints).serveServiceProxy
}

// kubeletPort is --kubelet-port's default, for a node that reports none.
const kubeletPort = 10250

// preferredAddressTypes is --kubelet-preferred-address-types' default.
var preferredAddressTypes = []string{"Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"}

// unknownError is the Status of an error that is not an API status: 500 without a reason
// (ErrorToAPIStatus).
func unknownError(msg string) *api.Status {
	return &api.Status{TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: api.StatusFailure,
		Code: http.StatusInternalServerError, Message: msg}
}

// refused is the error of a connection to host:port, where nothing listens here.
func refused(hostPort string) string {
	return "dial tcp " + hostPort + ": connect: connection refused"
}

// getObject reads one object of the core group as a JSON tree.
func (s *endpoints) getObject(r *http.Request, resource, ns, name string) (map[string]any, error) {
	rec, err := s.get(r.Context(), s.table.Get("", resource), ns, name, "")
	if err != nil {
		return nil, err
	}
	return rec.Obj.Object, nil
}

// containerNames lists a pod's init, regular and ephemeral containers (VisitContainers).
func containerNames(pod map[string]any) (all []string, regular int) {
	spec, _ := pod["spec"].(map[string]any)
	for _, list := range []string{"initContainers", "containers", "ephemeralContainers"} {
		items, _ := spec[list].([]any)
		for _, c := range items {
			m, _ := c.(map[string]any)
			name, _ := m["name"].(string)
			all = append(all, name)
		}
		if list == "containers" {
			regular = len(items)
		}
	}
	return all, regular
}

// validateContainer mirrors validateContainer: an empty name is the pod's only container.
func validateContainer(container, podName string, pod map[string]any) (string, error) {
	names, regular := containerNames(pod)
	if container != "" {
		if !slices.Contains(names, container) {
			return "", api.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", container, podName))
		}
		return container, nil
	}
	switch regular {
	case 1:
		spec, _ := pod["spec"].(map[string]any)
		first, _ := spec["containers"].([]any)[0].(map[string]any)
		name, _ := first["name"].(string)
		return name, nil
	case 0:
		return "", api.NewBadRequest("a container name must be specified for pod " + podName)
	}
	return "", api.NewBadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: [%s]", podName, strings.Join(names, " ")))
}

// kubelet mirrors NodeConnectionInfoGetter.GetConnectionInfo: the node's preferred address
// and its kubelet's port. notFound names the resource of a missing node's 404, which the
// pod subresources' node getter words as pods.
func (s *endpoints) kubelet(r *http.Request, nodeName, notFound string) (host, port string, err error) {
	node, err := s.getObject(r, "nodes", "", nodeName)
	if api.IsNotFound(err) {
		return "", "", api.NewNotFound(api.GroupResource{Resource: notFound}, nodeName)
	}
	if err != nil {
		return "", "", err
	}
	status, _ := node["status"].(map[string]any)
	addrs, _ := status["addresses"].([]any)
	for _, t := range preferredAddressTypes {
		for _, a := range addrs {
			m, _ := a.(map[string]any)
			if m["type"] == t {
				host, _ = m["address"].(string)
				break
			}
		}
		if host != "" {
			break
		}
	}
	if host == "" {
		known := make([]string, len(addrs))
		for i, a := range addrs {
			m, _ := a.(map[string]any)
			known[i] = fmt.Sprintf("{%v %v}", m["type"], m["address"])
		}
		return "", "", unknownError("no preferred addresses found; known addresses: [" + strings.Join(known, " ") + "]")
	}
	p := kubeletPort
	if kp := intMember(status, "daemonEndpoints", "kubeletEndpoint", "Port"); kp > 0 {
		p = kp
	}
	return host, strconv.Itoa(p), nil
}

// intMember reads an integer at path, 0 when absent.
func intMember(m map[string]any, path ...string) int {
	var cur any = m
	for _, p := range path {
		mm, _ := cur.(map[string]any)
		cur = mm[p]
	}
	switch v := cur.(type) {
	case int64:
		return int(v)
	case float64:
		return int(v)
	}
	return 0
}

// logOptions mirrors the query conversion of PodLogOptions, in its fields' order: the
// first value that does not convert is a 400 with the converter's error.
func logOptions(q url.Values) (opts podLogOptions, err error) {
	opts.container = q.Get("container")
	opts.follow, opts.previous, opts.timestamps = queryBool(q, "follow"), queryBool(q, "previous"), queryBool(q, "timestamps")
	if opts.sinceSeconds, err = queryInt(q, "sinceSeconds"); err != nil {
		return opts, err
	}
	if v, ok := q["sinceTime"]; ok && len(v) > 0 && v[0] != "" {
		t, perr := time.Parse(time.RFC3339, v[0])
		if perr != nil {
			return opts, api.NewBadRequest(perr.Error())
		}
		opts.sinceTime = &t
	}
	if opts.tailLines, err = queryInt(q, "tailLines"); err != nil {
		return opts, err
	}
	if opts.limitBytes, err = queryInt(q, "limitBytes"); err != nil {
		return opts, err
	}
	if v, ok := q["stream"]; ok && len(v) > 0 {
		opts.stream = &v[0]
	}
	return opts, nil
}

// podLogOptions are the members of PodLogOptions the log subresource reads.
type podLogOptions struct {
	container                    string
	follow, previous, timestamps bool
	sinceSeconds, tailLines      *int64
	limitBytes                   *int64
	sinceTime                    *time.Time
	stream                       *string
}

// queryBool mirrors Convert_Slice_string_To_bool: present and not "0" or "false".
func queryBool(q url.Values, key string) bool {
	v, ok := q[key]
	return ok && len(v) > 0 && v[0] != "0" && !strings.EqualFold(v[0], "false")
}

// queryInt mirrors Convert_Slice_string_To_Pointer_int64.
func queryInt(q url.Values, key string) (*int64, error) {
	v, ok := q[key]
	if !ok || len(v) == 0 {
		return nil, nil
	}
	n, err := strconv.ParseInt(v[0], 10, 64)
	if err != nil {
		return nil, api.NewBadRequest(err.Error())
	}
	return &n, nil
}

// validateLogOptions mirrors ValidatePodLogOptions with PodLogsQuerySplitStreams off (its
// v1.36 default): no stream may be named.
func validateLogOptions(o podLogOptions) []api.StatusCause {
	var causes []api.StatusCause
	if o.tailLines != nil && *o.tailLines < 0 {
		causes = append(causes, validation.Invalid("tailLines", *o.tailLines, "must be greater than or equal to 0"))
	}
	if o.limitBytes != nil && *o.limitBytes < 1 {
		causes = append(causes, validation.Invalid("limitBytes", *o.limitBytes, "must be greater than 0"))
	}
	switch {
	case o.sinceSeconds != nil && o.sinceTime != nil:
		causes = append(causes, validation.Forbidden("[]", "at most one of `sinceTime` or `sinceSeconds` may be specified"))
	case o.sinceSeconds != nil && *o.sinceSeconds < 1:
		causes = append(causes, validation.Invalid("sinceSeconds", *o.sinceSeconds, "must be greater than 0"))
	}
	if o.stream != nil {
		causes = append(causes, validation.Forbidden("stream", "may not be specified"))
	}
	return causes
}

// servePodLog mirrors LogREST.Get and LogLocation.
func (s *endpoints) servePodLog(w http.ResponseWriter, r *http.Request, info requestInfo) {
	opts, err := logOptions(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	if causes := validateLogOptions(opts); len(causes) > 0 {
		writeError(w, api.NewInvalid(api.GroupKind{Kind: "PodLogOptions"}, info.name, causes))
		return
	}
	pod, err := s.getObject(r, "pods", info.namespace, info.name)
	if err != nil {
		writeError(w, err)
		return
	}
	container, err := validateContainer(opts.container, info.name, pod)
	if err != nil {
		writeError(w, err)
		return
	}
	node := nodeNameOf(pod)
	if node == "" {
		w.WriteHeader(http.StatusNoContent) // no host, no logs: an empty location
		return
	}
	if s.simulatedLog(w, r, node, container, pod, opts) {
		return
	}
	host, port, err := s.kubelet(r, node, "pods")
	if err != nil {
		writeError(w, err)
		return
	}
	params := url.Values{}
	for _, b := range []struct {
		key string
		on  bool
	}{{"follow", opts.follow}, {"previous", opts.previous}, {"timestamps", opts.timestamps}} {
		if b.on {
			params.Add(b.key, "true")
		}
	}
	if opts.sinceSeconds != nil {
		params.Add("sinceSeconds", strconv.FormatInt(*opts.sinceSeconds, 10))
	}
	if opts.sinceTime != nil {
		params.Add("sinceTime", opts.sinceTime.Format(time.RFC3339))
	}
	if opts.tailLines != nil {
		params.Add("tailLines", strconv.FormatInt(*opts.tailLines, 10))
	}
	if opts.limitBytes != nil {
		params.Add("limitBytes", strconv.FormatInt(*opts.limitBytes, 10))
	}
	loc := url.URL{Scheme: "https", Host: net.JoinHostPort(host, port),
		Path: fmt.Sprintf("/containerLogs/%s/%s/%s", info.namespace, info.name, container), RawQuery: params.Encode()}
	writeError(w, unknownError(fmt.Sprintf("Get %q: %s", loc.String(), refused(loc.Host))))
}

func nodeNameOf(pod map[string]any) string {
	spec, _ := pod["spec"].(map[string]any)
	n, _ := spec["nodeName"].(string)
	return n
}

// isUpgrade mirrors httpstream.IsUpgradeRequest: Connection names Upgrade.
func isUpgrade(r *http.Request) bool {
	for _, v := range r.Header.Values("Connection") {
		for _, tok := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "upgrade") {
				return true
			}
		}
	}
	return false
}

// streamTo answers what the upgrade-aware proxy of exec, attach and portforward answers
// when it has found the kubelet: a plain request is refused, an upgrade cannot dial it.
func streamTo(w http.ResponseWriter, r *http.Request, host, port string) {
	if !isUpgrade(r) {
		writeError(w, api.NewBadRequest("Upgrade request required"))
		return
	}
	writeError(w, unknownError("error dialing backend: "+refused(net.JoinHostPort(host, port))))
}

// servePodStream mirrors ExecREST and AttachREST.Connect with streamLocation.
func (s *endpoints) servePodStream(w http.ResponseWriter, r *http.Request, info requestInfo) {
	pod, err := s.getObject(r, "pods", info.namespace, info.name)
	if err != nil {
		writeError(w, err)
		return
	}
	if _, err := validateContainer(r.URL.Query().Get("container"), info.name, pod); err != nil {
		writeError(w, err)
		return
	}
	s.streamToNode(w, r, info, pod)
}

// streamToNode is the node half of streamLocation and PortForwardLocation.
func (s *endpoints) streamToNode(w http.ResponseWriter, r *http.Request, info requestInfo, pod map[string]any) {
	node := nodeNameOf(pod)
	if node == "" {
		writeError(w, api.NewBadRequest(fmt.Sprintf("pod %s does not have a host assigned", info.name)))
		return
	}
	host, port, err := s.kubelet(r, node, "pods")
	if err != nil {
		writeError(w, err)
		return
	}
	streamTo(w, r, host, port)
}

// servePodPortForward mirrors PortForwardREST.Connect: the ports convert first.
func (s *endpoints) servePodPortForward(w http.ResponseWriter, r *http.Request, info requestInfo) {
	for _, v := range r.URL.Query()["ports"] {
		for _, p := range strings.Split(v, ",") {
			if _, err := strconv.ParseUint(p, 10, 16); err != nil {
				writeError(w, api.NewBadRequest(fmt.Sprintf("cannot convert to []int32: %v", err)))
				return
			}
		}
	}
	pod, err := s.getObject(r, "pods", info.namespace, info.name)
	if err != nil {
		writeError(w, err)
		return
	}
	s.streamToNode(w, r, info, pod)
}

// splitSchemeNamePort mirrors net.SplitSchemeNamePort: "name", "name:port" or
// "scheme:name:port", the scheme http, https or none.
func splitSchemeNamePort(id string) (scheme, name, port string, ok bool) {
	parts := strings.Split(id, ":")
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		name, port = parts[0], parts[1]
	case 3:
		scheme, name, port = parts[0], parts[1], parts[2]
	default:
		return "", "", "", false
	}
	return scheme, name, port, name != "" && (scheme == "" || scheme == "http" || scheme == "https")
}

// proxyTo answers what the upgrade-aware proxy answers for a backend where nothing listens:
// a 503 for a plain request (the proxy transport's "error trying to reach service"), a 500
// for an upgrade that cannot dial.
func proxyTo(w http.ResponseWriter, r *http.Request, scheme, host, port string) {
	hostPort := host
	if port != "" {
		hostPort = net.JoinHostPort(host, port)
	} else if scheme == "https" {
		hostPort = net.JoinHostPort(host, "443")
	} else {
		hostPort = net.JoinHostPort(host, "80")
	}
	if isUpgrade(r) {
		writeError(w, unknownError("error dialing backend: "+refused(hostPort)))
		return
	}
	writeError(w, api.NewServiceUnavailable("error trying to reach service: "+refused(hostPort)))
}

// globalUnicast mirrors the proxy's address check: an IP that is global unicast.
func globalUnicast(ip string) bool {
	a := net.ParseIP(ip)
	return a != nil && a.IsGlobalUnicast()
}

// servePodProxy mirrors pod.ResourceLocation: the pod's first IP, and the port asked for
// or the first container port.
func (s *endpoints) servePodProxy(w http.ResponseWriter, r *http.Request, info requestInfo) {
	scheme, name, port, ok := splitSchemeNamePort(info.name)
	if !ok {
		writeError(w, api.NewBadRequest(fmt.Sprintf("invalid pod request %q", info.name)))
		return
	}
	pod, err := s.getObject(r, "pods", info.namespace, name)
	if err != nil {
		writeError(w, err)
		return
	}
	spec, _ := pod["spec"].(map[string]any)
	if port == "" {
		containers, _ := spec["containers"].([]any)
		for _, c := range containers {
			m, _ := c.(map[string]any)
			if ports, _ := m["ports"].([]any); len(ports) > 0 {
				p0, _ := ports[0].(map[string]any)
				port = strconv.Itoa(intMember(p0, "containerPort"))
				break
			}
		}
	}
	status, _ := pod["status"].(map[string]any)
	ip := ""
	if ips, _ := status["podIPs"].([]any); len(ips) > 0 {
		m, _ := ips[0].(map[string]any)
		ip, _ = m["ip"].(string)
	}
	if !globalUnicast(ip) {
		writeError(w, api.NewBadRequest("address not allowed"))
		return
	}
	proxyTo(w, r, scheme, ip, port)
}

// serveNodeProxy mirrors node.ResourceLocation: the kubelet, or another port of the node.
func (s *endpoints) serveNodeProxy(w http.ResponseWriter, r *http.Request, info requestInfo) {
	scheme, name, port, ok := splitSchemeNamePort(info.name)
	if !ok {
		writeError(w, api.NewBadRequest(fmt.Sprintf("invalid node request %q", info.name)))
		return
	}
	host, kport, err := s.kubelet(r, name, "nodes")
	if err != nil {
		writeError(w, err)
		return
	}
	if err := proxyableHostname(host); err != nil {
		writeError(w, err)
		return
	}
	if port == "" || port == kport {
		scheme, port = "https", kport
	}
	proxyTo(w, r, scheme, host, port)
}

// proxyableHostname mirrors isProxyableHostname with a resolver that knows only IP
// literals and localhost: the address must be global unicast.
func proxyableHostname(host string) error {
	switch {
	case net.ParseIP(host) == nil && host != "localhost":
		return api.NewBadRequest("lookup " + host + ": no such host")
	case !globalUnicast(host):
		return api.NewBadRequest("address not allowed")
	}
	return nil
}

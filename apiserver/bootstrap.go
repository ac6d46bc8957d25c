package apiserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/registry"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/core"
)

// What a fresh kube-apiserver creates in its post-start hooks, for Options.Bootstrap: the
// kube-node-lease namespace ("start-system-namespaces-controller"), the legacy token
// tracking ConfigMap, the objects of every kind's registry (rest.Kind.Bootstrap: system
// PriorityClasses, RBAC roles, FlowSchemas, APIServices, the ServiceCIDR, …), then what
// names the server's own address, kept in step with it by the "bootstrap-controller" and
// the identity lease controller: the `kubernetes` Service in default with its Endpoints and
// EndpointSlice, and the kube-apiserver identity Lease in kube-system.

// defaultSecurePort is kube-apiserver's default --secure-port: the server's port until it
// listens on another (Start).
const defaultSecurePort = 6443

// postStart runs kube-apiserver's post-start hooks that create objects (the bootstrap
// controller, the system priority classes, the RBAC policy, the flow-control and
// APIService defaults) against its Server.
type postStart struct{ *Server }

// context is the context of the hooks' writes: the objects are the server's own, built from
// constants, so the registry does not validate them (registry.WithServerObjects), which
// keeps compiling their kinds' schemas out of the start-up. TestCh01_StartupObjectsValidate
// validates them with Options.validateStartupObjects.
func (s postStart) context() context.Context {
	if s.opts.validateStartupObjects {
		return context.Background()
	}
	return registry.WithServerObjects(context.Background())
}

// systemNamespaces creates default, kube-system and kube-public, which every server has
// (the start-system-namespaces-controller's, with default from the bootstrap controller). They
// go to the registry as unstructured objects, as the Go API's Create would store them, with
// its writer when Options.GoAPIManagedFields records one.
func (s postStart) systemNamespaces() {
	res := s.table.Get("", "namespaces")
	ctx := s.ep.goOwner(s.context(), res)
	for _, ns := range []string{"default", "kube-system", "kube-public"} {
		u := &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
		if _, err := s.reg.Create(ctx, res, "", u, false); err != nil {
			panic(fmt.Sprintf("apiserver: creating namespace %s: %v", ns, err))
		}
	}
}

// bootstrap creates the start-up objects. ips is the cluster IP range, whose first address
// the `kubernetes` Service takes.
func (s postStart) bootstrap(ips *core.ClusterIPAllocator) {
	ctx := s.context()
	// The address takes a few system calls: found meanwhile, on another thread.
	ip := make(chan string, 1)
	go func() { ip <- hostAddress() }()
	now := s.clock.Now().UTC()
	objects := []map[string]any{
		{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "kube-node-lease"}},
		{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "kube-apiserver-legacy-service-account-token-tracking", "namespace": "kube-system"},
			"data": map[string]any{"since": now.Format("2006-01-02")}},
	}
	for _, res := range s.table.WithBootstrap() {
		if res.Info.Group == rbacGroup {
			continue // the RBAC policy is created only under RBAC (ensureRBACPolicy), as upstream
		}
		objects = append(objects, res.Bootstrap()...)
	}
	for _, obj := range objects {
		s.mustCreate(ctx, obj)
	}
	// The range held its first address for this Service; the Service now holds it.
	ips.Release(ips.KubernetesServiceIP())
	s.self = advertised{ip: <-ip, port: defaultSecurePort, identity: apiserverIdentity(), holderID: newUUID()}
	s.mustCreate(ctx, map[string]any{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "kubernetes", "namespace": "default", "labels": map[string]any{"component": "apiserver", "provider": "kubernetes"}},
		"spec": map[string]any{"clusterIP": ips.KubernetesServiceIP(), "sessionAffinity": "None", "type": "ClusterIP",
			"ports": []any{map[string]any{"name": "https", "port": int64(443), "protocol": "TCP", "targetPort": int64(s.self.port)}}}})
	for _, obj := range s.self.objects(now) {
		s.mustCreate(ctx, obj)
	}
}

// mustCreate creates a start-up object through its resource; a failure is a bug here.
func (s postStart) mustCreate(ctx context.Context, obj map[string]any) {
	u := &api.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	res := s.table.ForKind(gvk)
	if res == nil {
		panic(fmt.Sprintf("apiserver: start-up object %s %s: kind not served", gvk, u.GetName()))
	}
	// The object is built for this call (rest.Kind.Bootstrap) and goes to the store as it
	// is; only its status is kept apart, for the status write below.
	status, hasStatus := u.Object["status"]
	status = api.DeepCopyJSONValue(status)
	rec, err := s.reg.Create(ctx, res, u.GetNamespace(), u, false)
	if err != nil {
		panic(fmt.Sprintf("apiserver: creating start-up object %s %s: %v", gvk.Kind, u.GetName(), err))
	}
	if !hasStatus || !res.Strategy.HasStatus() {
		return
	}
	// A create resets the status; the controller that owns the object (the ServiceCIDR,
	// flow-control and APIService controllers) then writes it through the status subresource.
	// A status write takes only the status from its body (and the name, uid and
	// resourceVersion it is checked against), so the body is just those, not a copy of the
	// stored object.
	meta := map[string]any{"name": u.GetName(), "uid": rec.Obj.GetUID(), "resourceVersion": rec.Obj.GetResourceVersion()}
	if ns := u.GetNamespace(); ns != "" {
		meta["namespace"] = ns
	}
	next := &api.Unstructured{Object: map[string]any{"apiVersion": u.GetAPIVersion(), "kind": u.GetKind(), "metadata": meta, "status": status}}
	if _, err := s.reg.Update(ctx, res, u.GetNamespace(), next, registry.UpdateOptions{Subresource: "status"}); err != nil {
		panic(fmt.Sprintf("apiserver: writing the status of start-up object %s %s: %v", gvk.Kind, u.GetName(), err))
	}
}

// advertised is the address the server tells clients it serves at (--advertise-address and
// --secure-port), and its identity (the APIServerID).
type advertised struct {
	ip                 string
	port               int
	identity, holderID string
}

// objects are the Endpoints and EndpointSlice of the `kubernetes` Service and the identity
// Lease, as the endpoint reconciler and the identity lease controller write them.
func (a advertised) objects(now time.Time) []map[string]any {
	port := map[string]any{"name": "https", "port": int64(a.port), "protocol": "TCP"}
	hostname, _ := os.Hostname()
	return []map[string]any{
		{"apiVersion": "v1", "kind": "Endpoints",
			"metadata": map[string]any{"name": "kubernetes", "namespace": "default", "labels": map[string]any{"endpointslice.kubernetes.io/skip-mirror": "true"}},
			"subsets":  []any{map[string]any{"addresses": []any{map[string]any{"ip": a.ip}}, "ports": []any{port}}}},
		{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
			"metadata":    map[string]any{"name": "kubernetes", "namespace": "default", "labels": map[string]any{"kubernetes.io/service-name": "kubernetes"}},
			"addressType": "IPv4",
			"endpoints":   []any{map[string]any{"addresses": []any{a.ip}, "conditions": map[string]any{"ready": true}}},
			"ports":       []any{api.DeepCopyJSONValue(port)}},
		{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
			"metadata": map[string]any{"name": a.identity, "namespace": "kube-system",
				"labels":      map[string]any{"apiserver.kubernetes.io/identity": "kube-apiserver", "kubernetes.io/hostname": hostname},
				"annotations": map[string]any{"kubernetes.io/peer-advertise-address": net.JoinHostPort(a.ip, fmt.Sprint(a.port))}},
			"spec": map[string]any{"holderIdentity": a.identity + "_" + a.holderID, "leaseDurationSeconds": int64(3600),
				"renewTime": now.UTC().Format("2006-01-02T15:04:05.000000Z07:00")}},
	}
}

// readvertise mirrors the endpoint reconciler's "Resetting endpoints for master service":
// once the server listens on port, the `kubernetes` Service's targetPort, its endpoints and
// the identity lease say so. It writes nothing when the port is the one already advertised.
func (p postStart) readvertise(port int) {
	s := p.Server
	if !s.opts.Bootstrap || port == s.self.port {
		return
	}
	s.self.port = port
	ctx := p.context()
	updates := s.self.objects(s.clock.Now())
	if svc := s.table.Get("", "services"); svc != nil {
		if cur, err := s.reg.Get(ctx, svc, "default", "kubernetes", 0); err == nil {
			obj := cur.Obj.DeepCopy()
			if ports, _ := obj.Object["spec"].(map[string]any)["ports"].([]any); len(ports) > 0 {
				ports[0].(map[string]any)["targetPort"] = int64(port)
			}
			updates = append([]map[string]any{obj.Object}, updates...)
		}
	}
	// Written through the registry, as the server's own controllers write: no request is
	// counted and no fault applies.
	for _, obj := range updates {
		u := &api.Unstructured{Object: obj}
		res := s.table.ForKind(u.GroupVersionKind())
		cur, err := s.reg.Get(ctx, res, u.GetNamespace(), u.GetName(), 0)
		if err != nil {
			continue // deleted by a client meanwhile: left so
		}
		u.SetResourceVersion(cur.Obj.GetResourceVersion())
		if _, err := s.reg.Update(ctx, res, u.GetNamespace(), u, updateOptions{}); err != nil && s.log != nil {
			s.log.Warn("apiserver: advertising the port", "object", u.GetKind()+" "+u.GetName(), "err", err)
		}
	}
}

// hostAddress mirrors ChooseHostInterface, which kube-apiserver uses for its advertise
// address when it binds loopback: the address of the interface with the default route
// (found by a UDP connect, which sends nothing), else 127.0.0.1 on a host without one.
func hostAddress() string {
	c, err := net.Dial("udp4", "192.0.2.1:9") // any routable address; no packet is sent
	if err != nil {
		return "127.0.0.1"
	}
	defer c.Close()
	if a, ok := c.LocalAddr().(*net.UDPAddr); ok && !a.IP.IsUnspecified() {
		return a.IP.String()
	}
	return "127.0.0.1"
}

// apiserverIdentity mirrors the APIServerID of genericapiserver's NewConfig: "apiserver-"
// and the first 16 bytes of the SHA-256 of the length-prefixed hostname and
// "kube-apiserver", in lower-case unpadded base32.
func apiserverIdentity() string {
	hostname, _ := os.Hostname()
	return apiserverIdentityOf(hostname)
}

// apiserverIdentityOf is apiserverIdentity on a host called hostname.
func apiserverIdentityOf(hostname string) string {
	var b []byte
	for _, part := range []string{hostname, "kube-apiserver"} {
		b = binary.BigEndian.AppendUint16(b, uint16(len(part)))
		b = append(b, part...)
	}
	sum := sha256.Sum256(b)
	return "apiserver-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:16]))
}

// newUUID returns an RFC 4122 version 4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

package registry

import (
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/admissionregistration"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiregistration"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apps"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/authentication"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/authorization"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/autoscaling"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/batch"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/certificates"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/coordination"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/core"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/discovery"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/events"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/flowcontrol"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/networking"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/node"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/policy"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rbac"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/resource"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/scheduling"
	storagekinds "github.com/informer-lab/informer-lab/apiserver/internal/registry/storage"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// builtinKinds lists the built-ins in the order discovery sends them: by group, then
// resource name, as the real /api/v1 and /apis/{group}/{version} documents do. Adding a kind
// is one file under registry/<group>/ and one line here.
func builtinKinds(ips *core.ClusterIPAllocator) []rest.Kind {
	return []rest.Kind{
		core.Bindings(),
		core.ComponentStatuses(),
		core.ConfigMaps(),
		core.Endpoints(),
		core.Events(),
		core.LimitRanges(),
		core.Namespaces(),
		core.Nodes(),
		core.PersistentVolumeClaims(),
		core.PersistentVolumes(),
		core.Pods(),
		core.PodTemplates(),
		core.ReplicationControllers(),
		core.ResourceQuotas(),
		core.Secrets(),
		core.ServiceAccounts(),
		core.Services(ips),
		admissionregistration.MutatingAdmissionPolicies(),
		admissionregistration.MutatingAdmissionPolicyBindings(),
		admissionregistration.MutatingWebhookConfigurations(),
		admissionregistration.ValidatingAdmissionPolicies(),
		admissionregistration.ValidatingAdmissionPolicyBindings(),
		admissionregistration.ValidatingWebhookConfigurations(),
		apiextensions.CustomResourceDefinitions(),
		apiregistration.APIServices(),
		apps.ControllerRevisions(),
		apps.DaemonSets(),
		apps.Deployments(),
		apps.ReplicaSets(),
		apps.StatefulSets(),
		authentication.SelfSubjectReviews(),
		authentication.TokenReviews(),
		authorization.LocalSubjectAccessReviews(),
		authorization.SelfSubjectAccessReviews(),
		authorization.SelfSubjectRulesReviews(),
		authorization.SubjectAccessReviews(),
		autoscaling.HorizontalPodAutoscalers(),
		batch.CronJobs(),
		batch.Jobs(),
		certificates.CertificateSigningRequests(),
		coordination.Leases(),
		discovery.EndpointSlices(),
		events.Events(),
		networking.IngressClasses(),
		networking.Ingresses(),
		networking.IPAddresses(),
		networking.NetworkPolicies(),
		networking.ServiceCIDRs(serviceCIDR(ips)),
		node.RuntimeClasses(),
		resource.DeviceClasses(),
		resource.ResourceClaims(),
		resource.ResourceClaimTemplates(),
		resource.ResourceSlices(),
		storagekinds.CSIDrivers(),
		storagekinds.CSINodes(),
		storagekinds.CSIStorageCapacities(),
		storagekinds.StorageClasses(),
		storagekinds.VolumeAttachments(),
		storagekinds.VolumeAttributesClasses(),
		flowcontrol.FlowSchemas(),
		flowcontrol.PriorityLevelConfigurations(),
		rbac.ClusterRoleBindings(),
		rbac.ClusterRoles(),
		rbac.RoleBindings(),
		rbac.Roles(),
		policy.PodDisruptionBudgets(),
		scheduling.PriorityClasses(),
	}
}

// serviceCIDR is the service range of ips: the range of the default ServiceCIDR.
func serviceCIDR(ips *core.ClusterIPAllocator) string {
	if ips == nil {
		return core.DefaultServiceCIDR
	}
	return ips.CIDR()
}

// infoOf is the ResourceInfo a kind is served with.
func infoOf(k rest.Kind) ResourceInfo {
	labels := make([]string, 0, len(k.Fields))
	for l := range k.Fields {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	version := k.Version
	if version == "" {
		version = "v1"
	}
	ri := ResourceInfo{
		Group: k.Group, Version: version, Resource: k.Resource, Kind: k.Kind, Namespaced: k.Strategy.NamespaceScoped(),
		ShortNames: slices.Clone(k.ShortNames), Categories: slices.Clone(k.Categories),
		AllowUnconditionalUpdate: k.Strategy.AllowUnconditionalUpdate(),
		ReturnDeletedObject:      k.ReturnDeletedObject, FieldLabels: labels,
	}
	if len(k.Fields) > 0 {
		ri.FieldSet = rest.FieldSetOf(k.Fields)
	}
	return ri
}

// BuiltinInfos returns the infos of the built-in kinds, in discovery order; a kind served
// at several versions is listed at each, as Table.Infos lists it.
func BuiltinInfos() []ResourceInfo {
	kinds := builtinKinds(nil)
	out := make([]ResourceInfo, 0, len(kinds))
	for _, k := range kinds {
		ri := infoOf(k)
		out = append(out, ri)
		for _, c := range k.Conversions {
			ri.Version = c.Version
			out = append(out, ri)
		}
	}
	return out
}

// Table is the set of served resources: the REST storage map of a kube-apiserver, by
// group/resource and by group-version. Its lock is taken after the storage's where both are
// held (a CRD's write serves or drops its resource).
type Table struct {
	store     *storage.Store
	mu        sync.RWMutex
	resources map[string]*Resource   // by "group/resource"
	byGV      map[string][]*Resource // by "group/version", in registration order
	// namespaces is the namespaces resource, set once by NewTable: the namespace lifecycle
	// reads it on every namespaced write, without the lock.
	namespaces *Resource
	// Log gets the CEL interpreter's stages for the rules of every CRD served (set once,
	// before the first CRD is written; nil is silent).
	Log *slog.Logger
}

// NewTable returns a table of the built-in kinds over store, Services allocating from ips.
func NewTable(store *storage.Store, ips *core.ClusterIPAllocator) *Table {
	t := &Table{store: store, resources: map[string]*Resource{}, byGV: map[string][]*Resource{}}
	for _, k := range builtinKinds(ips) {
		r := &Resource{Info: infoOf(k), Builtin: true, Strategy: k.Strategy, NoCollectionDelete: k.NoCollectionDelete,
			OnlyVerbs: k.Verbs, Subresources: k.Subresources, Storage: k.Storage, Bootstrap: k.Bootstrap,
			Deprecated: k.Deprecated}
		r.Conversions = k.Conversions
		r.ToStorage, r.FromStorage = k.ToStorage, k.FromStorage
		if _, err := t.add(r); err != nil {
			panic(err) // the table above has no duplicate
		}
		for _, c := range k.Conversions {
			t.mu.Lock()
			t.addVersionAliases(r, []string{c.Version})
			t.mu.Unlock()
		}
	}
	t.shareStorage()
	t.namespaces = t.resources["/namespaces"]
	return t
}

// shareStorage gives each resource stored as another built-in kind (Resource.Storage) that
// kind's collection: one storage, two views, as an events.k8s.io Event is a core Event in
// etcd. A resource whose storage kind is not served keeps its own.
func (t *Table) shareStorage() {
	for _, r := range t.resources {
		if r.Storage.Kind == "" {
			continue
		}
		for _, other := range t.resources {
			if other != r && other.Info.GVK() == r.Storage {
				r.Coll = other.Coll
			}
		}
	}
}

// Register adds a kind registered from Go, with the strategy such kinds get: status and
// generation, and unconditional updates only where ri allows them.
func (t *Table) Register(ri ResourceInfo) (*Resource, error) {
	if err := ri.Validate(); err != nil {
		return nil, err
	}
	ri.ShortNames = slices.Clone(ri.ShortNames)
	ri.Categories = slices.Clone(ri.Categories)
	ri.FieldLabels = slices.Clone(ri.FieldLabels)
	st := rest.Base{Cluster: !ri.Namespaced, Status: true, Generation: true, Unconditional: ri.AllowUnconditionalUpdate}
	return t.add(&Resource{Info: ri, Strategy: st})
}

// add puts r in the table with a new collection.
func (t *Table) add(r *Resource) (*Resource, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id := r.Info.Group + "/" + r.Info.Resource
	if _, ok := t.resources[id]; ok {
		return nil, fmt.Errorf("apiserver: resource %s is already registered", r.Info.GroupResource())
	}
	r.Coll = t.store.NewCollection(r.Info.GroupResource().String(), r.Info.Resource)
	t.resources[id] = r
	gv := r.Info.Group + "/" + r.Info.Version
	t.byGV[gv] = append(t.byGV[gv], r)
	return r, nil
}

// ForKind returns the resource serving gvk, or nil.
func (t *Table) ForKind(gvk api.GroupVersionKind) *Resource {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, r := range t.byGV[gvk.Group+"/"+gvk.Version] {
		if r.Info.Kind == gvk.Kind && r.Storage.Kind == "" {
			return r
		}
	}
	return nil
}

// WithBootstrap returns the built-in resources that have start-up objects
// (rest.Kind.Bootstrap), in discovery order.
func (t *Table) WithBootstrap() []*Resource {
	groups, versions := t.GroupVersions()
	var out []*Resource
	for _, g := range groups {
		for _, v := range versions[g] {
			for _, r := range t.ByGV(g, v) {
				if r.Builtin && r.Bootstrap != nil && r.Info.Version == v && !slices.Contains(out, r) {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// Get returns the resource of group and plural resource, or nil.
func (t *Table) Get(group, resource string) *Resource {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.resources[group+"/"+resource]
}

// Infos returns the served resources, ordered by group-version, built-ins first within
// each, for discovery and demos; a resource served at several versions is listed at each.
func (t *Table) Infos() []ResourceInfo {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []ResourceInfo
	for _, gv := range sortedKeys(t.byGV) {
		for _, r := range t.byGV[gv] {
			ri := r.Info
			_, ri.Version, _ = strings.Cut(gv, "/")
			out = append(out, ri)
		}
	}
	return out
}

// ByGV returns the resources served under group/version, in registration order.
func (t *Table) ByGV(group, version string) []*Resource {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Clone(t.byGV[group+"/"+version])
}

// Lookup finds a resource by plural, short name, "plural.group" or "group/version/plural".
func (t *Table) Lookup(name string) (*Resource, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if r, ok := t.resources["/"+name]; ok {
		return r, nil
	}
	if parts := strings.Split(name, "/"); len(parts) == 3 {
		for _, r := range t.byGV[parts[0]+"/"+parts[1]] {
			if r.Info.Resource == parts[2] {
				return r, nil
			}
		}
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		if r, ok := t.resources[name[i+1:]+"/"+name[:i]]; ok {
			return r, nil
		}
	}
	var found *Resource
	for _, r := range t.resources {
		match := r.Info.Resource == name
		for _, sn := range r.Info.ShortNames {
			match = match || sn == name
		}
		if match {
			if found != nil {
				return nil, api.NewBadRequest(fmt.Sprintf("resource name %q is ambiguous: qualify it with its group", name))
			}
			found = r
		}
	}
	if found == nil {
		return nil, NotFoundResource()
	}
	return found, nil
}

// NotFoundResource is the 404 for an unknown resource inside a served group-version.
func NotFoundResource() *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: 404, Reason: api.StatusReasonNotFound,
		Message: "the server could not find the requested resource",
		// Upstream builds it with NewGenericServerResponse, whose details are always set.
		Details: &api.StatusDetails{},
	}
}

// Namespaced returns the namespaced resources in table order.
func (t *Table) Namespaced() []*Resource {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []*Resource
	for _, id := range sortedKeys(t.resources) {
		// A resource stored as another is that one's view: its objects are listed once.
		if r := t.resources[id]; r.Info.Namespaced && !t.sharesStorage(r) {
			out = append(out, r)
		}
	}
	return out
}

// sharesStorage reports whether r is stored in another resource's collection. t.mu is held.
func (t *Table) sharesStorage(r *Resource) bool {
	if r.Storage.Kind == "" {
		return false
	}
	for _, other := range t.resources {
		if other != r && other.Coll == r.Coll {
			return true
		}
	}
	return false
}

// holdsObjects reports whether any resource has an object in namespace ns.
func (t *Table) holdsObjects(tx *storage.Tx, ns string) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, r := range t.resources {
		if r.Info.Namespaced && tx.CountIn(r.Coll, ns) > 0 {
			return true
		}
	}
	return false
}

// addVersionAliases lists r under each further served version too. t.mu is held.
func (t *Table) addVersionAliases(r *Resource, versions []string) {
	for _, v := range versions {
		gv := r.Info.Group + "/" + v
		if !slices.Contains(t.byGV[gv], r) {
			t.byGV[gv] = append(t.byGV[gv], r)
		}
	}
}

// removeFromGVs takes r out of every group-version it is listed under. t.mu is held.
func (t *Table) removeFromGVs(r *Resource) {
	for gv, list := range t.byGV {
		kept := list[:0:0]
		for _, x := range list {
			if x != r {
				kept = append(kept, x)
			}
		}
		if len(kept) == 0 {
			delete(t.byGV, gv)
		} else if len(kept) != len(list) {
			t.byGV[gv] = kept
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// getNoAlloc is Get without building the key on the heap: admission reads the policy
// resources, whose keys are longer than the compiler's stack buffer, on every request.
func (t *Table) getNoAlloc(group, resource string) *Resource {
	var buf [96]byte
	key := append(append(append(buf[:0], group...), '/'), resource...)
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.resources[string(key)]
}

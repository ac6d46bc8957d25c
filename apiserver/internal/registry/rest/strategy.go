package rest

import (
	"reflect"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cost"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Context is what a strategy may know of the request beyond the objects.
type Context struct {
	Now    api.Time // the request's time, to the second
	DryRun bool
	// User is the requesting user, when the request carries one (request.UserFrom).
	User *UserInfo
}

// Strategy mirrors RESTCreateStrategy, RESTUpdateStrategy and ResetFieldsStrategy of
// k8s.io/apiserver pkg/registry/rest for one kind.
type Strategy interface {
	// NamespaceScoped mirrors RESTCreateStrategy.NamespaceScoped.
	NamespaceScoped() bool
	// HasStatus: the status subresource is served, and only it writes the status.
	HasStatus() bool
	// HasScale: the scale subresource (autoscaling/v1 Scale) is served.
	HasScale() bool
	// HasGeneration: metadata.generation starts at 1 and moves on spec changes.
	HasGeneration() bool
	// PrepareForCreate mirrors RESTCreateStrategy.PrepareForCreate: it clears what a create
	// may not set, the status above all.
	PrepareForCreate(ctx Context, obj *api.Unstructured)
	// PrepareForUpdate mirrors RESTUpdateStrategy.PrepareForUpdate for the main resource: it
	// keeps the reset fields of old and moves the generation on a spec change.
	PrepareForUpdate(ctx Context, obj, old *api.Unstructured)
	// Validate mirrors RESTCreateStrategy.Validate: the kind's causes (object metadata is
	// the generic store's).
	Validate(obj *api.Unstructured) []api.StatusCause
	// ValidateUpdate mirrors RESTUpdateStrategy.ValidateUpdate: the causes only an update
	// has; the store adds Validate's.
	ValidateUpdate(obj, old *api.Unstructured) []api.StatusCause
	// Canonicalize mirrors RESTCreateStrategy.Canonicalize.
	Canonicalize(obj *api.Unstructured)
	// WarningsOnCreate and WarningsOnUpdate mirror their RESTCreateStrategy and
	// RESTUpdateStrategy namesakes.
	WarningsOnCreate(obj *api.Unstructured) []string
	WarningsOnUpdate(obj, old *api.Unstructured) []string
	// AllowCreateOnUpdate mirrors RESTUpdateStrategy.AllowCreateOnUpdate: a PUT of a missing
	// object creates it.
	AllowCreateOnUpdate() bool
	// AllowUnconditionalUpdate mirrors RESTUpdateStrategy.AllowUnconditionalUpdate: a PUT
	// without metadata.resourceVersion is accepted.
	AllowUnconditionalUpdate() bool
	// GetResetFields mirrors ResetFieldsStrategy.GetResetFields: per API version, the
	// top-level fields a write to the main resource cannot change.
	GetResetFields() map[string][]string
}

// Base is the generic strategy: namespaced, no subresource, no generation, no kind checks.
// Kinds embed it and set or override what differs.
type Base struct {
	// GVK is the kind's, for the presence checks of its OpenAPI schema (none when zero).
	GVK        api.GroupVersionKind
	Cluster    bool // cluster-scoped
	Status     bool
	Scale      bool
	Generation bool
	// Unconditional is AllowUnconditionalUpdate: true for every built-in.
	Unconditional bool
	// ResetStatus is the status PrepareForCreate gives a new object, as the real server
	// writes it out (the members without omitempty included); nil keeps the body's.
	ResetStatus func() map[string]any
	// SpecChanged decides whether the generation moves; nil compares everything outside
	// metadata and status.
	SpecChanged func(old, obj *api.Unstructured) bool
}

// NamespaceScoped implements Strategy.
func (b Base) NamespaceScoped() bool { return !b.Cluster }

// HasStatus implements Strategy.
func (b Base) HasStatus() bool { return b.Status }

// HasScale implements Strategy.
func (b Base) HasScale() bool { return b.Scale }

// HasGeneration implements Strategy.
func (b Base) HasGeneration() bool { return b.Generation }

// PrepareForCreate implements Strategy: the reset status, if the kind has one.
func (b Base) PrepareForCreate(_ Context, obj *api.Unstructured) {
	if b.ResetStatus != nil {
		obj.Object["status"] = b.ResetStatus()
	}
}

// PrepareForUpdate implements Strategy: a kind with a status subresource keeps the stored
// status whatever the body says (so a spec writer and a status writer never undo each
// other), and the generation moves when the spec changed.
func (b Base) PrepareForUpdate(_ Context, obj, old *api.Unstructured) {
	if b.Status {
		KeepFields(obj, old, "status")
	}
	if obj.GetGeneration() > 0 && b.specChanged(old, obj) {
		obj.SetGeneration(old.GetGeneration() + 1)
	}
}

func (b Base) specChanged(old, obj *api.Unstructured) bool {
	if b.SpecChanged != nil {
		return b.SpecChanged(old, obj)
	}
	return SpecChanged(old, obj)
}

// Validate implements Strategy: the fields the kind's schema requires.
func (b Base) Validate(obj *api.Unstructured) []api.StatusCause {
	return RequiredCauses(b.GVK, obj, nil, "")
}

// RequiredCauses appends to causes a Required cause for each field the OpenAPI schema of
// gvk requires and obj lacks, skipping those causes already names. A pod template's
// presence (templatePath) and a pod spec's containers are reported through what they lack,
// as the real validation does.
func RequiredCauses(gvk api.GroupVersionKind, obj *api.Unstructured, causes []api.StatusCause, templatePath string) []api.StatusCause {
	sch, ok := schema.ForKind(gvk)
	if !ok {
		return causes
	}
	required := sch.MissingRequired(obj.Object)
	if len(required) == 0 {
		return causes
	}
	// A set of the fields named so far: a scan of causes per required path was quadratic
	// in a pod of many empty containers (160 KB of them took 5.8 s).
	named := make(map[string]struct{}, len(causes)+len(required))
	for _, c := range causes {
		named[c.Field] = struct{}{}
	}
	for _, p := range required {
		cost.Add(1)
		// A weighted term's podAffinityTerm is a struct value: its absence is judged by the
		// term's own rules (an empty topologyKey), not reported as missing.
		if _, dup := named[p]; dup || p == templatePath || strings.HasSuffix(p, "spec.containers") || strings.HasSuffix(p, "].podAffinityTerm") {
			continue
		}
		named[p] = struct{}{}
		causes = append(causes, validation.Required(p, ""))
	}
	return causes
}

// ValidateUpdate implements Strategy: no update-only causes.
func (Base) ValidateUpdate(_, _ *api.Unstructured) []api.StatusCause { return nil }

// Canonicalize implements Strategy: objects are stored as written.
func (Base) Canonicalize(*api.Unstructured) {}

// WarningsOnCreate implements Strategy: none.
func (Base) WarningsOnCreate(*api.Unstructured) []string { return nil }

// WarningsOnUpdate implements Strategy: none.
func (Base) WarningsOnUpdate(_, _ *api.Unstructured) []string { return nil }

// AllowCreateOnUpdate implements Strategy: a PUT does not create.
func (Base) AllowCreateOnUpdate() bool { return false }

// AllowUnconditionalUpdate implements Strategy.
func (b Base) AllowUnconditionalUpdate() bool { return b.Unconditional }

// GetResetFields implements Strategy: the status, for a kind with a status subresource.
func (b Base) GetResetFields() map[string][]string {
	if !b.Status {
		return nil
	}
	return map[string][]string{"v1": {"status"}}
}

// KeepFields gives obj the top-level fields of old (removing those old lacks), in place.
func KeepFields(obj, old *api.Unstructured, fields ...string) {
	for _, f := range fields {
		if v, found := old.Object[f]; found {
			obj.Object[f] = api.DeepCopyJSONValue(v)
		} else {
			delete(obj.Object, f)
		}
	}
}

// SpecChanged reports whether anything outside metadata and status differs (spec,
// template, data, …), as the strategies compare it.
func SpecChanged(old, obj *api.Unstructured) bool {
	for k, v := range obj.Object {
		if k == "metadata" || k == "status" {
			continue
		}
		if ov, ok := old.Object[k]; !ok || !reflect.DeepEqual(ov, v) {
			return true
		}
	}
	for k := range old.Object {
		if k == "metadata" || k == "status" {
			continue
		}
		if _, ok := obj.Object[k]; !ok {
			return true
		}
	}
	return false
}

// Hooks are what genericregistry.Store calls around the storage write. Both run under the
// storage's write lock, so what they reserve or release is in step with the write.
type Hooks interface {
	// BeginCreate runs once the key is known to be free: it may refuse the create.
	BeginCreate(ctx Context, obj *api.Unstructured) error
	// AfterDelete runs after a real delete.
	AfterDelete(obj *api.Unstructured)
}

// UpdateHooks are hooks around an update.
type UpdateHooks interface {
	// KeepAllocated runs after PrepareForUpdate with the stored object: what the kind's
	// REST storage carries over (a Service's allocated IPs).
	KeepAllocated(obj, old *api.Unstructured)
}

// Allocator mirrors the BeginCreate and BeginUpdate hooks of genericregistry.Store for a
// kind whose REST storage hands out values from a shared pool (a Service's cluster IPs and
// node ports). They run after admission's mutation and before validation, as upstream's do,
// and may refuse the write. What they reserve is given back by finish(false) and what they
// free is freed by finish(true); the store calls finish once the write's fate is known. A
// dry run (ctx.DryRun) reserves nothing.
type Allocator interface {
	AllocateCreate(ctx Context, obj *api.Unstructured) (finish func(ok bool), err error)
	AllocateUpdate(ctx Context, obj, old *api.Unstructured) (finish func(ok bool), err error)
}

// SubresourceUpdater is a kind with subresources that write a part of the object other
// than its status (pods/ephemeralcontainers and pods/resize): each keeps the stored object
// but for its part, and has its own update rules, which replace the kind's.
type SubresourceUpdater interface {
	// PrepareSubresourceUpdate mirrors the subresource strategy's PrepareForUpdate: the
	// object to store, false when sub is not such a subresource of the kind.
	PrepareSubresourceUpdate(sub string, obj, old *api.Unstructured) (*api.Unstructured, bool)
	// ValidateSubresourceUpdate mirrors the subresource strategy's ValidateUpdate.
	ValidateSubresourceUpdate(sub string, obj, old *api.Unstructured) []api.StatusCause
}

// OwnUpdateRules is a kind whose ValidateUpdate holds every rule of an update, as its real
// strategy's ValidateUpdate does not run the create rules (ValidateEventUpdate of
// events.k8s.io): the store then skips Validate on update.
type OwnUpdateRules interface {
	OwnUpdateRules()
}

// FinalizeStrategy is the finalize subresource's strategy (namespaces): a copy of old with
// the part of obj that subresource writes.
type FinalizeStrategy interface {
	PrepareForFinalize(obj, old *api.Unstructured) *api.Unstructured
}

// LateValidator is a check that runs only when Validate found nothing (a ConfigMap's keys
// and size, which the real validation reports after the metadata's).
type LateValidator interface {
	ValidateLate(obj *api.Unstructured) error
}

// EmptyStatus is the ResetStatus of a kind whose cleared status has no member written out.
func EmptyStatus() map[string]any { return map[string]any{} }

// ZeroStatus is the ResetStatus of a kind whose cleared status writes out the given members
// (those without omitempty) as 0, as the real server serialises it.
func ZeroStatus(members ...string) func() map[string]any {
	return func() map[string]any {
		st := make(map[string]any, len(members))
		for _, m := range members {
			st[m] = int64(0)
		}
		return st
	}
}

// DNSLabelNamer is a kind whose names must be DNS labels, not subdomains (namespaces).
type DNSLabelNamer interface {
	NameIsDNSLabel() bool
}

// StatusPreparer is a kind whose status subresource's PrepareForUpdate does more than keep
// the stored spec (a PersistentVolume stamps the time of a phase change). The store calls it
// with the stored object carrying the new status.
type StatusPreparer interface {
	PrepareForStatusUpdate(ctx Context, obj, old *api.Unstructured)
}

// StatusMetadata is a kind whose status subresource also takes some metadata members from
// the body: upstream's status strategies reset only the spec (and, for a Deployment, the
// labels), so a status update writes annotations, labels and finalizers. The Deployment
// controller records a Deployment's revision annotation that way, without moving its
// generation.
type StatusMetadata interface {
	StatusUpdateMetadata() []string
}

// DeleteValidator is a kind whose REST storage refuses to delete some objects by name,
// before looking them up (the system PriorityClasses).
type DeleteValidator interface {
	ValidateDelete(name string) error
}

// Lister returns the stored objects of another resource (group "" for core), as the write's
// storage transaction sees them.
type Lister func(group, resource string) []*api.Unstructured

// StateValidator is a kind whose creates and updates are checked against other stored
// objects, under the storage's write lock: what an admission plugin that reads cluster
// state refuses (the Priority plugin's single default PriorityClass). It runs after
// validation, just before the write; old is nil on create.
type StateValidator interface {
	ValidateState(obj, old *api.Unstructured, list Lister) error
}

// GenericMetaValidator is a strategy whose Validate checks no ObjectMeta, as upstream's
// core/v1 Event strategy (ValidateEventCreate for core/v1 is the legacy check alone). A
// create then follows rest.BeforeCreate's order: the strategy's causes alone when it finds
// any; otherwise ValidateObjectMetaAccessor, which checks the name only as a path segment.
type GenericMetaValidator interface {
	ValidatesMetaGenerically() bool
}

// NameValidator is a kind whose name rule is not the DNS subdomain one: it returns the
// problems of a name (PodDisruptionBudgets check none of their own, so only the generic
// path-segment rule applies).
type NameValidator interface {
	ValidateName(name string) []string
}

// EnsureMember writes out a member the typed object always has (one without omitempty) as
// its zero value when obj lacks it: what a Canonicalize does so that the stored object reads
// as the real server's typed one ("spec": {}, "value": 0, "limits": null).
func EnsureMember(obj map[string]any, zero any, path ...string) {
	for _, p := range path[:len(path)-1] {
		next, ok := obj[p].(map[string]any)
		if !ok {
			if obj[p] != nil {
				return
			}
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
	if _, ok := obj[path[len(path)-1]]; !ok {
		obj[path[len(path)-1]] = zero
	}
}

// FullUpdateValidator is a strategy whose ValidateUpdate checks the whole object, so that
// the store adds only the object metadata's causes to it, not Validate's (custom resources,
// whose update validation ratchets).
type FullUpdateValidator interface {
	ValidatesUpdateFully() bool
}

// LatePreparer is a kind whose PrepareForCreate reads what the decoder's defaults and the
// mutating admission plugins add (a pod's QoS class). Upstream runs PrepareForCreate after
// both; here the store runs this part of it then.
type LatePreparer interface {
	PrepareAfterAdmission(obj *api.Unstructured)
}

// GracefulDeleter mirrors rest.RESTGracefulDeleteStrategy: a kind whose objects may be
// deleted gracefully. CheckGracefulDelete returns the grace period of a delete of obj with
// the requested period (nil when the request names none); 0 deletes at once.
type GracefulDeleter interface {
	CheckGracefulDelete(obj *api.Unstructured, requested *int64) int64
}

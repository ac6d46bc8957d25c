package registry

import (
	"context"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
)

// FieldManager is what the store asks of a kind's field manager (the FieldManager of
// k8s.io/apiserver pkg/endpoints/handlers/fieldmanager): Update records the fields a
// non-apply write changed as its manager's, Apply merges an applied configuration by
// ownership. Both return the object with metadata.managedFields set.
type FieldManager interface {
	Update(live, obj *api.Unstructured, manager, subresource string, now api.Time) (*api.Unstructured, error)
	Apply(live, applied *api.Unstructured, manager, subresource string, force bool, now api.Time) (*api.Unstructured, error)
}

// FieldManagerBuilder builds the field manager of a resource at apiVersion ("": the form the
// store holds): of a built-in kind from its OpenAPI, of a custom resource from the
// structural schema of serving (nil for a built-in).
type FieldManagerBuilder func(res *Resource, serving *apiextensions.Serving, apiVersion string) (FieldManager, error)

// Owner is who writes, as the request's options and User-Agent say (managerOrUserAgent in the
// handlers); Applied says that an apply has already computed managedFields, so the store
// does not record the write a second time.
type Owner struct {
	Manager string
	Applied bool
	// Subresource is what managedFields record when the write goes through the main resource
	// on behalf of a subresource (scale).
	Subresource string
	// APIVersion and View are the request's version when it is not the stored form's, and
	// the conversion of a stored object to it: the handlers run the field manager on the
	// object at the version the request was sent at, so that its entry records that
	// apiVersion and its fields are that version's.
	APIVersion string
	View       func(stored map[string]any) map[string]any
	// ReplicasPath is where the parent of a scale write keeps its replicas (nil:
	// spec.replicas).
	ReplicasPath []string
}

type ownerKey struct{}

// WithOwner mirrors what the create, update and patch handlers hand their fieldManager calls:
// ctx carrying the writer. A write without one is not recorded (the server's own
// bootstrap and in-process writes).
func WithOwner(ctx context.Context, o Owner) context.Context {
	return context.WithValue(ctx, ownerKey{}, o)
}

// OwnerFrom returns the writer ctx carries.
func OwnerFrom(ctx context.Context) (Owner, bool) {
	o, ok := ctx.Value(ownerKey{}).(Owner)
	return o, ok
}

// fieldManagerCache is a resource's field manager, built on first use; a custom resource's is
// rebuilt when its CRD's serving (and so its schema) changes, as the CRD handler rebuilds
// its crdInfo.
type fieldManagerCache struct {
	mu      sync.Mutex
	serving *apiextensions.Serving
	at      map[string]builtFieldManager // by apiVersion, "" the stored form's
}

type builtFieldManager struct {
	fm  FieldManager
	err error
}

// FieldManagerOf returns res's field manager for its stored form (nil, nil when the store
// has no builder).
func (s *Store) FieldManagerOf(res *Resource) (FieldManager, error) {
	return s.FieldManagerAt(res, "")
}

// FieldManagerAt returns res's field manager at apiVersion ("": the stored form's), as the
// handlers have one per served version.
func (s *Store) FieldManagerAt(res *Resource, apiVersion string) (FieldManager, error) {
	if s.FieldManagers == nil {
		return nil, nil
	}
	c := &res.fields
	serving := res.CRD.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.serving != serving || c.at == nil {
		c.serving, c.at = serving, map[string]builtFieldManager{}
	}
	b, ok := c.at[apiVersion]
	if !ok {
		b.fm, b.err = s.FieldManagers(res, serving, apiVersion)
		c.at[apiVersion] = b
	}
	return b.fm, b.err
}

// recordUpdate records a non-apply write of obj over live (nil on create) as its manager's,
// in place: the UpdateNoErrors of the handlers, after defaulting and the strategy's
// preparation, so that the fields a subresource or the strategy resets are no change.
func (s *Store) recordUpdate(ctx context.Context, res *Resource, live, obj *api.Unstructured, sub string) error {
	// (An error is only the builder's: a kind whose model cannot be built.)
	o, ok := OwnerFrom(ctx)
	if !ok || o.Applied {
		return nil
	}
	fm, err := s.FieldManagerAt(res, o.APIVersion)
	if fm == nil || err != nil {
		return err
	}
	if o.Subresource != "" {
		sub = o.Subresource
	}
	target := obj
	if o.View != nil { // at the request's version: its managedFields go back on obj
		target = &api.Unstructured{Object: o.View(obj.DeepCopy().Object)}
		if live != nil {
			live = &api.Unstructured{Object: o.View(live.DeepCopy().Object)}
		}
	}
	if sub == "scale" {
		return s.recordScale(live, obj, o)
	}
	out, err := fm.Update(live, target, o.Manager, sub, s.Now())
	if err != nil {
		// UpdateNoErrors: a write never fails for its bookkeeping; what cannot be recorded
		// is dropped rather than stored half right.
		if md, ok := obj.Object["metadata"].(map[string]any); ok {
			delete(md, "managedFields")
		}
		return nil
	}
	if o.View != nil {
		copyManagedFields(obj, out)
	} else {
		obj.Object = out.Object
	}
	return nil
}

// recordPrepared records an update once the store has prepared next from the request's body
// and the stored old. An apply has computed managedFields already: they go with next, which
// a subresource's preparation builds from the stored object.
func (s *Store) recordPrepared(ctx context.Context, res *Resource, body, next, old *api.Unstructured, sub string) error {
	o, ok := OwnerFrom(ctx)
	if !ok {
		return nil
	}
	if o.Applied {
		if next != body {
			copyManagedFields(next, body)
		}
		return nil
	}
	return s.recordUpdate(ctx, res, old, next, sub)
}

// recordCreate records a create as the create handler does: on the body as decoding
// defaulted it, before the strategy's PrepareForCreate, so that what the strategy adds (a
// Job's generated selector and labels) is nobody's. It returns that object, whose
// managedFields the caller copies onto the prepared one (nil when nothing is recorded).
func (s *Store) recordCreate(ctx context.Context, res *Resource, obj *api.Unstructured) (*api.Unstructured, error) {
	if o, ok := OwnerFrom(ctx); !ok || o.Applied {
		return nil, nil
	}
	// The body as decoding defaulted it: obj itself when defaulting changes nothing of the
	// kind (the strategy's preparation comes after, so nothing it adds is recorded).
	decoded := obj
	if res.Builtin && defaulting.HasDefaults(res.Info.Group, res.Info.Version, res.Info.Kind) {
		decoded = obj.DeepCopy()
		applyDefaults(res, decoded)
	}
	if err := s.recordUpdate(ctx, res, nil, decoded, ""); err != nil {
		return nil, err
	}
	return decoded, nil
}

// copyManagedFields sets dst's metadata.managedFields to src's (none when src has none).
func copyManagedFields(dst, src *api.Unstructured) {
	md, _ := dst.Object["metadata"].(map[string]any)
	if md == nil {
		return
	}
	smd, _ := src.Object["metadata"].(map[string]any)
	if mf, ok := smd["managedFields"]; ok {
		md["managedFields"] = mf
	} else {
		delete(md, "managedFields")
	}
}

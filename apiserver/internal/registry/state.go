package registry

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// lister reads other resources' objects through tx, for a rest.StateValidator.
func (s *Store) lister(tx *storage.Tx) rest.Lister {
	return func(group, resource string) []*api.Unstructured {
		r := s.Table.Get(group, resource)
		if r == nil {
			return nil
		}
		keys := tx.Keys(r.Coll)
		out := make([]*api.Unstructured, 0, len(keys))
		for _, k := range keys {
			if rec := tx.Get(r.Coll, k); rec != nil {
				out = append(out, rec.Obj)
			}
		}
		return out
	}
}

// UpdateOrCreate is Update for a PUT: where the strategy allows it (AllowCreateOnUpdate), a
// missing object is created instead, whatever resourceVersion the body names, and created
// says so (201).
func (s *Store) UpdateOrCreate(ctx context.Context, res *Resource, ns string, obj *api.Unstructured, uo UpdateOptions) (rec *storage.Record, created bool, err error) {
	rec, err = s.Update(ctx, res, ns, obj, uo)
	if err == nil || uo.Subresource != "" || !api.IsNotFound(err) || !res.Strategy.AllowCreateOnUpdate() {
		return rec, false, err
	}
	obj.SetResourceVersion("")
	rec, err = s.Create(ctx, res, ns, obj, uo.DryRun)
	return rec, err == nil, err
}

package registry

import (
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiregistration"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// syncCRDAPIServices is what kube-apiserver's crd-autoregister and autoregister controllers
// do for the group of a CRD just written or deleted, done inside that write: each version
// some CRD of the group serves has its APIService (version.group, priorities 1000 and 100,
// labelled automanaged=true), and an automanaged one whose version no CRD serves any more
// goes. An APIService of the same name that someone else made is left alone.
func (s *Store) syncCRDAPIServices(tx *storage.Tx, crd *api.Unstructured) {
	t := s.Table
	services, crds := t.Get(apiregistration.Group, "apiservices"), t.Get(apiextensions.Group, "customresourcedefinitions")
	if services == nil || crds == nil {
		return
	}
	group := apiextensions.ReadSpec(crd).Group
	var served []string
	for _, key := range tx.Keys(crds.Coll) {
		spec := apiextensions.ReadSpec(tx.Get(crds.Coll, key).Obj)
		if spec.Group != group {
			continue
		}
		for _, v := range spec.Versions {
			if v.Served && !slices.Contains(served, v.Name) {
				served = append(served, v.Name)
			}
		}
	}
	now := s.Now()
	for _, tree := range apiregistration.ForCRD(group, served, now.Time) {
		obj := &api.Unstructured{Object: tree}
		key := storage.ObjectKey("", obj.GetName())
		if tx.Get(services.Coll, key) != nil {
			continue
		}
		obj.SetUID(newUID())
		obj.SetCreationTimestamp(now)
		tx.Create(services.Coll, key, obj)
	}
	for _, key := range slices.Clone(tx.Keys(services.Coll)) {
		rec := tx.Get(services.Coll, key)
		spec, _ := rec.Obj.Object["spec"].(map[string]any)
		g, _ := spec["group"].(string)
		v, _ := spec["version"].(string)
		if g == group && apiregistration.IsCRDManaged(rec.Obj) && !slices.Contains(served, v) {
			tx.Remove(services.Coll, rec, rec.Obj.DeepCopy())
		}
	}
}

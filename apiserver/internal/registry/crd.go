package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// What the controllers of k8s.io/apiextensions-apiserver do, done at once inside the CRD's
// own write: a valid CRD is created with NamesAccepted and Established already True and its
// resource registered (crdHandler, NamingConditionController, EstablishingController); an
// update swaps the schema, columns and scale paths its objects are served with; a delete
// removes every object of the resource (each a DELETED event), ends its watches after those
// events and takes it out of the table (crdFinalizer).

// admitCRD refuses a new CRD whose resource is already served in its group by something
// else than a CRD, and one with no served version.
func (t *Table) admitCRD(obj *api.Unstructured) error {
	spec := apiextensions.ReadSpec(obj)
	crdKind := api.GroupKind{Group: apiextensions.Group, Kind: "CustomResourceDefinition"}
	if r := t.Get(spec.Group, spec.Names.Plural); r != nil && r.CRDName != obj.GetName() {
		by := "the built-in resource"
		if !r.Builtin {
			by = "the resource registered with Register,"
		}
		return api.NewInvalid(crdKind, obj.GetName(), []api.StatusCause{
			validation.Invalid("spec.names.plural", spec.Names.Plural, fmt.Sprintf("is already served by %s %s: this simulator refuses a CRD it would shadow", by, r.Info.GroupResource()))})
	}
	if apiextensions.ServedVersion(spec) < 0 {
		return api.NewInvalid(crdKind, obj.GetName(), []api.StatusCause{
			validation.InvalidRaw("spec.versions", "[]apiextensions.CustomResourceDefinitionVersion{…}", "this simulator needs at least one served version")})
	}
	return nil
}

// customResource is the Resource a CRD registers, for its version i.
func customResource(obj *api.Unstructured, spec apiextensions.Spec, i int) *Resource {
	v := spec.Versions[i]
	r := &Resource{
		Info: ResourceInfo{
			Group: spec.Group, Version: v.Name, Resource: spec.Names.Plural, Kind: spec.Names.Kind,
			ListKind: spec.Names.ListKind, Namespaced: spec.Scope == "Namespaced",
			ShortNames: slices.Clone(spec.Names.ShortNames), Categories: slices.Clone(spec.Names.Categories),
			SingularName:        spec.Names.Singular,
			ReturnDeletedObject: true,
		},
		CRDName: obj.GetName(),
	}
	status := v.Subresources != nil && v.Subresources.Status != nil
	scale := v.Subresources != nil && v.Subresources.Scale != nil
	r.Strategy = apiextensions.NewCustomResourceStrategy(r.Info.Namespaced, status, scale, &r.CRD)
	return r
}

// serveCRD registers the resource of a CRD just stored, or, for a CRD already served, swaps
// in its new schema, columns and scale paths.
func (t *Table) serveCRD(obj *api.Unstructured) {
	spec := apiextensions.ReadSpec(obj)
	i := apiextensions.ServedVersion(spec)
	if i < 0 {
		return
	}
	r := t.Get(spec.Group, spec.Names.Plural)
	if r == nil {
		var err error
		if r, err = t.add(customResource(obj, spec, i)); err != nil {
			return // admitCRD has ruled this out
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if r.CRDName == obj.GetName() && r.Info.Version == spec.Versions[i].Name {
		r.CRD.Store(apiextensions.ServingOf(obj, spec, i))
		also := servedAlso(spec, i)
		for gv, list := range t.byGV {
			g, v, _ := strings.Cut(gv, "/")
			if g == r.Info.Group && v != r.Info.Version && slices.Contains(list, r) && !slices.Contains(also, v) {
				t.byGV[gv] = slices.DeleteFunc(slices.Clone(list), func(x *Resource) bool { return x == r })
				if len(t.byGV[gv]) == 0 {
					delete(t.byGV, gv)
				}
			}
		}
		t.addVersionAliases(r, also)
	}
}

// servedAlso returns the served versions of a CRD other than the one its resource is stored
// at.
func servedAlso(spec apiextensions.Spec, stored int) []string {
	var out []string
	for i, v := range spec.Versions {
		if v.Served && i != stored {
			out = append(out, v.Name)
		}
	}
	return out
}

// dropCRD is the CRD finalizer and the end of its handler, inside the CRD's delete: the
// APIServices of versions no other CRD serves go; every object goes, each with a DELETED
// event; then the resource's watches end and it leaves the table.
func (s *Store) dropCRD(tx *storage.Tx, obj *api.Unstructured) {
	s.syncCRDAPIServices(tx, obj)
	spec := apiextensions.ReadSpec(obj)
	t := s.Table
	r := t.Get(spec.Group, spec.Names.Plural)
	if r == nil || r.CRDName != obj.GetName() {
		return
	}
	namespaces := map[string]bool{}
	for _, key := range slices.Clone(tx.Keys(r.Coll)) {
		if rec := tx.Get(r.Coll, key); rec != nil {
			tx.Remove(r.Coll, rec, rec.Obj.DeepCopy())
			namespaces[rec.Namespace()] = true
		}
	}
	tx.StopWatches(r.Coll)
	t.mu.Lock()
	delete(t.resources, spec.Group+"/"+spec.Names.Plural)
	t.removeFromGVs(r)
	t.mu.Unlock()
	for ns := range namespaces {
		if ns != "" {
			s.maybeFinishNamespace(tx, ns)
		}
	}
}

package registry

import (
	"context"
	"net"
	"slices"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// What the controllers and the handler of k8s.io/apiextensions-apiserver do around a CRD's
// writes, done at once inside the write's transaction, each controller's status change a
// write of its own (a MODIFIED event each):
//
//   - after a create or update: the NamingConditionController (acceptedNames,
//     NamesAccepted, Established False "Installing"), the EstablishingController
//     (Established True) and the API approval condition controller; then the resource is
//     served (crdHandler) with every served version, or swapped to the CRD's new state.
//     The answer to the write is the object as written, before the controllers' changes,
//     as on the real server (its read-back already shows them here; there it races them).
//   - a delete marks the CRD (deletionTimestamp, the customresourcecleanup finalizer, the
//     Terminating condition) and answers with it. The resource stays served for reads and
//     deletes, a create is refused (403), and discovery lists only those verbs. The
//     CRDFinalizer, a goroutine of the server (crd_finalizer.go), then deletes every custom
//     object in a transaction of its own (a DELETED event each, waiting for the watchers),
//     waits for those finalizers hold, and removes its finalizer, which deletes the CRD;
//     in that write the resource's watches end and it leaves the table and discovery.
//
// A CRD whose plural a built-in (or Register-ed) resource of its group already serves is
// accepted and established, and stays shadowed, as on the real server.

// crdWritten runs the CRD controllers after a write of the CRD in rec and serves what the
// CRD says.
func (s *Store) crdWritten(tx *storage.Tx, res *Resource, rec *storage.Record) {
	now := s.Now()
	others := func() []*api.Unstructured {
		var out []*api.Unstructured
		for _, k := range tx.Keys(res.Coll) {
			if r := tx.Get(res.Coll, k); r != nil {
				out = append(out, r.Obj)
			}
		}
		return out
	}
	cur := rec
	step := func(next *api.Unstructured) {
		if next != nil {
			cur = tx.Put(res.Coll, cur, next)
		}
	}
	if cur.Obj.GetDeletionTimestamp() == nil {
		step(apiextensions.NamingStatus(cur.Obj, others(), now))
		step(apiextensions.EstablishedStatus(cur.Obj, now))
		step(apiextensions.ApprovalStatus(cur.Obj, now))
	}
	s.Table.serveCRD(cur.Obj)
}

// customResource is the Resource a CRD registers.
func customResource(obj *api.Unstructured, cs *apiextensions.Serving) *Resource {
	spec := cs.Spec
	home := cs.Versions[cs.Home]
	r := &Resource{
		Info: ResourceInfo{
			Group: spec.Group, Version: cs.Home, Resource: spec.Names.Plural, Kind: spec.Names.Kind,
			ListKind: spec.Names.ListKind, Namespaced: spec.Scope == "Namespaced",
			ShortNames: slices.Clone(spec.Names.ShortNames), Categories: slices.Clone(spec.Names.Categories),
			SingularName:        spec.Names.Singular,
			ReturnDeletedObject: true,
		},
		CRDName: obj.GetName(),
	}
	r.Terminating.Store(apiextensions.IsTerminating(obj))
	r.Strategy = apiextensions.NewCustomResourceStrategy(r.Info.Namespaced, home.HasStatus, home.HasScale, &r.CRD)
	r.CRD.Store(cs)
	return r
}

// serveCRD registers the resource of a CRD, or replaces it by one built from the CRD's new
// state (sharing its collection, so objects and watches carry on), or stops serving it
// when none of its versions is served or its names are not accepted.
func (t *Table) serveCRD(obj *api.Unstructured) {
	spec := apiextensions.ReadSpec(obj)
	cur := t.Get(spec.Group, spec.Names.Plural)
	if cur != nil && cur.CRDName != obj.GetName() {
		return // shadowed by a resource that is not this CRD's
	}
	if cur != nil {
		// The handler reads the condition on each request: a create is refused while it holds.
		cur.Terminating.Store(apiextensions.IsTerminating(obj))
	}
	if apiextensions.HomeVersion(spec) < 0 || !apiextensions.Serves(obj) || obj.GetDeletionTimestamp() != nil {
		if cur != nil && obj.GetDeletionTimestamp() == nil {
			t.unserve(cur)
		}
		return
	}
	cs := apiextensions.ServingOfLogged(obj, t.Log)
	cs.Converter.Resolve = t.resolveService
	next := customResource(obj, cs)
	var also []string
	for _, v := range spec.Versions {
		if v.Served && v.Name != cs.Home {
			also = append(also, v.Name)
		}
	}
	if cur == nil {
		if _, err := t.add(next); err != nil {
			return
		}
		t.mu.Lock()
		t.addVersionAliases(next, also)
		t.mu.Unlock()
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	next.Coll = cur.Coll
	t.resources[spec.Group+"/"+spec.Names.Plural] = next
	t.removeFromGVs(cur)
	gv := next.Info.Group + "/" + next.Info.Version
	t.byGV[gv] = append(t.byGV[gv], next)
	t.addVersionAliases(next, also)
}

// resolveService is where a conversion webhook's service reference is dialled, as the
// cluster-IP service resolver of kube-apiserver resolves an ExternalName Service: a Service
// of that name of type ExternalName is its externalName at the port; any other (the
// simulator runs no service network) is <name>.<namespace>.svc at the port, through the
// host's resolver, so that an /etc/hosts entry or a local DNS can point it at a webhook.
func (t *Table) resolveService(namespace, name string, port int32) string {
	host := name + "." + namespace + ".svc"
	if r := t.Get("", "services"); r != nil {
		rec, _ := t.store.Get(context.Background(), r.Coll, storage.ObjectKey(namespace, name), storage.GetOptions{})
		if rec != nil {
			if typ, _, _ := api.NestedString(rec.Obj.Object, "spec", "type"); typ == "ExternalName" {
				if ext, _, _ := api.NestedString(rec.Obj.Object, "spec", "externalName"); ext != "" {
					host = ext
				}
			}
		}
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// unserve takes a custom resource out of the table, keeping its objects in storage.
func (t *Table) unserve(r *Resource) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.resources, r.Info.Group+"/"+r.Info.Resource)
	t.removeFromGVs(r)
}

const cleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// deleteCRD mirrors the CRD REST storage's Delete on its first call: the CRD is marked
// (deletionTimestamp, the cleanup finalizer, Terminating "InstanceDeletionPending"), which is
// the answer, and the CRD finalizer (crd_finalizer.go) is woken to delete its objects in
// the background. A later DELETE goes through the generic store (removeIn).
func (s *Store) deleteCRD(tx *storage.Tx, res *Resource, old *storage.Record, dryRun bool) DeleteResult {
	now := s.Now()
	obj := old.Obj.DeepCopy()
	obj.SetDeletionTimestamp(&now)
	if !slices.Contains(obj.GetFinalizers(), cleanupFinalizer) {
		obj.SetFinalizers(append(obj.GetFinalizers(), cleanupFinalizer))
	}
	apiextensions.SetTerminating(obj, "True", "InstanceDeletionPending", "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon", now)
	if dryRun {
		return DeleteResult{Rec: s.Storage.NewRecord(obj, old.Key, old.RV)}
	}
	marked := tx.Put(res.Coll, old, obj)
	s.afterWrite(tx, res, marked, watch.Modified)
	s.kickCRDFinalizer()
	return DeleteResult{Rec: marked}
}

// dropCRD is the end of a CRD's handler, inside the write that deleted the CRD: the
// resource's watches end and it leaves the table. The CRD finalizer has deleted its objects
// by then; when the CRD went some other way (its cleanup finalizer removed by hand), what
// is left goes here, each with a DELETED event.
func (s *Store) dropCRD(tx *storage.Tx, obj *api.Unstructured) {
	spec := apiextensions.ReadSpec(obj)
	t := s.Table
	r := t.Get(spec.Group, spec.Names.Plural)
	if r == nil || r.CRDName != obj.GetName() {
		return
	}
	namespaces := map[string]bool{}
	// Each DELETED waits for room in the watchers' queues (YieldToWatchers lets go of the
	// lock meanwhile), so a reading watcher gets every one. An object created while the
	// lock was let go is deleted by the next round.
	for keys := tx.Keys(r.Coll); len(keys) > 0; keys = tx.Keys(r.Coll) {
		for _, key := range slices.Clone(keys) {
			if rec := tx.Get(r.Coll, key); rec != nil {
				tx.Remove(r.Coll, rec, rec.Obj.DeepCopy())
				namespaces[rec.Namespace()] = true
				tx.YieldToWatchers(context.Background(), r.Coll)
			}
		}
	}
	tx.StopWatches(r.Coll)
	t.unserve(r)
	for ns := range namespaces {
		if ns != "" {
			s.maybeFinishNamespace(tx, ns)
		}
	}
}

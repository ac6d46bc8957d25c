package garbagecollector

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// objectReference mirrors objectReference of pkg/controller/garbagecollector/graph.go: an
// owner reference's coordinates plus the namespace, enough to GET the object.
type objectReference struct {
	APIVersion string
	Kind       string
	Name       string
	UID        string
	Namespace  string
}

// String mirrors objectReference.String of graph.go.
func (r objectReference) String() string {
	return fmt.Sprintf("[%s/%s, namespace: %s, name: %s, uid: %s]", r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID)
}

// node mirrors node of graph.go: one object of the ownerReferences graph. A virtual node
// stands for an owner some dependent names but no informer has shown yet.
type node struct {
	identity objectReference
	// dependents are the nodes whose ownerReferences name this one.
	dependents map[*node]struct{}
	// owners are the object's ownerReferences as last observed.
	owners []api.OwnerReference
	// beingDeleted: the object has a deletionTimestamp.
	beingDeleted bool
	// deletingDependents: being deleted with the foregroundDeletion finalizer.
	deletingDependents bool
	// virtual: not observed by an informer yet.
	virtual bool
}

// blockingDependents mirrors node.blockingDependents: the dependents whose reference to n
// has blockOwnerDeletion set, which a foreground deletion of n waits for.
func (n *node) blockingDependents() []*node {
	var out []*node
	for dep := range n.dependents {
		for _, r := range dep.owners {
			if r.UID == n.identity.UID && r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion {
				out = append(out, dep)
			}
		}
	}
	return out
}

// graph mirrors concurrentUIDToNode: every node by UID. The builder's lock guards it.
type graph struct {
	uidToNode map[string]*node
}

// insertNode mirrors GraphBuilder.insertNode: n joins the graph and each owner's dependents.
func (g *graph) insertNode(n *node) linked {
	g.uidToNode[n.identity.UID] = n
	return g.addDependentToOwners(n, n.owners)
}

// linked is what adding a dependent to its owners found: owners not seen yet, which become
// virtual nodes for attemptToDelete to verify with a live GET; whether a reference may be
// wrong (the dependent is then verified too); and the references to a namespaced owner
// observed in another namespace, which upstream reports with an event.
type linked struct {
	virtualOwners  []*node
	verify         bool
	wrongNamespace []api.OwnerReference
}

// addDependentToOwners mirrors GraphBuilder.addDependentToOwners.
func (g *graph) addDependentToOwners(n *node, owners []api.OwnerReference) linked {
	var l linked
	for _, r := range owners {
		o, ok := g.uidToNode[r.UID]
		if !ok {
			o = &node{
				identity:   objectReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: r.UID, Namespace: n.identity.Namespace},
				dependents: map[*node]struct{}{},
				virtual:    true,
			}
			g.uidToNode[r.UID] = o
			l.virtualOwners = append(l.virtualOwners, o)
		}
		o.dependents[n] = struct{}{}
		if !ok || l.verify {
			continue
		}
		switch namespaced := o.identity.Namespace != ""; {
		case namespaced && o.identity.Namespace != n.identity.Namespace:
			// An owner is looked for in its dependent's namespace; one observed in
			// another is definitely wrong, a virtual one may be.
			if !o.virtual {
				l.wrongNamespace = append(l.wrongNamespace, r)
			}
			l.verify = true
		case o.identity.APIVersion != r.APIVersion || o.identity.Kind != r.Kind || o.identity.Name != r.Name:
			l.verify = true
		case !namespaced && o.identity.Namespace != n.identity.Namespace && o.virtual:
			// A virtual cluster-scoped owner may be a namespaced one a cluster-scoped
			// dependent names by mistake.
			l.verify = true
		}
	}
	return l
}

// removeNode mirrors GraphBuilder.removeNode: n leaves the graph and its owners' dependents.
func (g *graph) removeNode(n *node) {
	delete(g.uidToNode, n.identity.UID)
	g.removeDependentFromOwners(n, n.owners)
}

func (g *graph) removeDependentFromOwners(n *node, owners []api.OwnerReference) {
	for _, r := range owners {
		if o, ok := g.uidToNode[r.UID]; ok {
			delete(o.dependents, n)
		}
	}
}

// referencesDiffs mirrors referencesDiffs of graph_builder.go: the owner references added,
// removed, and those whose blockOwnerDeletion went from true to false (the owner may stop
// waiting).
func referencesDiffs(old, cur []api.OwnerReference) (added, removed, unblocked []api.OwnerReference) {
	oldByUID := map[string]api.OwnerReference{}
	for _, r := range old {
		oldByUID[r.UID] = r
	}
	curUIDs := map[string]bool{}
	for _, r := range cur {
		curUIDs[r.UID] = true
		o, ok := oldByUID[r.UID]
		switch {
		case !ok:
			added = append(added, r)
		case blocks(o) && !blocks(r):
			unblocked = append(unblocked, r)
		}
	}
	for _, r := range old {
		if !curUIDs[r.UID] {
			removed = append(removed, r)
		}
	}
	return added, removed, unblocked
}

func blocks(r api.OwnerReference) bool { return r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion }

func hasFinalizer(u *api.Unstructured, f string) bool {
	for _, x := range u.GetFinalizers() {
		if x == f {
			return true
		}
	}
	return false
}

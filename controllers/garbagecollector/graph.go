package garbagecollector

import (
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

func (r objectReference) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name + " (" + r.UID + ")"
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name + " (" + r.UID + ")"
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

// insertNode mirrors GraphBuilder.insertNode: n joins the graph and each owner's dependents;
// an owner not seen yet becomes a virtual node, returned so the caller can have it checked
// (attemptToDelete verifies it with a live GET).
func (g *graph) insertNode(n *node) (virtualOwners []*node) {
	g.uidToNode[n.identity.UID] = n
	return g.addDependentToOwners(n, n.owners)
}

func (g *graph) addDependentToOwners(n *node, owners []api.OwnerReference) (virtualOwners []*node) {
	for _, r := range owners {
		o, ok := g.uidToNode[r.UID]
		if !ok {
			o = &node{
				identity:   objectReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: r.UID, Namespace: n.identity.Namespace},
				dependents: map[*node]struct{}{},
				virtual:    true,
			}
			g.uidToNode[r.UID] = o
			virtualOwners = append(virtualOwners, o)
		}
		o.dependents[n] = struct{}{}
	}
	return virtualOwners
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

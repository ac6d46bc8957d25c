package garbagecollector

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
)

func ref(uid string, block bool) api.OwnerReference {
	return api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: uid, UID: uid, BlockOwnerDeletion: &block}
}

func uids(refs []api.OwnerReference) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, r.UID)
	}
	return out
}

// TestCh14_GC_ReferencesDiffs: which owners an update adds, removes, or stops blocking.
func TestCh14_GC_ReferencesDiffs(t *testing.T) {
	cases := []struct {
		name                      string
		old, cur                  []api.OwnerReference
		added, removed, unblocked []string
	}{
		{"none", nil, nil, []string{}, []string{}, []string{}},
		{"added", nil, []api.OwnerReference{ref("a", true)}, []string{"a"}, []string{}, []string{}},
		{"removed", []api.OwnerReference{ref("a", true), ref("b", false)}, []api.OwnerReference{ref("b", false)}, []string{}, []string{"a"}, []string{}},
		{"unblocked", []api.OwnerReference{ref("a", true)}, []api.OwnerReference{ref("a", false)}, []string{}, []string{}, []string{"a"}},
		{"blocked again is no change", []api.OwnerReference{ref("a", false)}, []api.OwnerReference{ref("a", true)}, []string{}, []string{}, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, r, u := referencesDiffs(tc.old, tc.cur)
			assert.Empty(t, cmp.Diff(tc.added, uids(a)))
			assert.Empty(t, cmp.Diff(tc.removed, uids(r)))
			assert.Empty(t, cmp.Diff(tc.unblocked, uids(u)))
		})
	}
}

// TestCh14_GC_StartsWaiting: the transitions that send an owner to attemptToOrphan or mark
// it deleting its dependents.
func TestCh14_GC_StartsWaiting(t *testing.T) {
	now := api.Now()
	obj := func(deleting bool, fins ...string) *api.Unstructured {
		u := &api.Unstructured{Object: map[string]any{"metadata": map[string]any{}}}
		if deleting {
			u.SetDeletionTimestamp(&now)
		}
		u.SetFinalizers(fins)
		return u
	}
	cases := []struct {
		name     string
		old, cur *api.Unstructured
		want     bool
	}{
		{"first seen deleting", nil, obj(true, api.FinalizerOrphanDependents), true},
		{"marked now", obj(false), obj(true, api.FinalizerOrphanDependents), true},
		{"finalizer switched to it", obj(true, api.FinalizerDeleteDependents), obj(true, api.FinalizerOrphanDependents), true},
		{"already waiting", obj(true, api.FinalizerOrphanDependents), obj(true, api.FinalizerOrphanDependents), false},
		{"not deleting", nil, obj(false, api.FinalizerOrphanDependents), false},
		{"other finalizer", nil, obj(true, "example.com/x"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, startsWaiting(tc.old, tc.cur, api.FinalizerOrphanDependents))
		})
	}
}

// TestCh14_GC_GraphNodes: inserting a dependent makes a virtual node of an unseen owner; a
// foreground owner is blocked only by dependents whose reference blocks it; removing the
// dependent frees the owner.
func TestCh14_GC_GraphNodes(t *testing.T) {
	g := graph{uidToNode: map[string]*node{}}
	dep := &node{identity: objectReference{Kind: "ConfigMap", Name: "d", UID: "d", Namespace: "ns"}, dependents: map[*node]struct{}{},
		owners: []api.OwnerReference{ref("o", true), ref("p", false)}}
	l := g.insertNode(dep)
	assert.Len(t, l.virtualOwners, 2)
	assert.False(t, l.verify)
	o := g.uidToNode["o"]
	assert.True(t, o.virtual)
	assert.Equal(t, "ns", o.identity.Namespace, "a virtual owner is looked for in its dependent's namespace")
	assert.Equal(t, []*node{dep}, o.blockingDependents())
	assert.Empty(t, g.uidToNode["p"].blockingDependents())
	g.removeNode(dep)
	assert.Empty(t, o.dependents)
	assert.NotContains(t, g.uidToNode, "d")
}

// TestCh14_GC_SuspectReferences: a dependent whose reference may be wrong is verified; one
// naming a namespaced owner observed in another namespace is reported too.
func TestCh14_GC_SuspectReferences(t *testing.T) {
	observed := func(ns string) *node {
		return &node{identity: objectReference{APIVersion: "v1", Kind: "ConfigMap", Name: "o", UID: "o", Namespace: ns}, dependents: map[*node]struct{}{}}
	}
	cases := []struct {
		name     string
		owner    *node
		depNS    string
		ref      api.OwnerReference
		verify   bool
		reported bool
	}{
		{"same namespace", observed("a"), "a", ref("o", true), false, false},
		{"other namespace", observed("a"), "b", ref("o", true), true, true},
		{"cluster-scoped owner", observed(""), "b", ref("o", true), false, false},
		{"other coordinates", observed("a"), "a", api.OwnerReference{APIVersion: "v1", Kind: "Secret", Name: "o", UID: "o"}, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := graph{uidToNode: map[string]*node{"o": tc.owner}}
			dep := &node{identity: objectReference{Kind: "ConfigMap", Name: "d", UID: "d", Namespace: tc.depNS}, dependents: map[*node]struct{}{},
				owners: []api.OwnerReference{tc.ref}}
			l := g.insertNode(dep)
			assert.Empty(t, l.virtualOwners)
			assert.Equal(t, tc.verify, l.verify)
			assert.Equal(t, tc.reported, len(l.wrongNamespace) == 1)
		})
	}
}

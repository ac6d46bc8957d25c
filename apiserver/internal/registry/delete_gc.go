package registry

import (
	"slices"

	"github.com/informer-lab/informer-lab/api"
)

// gcPolicy mirrors rest.GarbageCollectionPolicy: what a delete with no propagation policy
// does to the object's dependents.
type gcPolicy int

const (
	gcDeleteDependents gcPolicy = iota // background: delete at once, the collector follows
	gcOrphanDependents                 // the orphan finalizer by default
	gcUnsupported                      // no finalizer ever (events)
)

// defaultGCPolicy mirrors the DefaultGarbageCollectionPolicy of the kinds' strategies: the
// v1 ReplicationController and the batch/v1 Job orphan by default for backward
// compatibility, events take no part, every other kind deletes its dependents.
func defaultGCPolicy(res *Resource) gcPolicy {
	if !res.Builtin {
		return gcDeleteDependents
	}
	switch g, k := res.Info.Group, res.Info.Kind; {
	case k == "Event" && (g == "" || g == "events.k8s.io"):
		return gcUnsupported
	case g == "" && k == "ReplicationController", g == "batch" && k == "Job":
		return gcOrphanDependents
	}
	return gcDeleteDependents
}

// shouldOrphanDependents mirrors the function of that name in k8s.io/apiserver
// pkg/registry/generic/registry/store.go: the options decide first, then a finalizer the
// object already has, then the kind's default.
func shouldOrphanDependents(res *Resource, obj *api.Unstructured, opts api.DeleteOptions) bool {
	def := defaultGCPolicy(res)
	if def == gcUnsupported {
		return false
	}
	if opts.OrphanDependents != nil {
		return *opts.OrphanDependents
	}
	if p := opts.PropagationPolicy; p != nil {
		switch *p {
		case api.DeletePropagationOrphan:
			return true
		case api.DeletePropagationBackground, api.DeletePropagationForeground:
			return false
		}
	}
	for _, f := range obj.GetFinalizers() {
		switch f {
		case api.FinalizerOrphanDependents:
			return true
		case api.FinalizerDeleteDependents:
			return false
		}
	}
	return def == gcOrphanDependents
}

// shouldDeleteDependents mirrors the function of that name in store.go: Foreground asked
// for, or a foregroundDeletion finalizer already there when the options say nothing.
func shouldDeleteDependents(res *Resource, obj *api.Unstructured, opts api.DeleteOptions) bool {
	if defaultGCPolicy(res) == gcUnsupported || opts.OrphanDependents != nil {
		return false
	}
	if p := opts.PropagationPolicy; p != nil {
		return *p == api.DeletePropagationForeground
	}
	return slices.Contains(obj.GetFinalizers(), api.FinalizerDeleteDependents)
}

// deletionFinalizers mirrors deletionFinalizersForGarbageCollection: the object's
// finalizers with orphan and foregroundDeletion set as the delete asks, and whether that
// changes the set.
func deletionFinalizers(res *Resource, obj *api.Unstructured, opts api.DeleteOptions) ([]string, bool) {
	old := obj.GetFinalizers()
	out := slices.DeleteFunc(slices.Clone(old), func(f string) bool {
		return f == api.FinalizerOrphanDependents || f == api.FinalizerDeleteDependents
	})
	if shouldOrphanDependents(res, obj, opts) {
		out = append(out, api.FinalizerOrphanDependents)
	}
	if shouldDeleteDependents(res, obj, opts) {
		out = append(out, api.FinalizerDeleteDependents)
	}
	if sameSet(old, out) {
		return old, false
	}
	return out, true
}

func sameSet(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

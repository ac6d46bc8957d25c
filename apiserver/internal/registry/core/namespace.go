package core

import (
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// namespaceStrategy mirrors pkg/registry/core/namespace/strategy.go, with its finalize
// strategy. The lifecycle beyond it (deletion empties the namespace, then it goes) is the
// registry's and the NamespaceLifecycle admission plugin's.
type namespaceStrategy struct{ rest.Base }

// PrepareForCreate implements rest.Strategy.
func (namespaceStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	prepareForCreate(obj)
}

// PrepareForUpdate implements rest.Strategy.
func (s namespaceStrategy) PrepareForUpdate(ctx rest.Context, obj, old *api.Unstructured) {
	s.Base.PrepareForUpdate(ctx, obj, old)
	prepareForUpdate(obj, old)
}

// ValidateUpdate implements rest.Strategy: the phase follows the deletionTimestamp.
func (namespaceStrategy) ValidateUpdate(obj, _ *api.Unstructured) []api.StatusCause {
	return phaseCauses(obj)
}

// PrepareForFinalize implements rest.FinalizeStrategy.
func (namespaceStrategy) PrepareForFinalize(obj, old *api.Unstructured) *api.Unstructured {
	return withFinalizersOf(old, obj)
}

// Namespaces is the namespaces resource, whose REST hides the collection DELETE.
func Namespaces() rest.Kind {
	return rest.Kind{Resource: "namespaces", Kind: "Namespace", ShortNames: []string{"ns"}, ReturnDeletedObject: true, NoCollectionDelete: true,
		Fields:   map[string]rest.FieldRead{"status.phase": rest.TextField("status.phase")},
		Strategy: namespaceStrategy{rest.Base{GVK: gvk("Namespace"), Cluster: true, Status: true, Unconditional: true}}}
}

func finalizerList(ns *api.Unstructured) []any {
	l, _ := child(ns.Object, "spec")["finalizers"].([]any)
	return l
}

// prepareForCreate mirrors the namespace strategy's PrepareForCreate: the phase is
// Active and the spec finalizer "kubernetes" is always there, so the namespace controller
// decides when the namespace may go.
func prepareForCreate(ns *api.Unstructured) {
	ns.Object["status"] = map[string]any{"phase": string(api.NamespaceActive)}
	fin := SpecFinalizers(ns)
	if !slices.Contains(fin, api.FinalizerKubernetes) {
		SetSpecFinalizers(ns, append(fin, api.FinalizerKubernetes))
	}
}

// prepareForUpdate mirrors the namespace strategy's PrepareForUpdate: a write to
// the main resource keeps the stored spec finalizers (only the finalize subresource changes
// them) and, once deletion has begun, the Terminating phase.
func prepareForUpdate(ns, stored *api.Unstructured) {
	SetSpecFinalizers(ns, SpecFinalizers(stored))
	if ns.GetDeletionTimestamp() != nil {
		_ = api.SetNestedField(ns.Object, string(api.NamespaceTerminating), "status", "phase")
	}
}

// withFinalizersOf is the finalize subresource (namespaceFinalizeStrategy): a copy
// of stored with only the spec finalizers of updated.
func withFinalizersOf(stored, updated *api.Unstructured) *api.Unstructured {
	out := stored.DeepCopy()
	SetSpecFinalizers(out, SpecFinalizers(updated))
	return out
}

// SpecFinalizers reads a namespace's spec.finalizers.
func SpecFinalizers(ns *api.Unstructured) []string {
	list := finalizerList(ns)
	out := make([]string, 0, len(list))
	for _, f := range list {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// SetSpecFinalizers writes spec.finalizers, removing the member when there are none.
func SetSpecFinalizers(ns *api.Unstructured, fin []string) {
	if len(fin) == 0 {
		if spec, ok := ns.Object["spec"].(map[string]any); ok {
			delete(spec, "finalizers")
		}
		return
	}
	list := make([]any, len(fin))
	for i, f := range fin {
		list[i] = f
	}
	_ = api.SetNestedField(ns.Object, list, "spec", "finalizers")
}

// Phase reads status.phase.
func Phase(ns *api.Unstructured) api.NamespacePhase {
	p, _, _ := api.NestedString(ns.Object, "status", "phase")
	return api.NamespacePhase(p)
}

// phaseCauses mirrors ValidateNamespaceStatusUpdate: the phase follows the
// deletionTimestamp, so no status write can bring a Terminating namespace back to Active.
func phaseCauses(ns *api.Unstructured) []api.StatusCause {
	phase := Phase(ns)
	switch {
	case ns.GetDeletionTimestamp() == nil && phase != api.NamespaceActive:
		return []api.StatusCause{validation.Invalid("status.Phase", string(phase), "may only be 'Active' if `deletionTimestamp` is empty")}
	case ns.GetDeletionTimestamp() != nil && phase != api.NamespaceTerminating:
		return []api.StatusCause{validation.Invalid("status.Phase", string(phase), "may only be 'Terminating' if `deletionTimestamp` is not empty")}
	}
	return nil
}

// NameIsDNSLabel implements rest.DNSLabelNamer: a namespace's name is a DNS label.
func (namespaceStrategy) NameIsDNSLabel() bool { return true }

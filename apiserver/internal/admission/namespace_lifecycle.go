package admission

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// NamespaceLifecycle mirrors the NamespaceLifecycle plugin of
// plugin/pkg/admission/namespace/lifecycle: no content in a namespace that does not exist or
// is being terminated. Here it acts on creates, where a real server would find the
// namespace through its informer.
type NamespaceLifecycle struct{}

// Name implements Interface.
func (NamespaceLifecycle) Name() string { return "NamespaceLifecycle" }

// Handles implements Interface.
func (NamespaceLifecycle) Handles(op Operation) bool { return op == Create }

// Admit implements MutationInterface: it mutates nothing, and runs in the mutating phase as
// upstream, so its answer comes before any validation error.
// A namespace that cannot be a name is left to validation's message.
func (l NamespaceLifecycle) Admit(_ context.Context, a *Attributes) error {
	if !validation.IsNamespaceName(a.Namespace) {
		return nil
	}
	return l.check(a)
}

// Recheck implements Rechecker.
func (l NamespaceLifecycle) Recheck(_ context.Context, a *Attributes) error { return l.check(a) }

func (NamespaceLifecycle) check(a *Attributes) error {
	if a.Namespace == "" || a.Namespaces == nil {
		return nil
	}
	ns := a.Namespaces(a.Namespace)
	if ns == nil {
		return api.NewNotFound(api.GroupResource{Resource: "namespaces"}, a.Namespace)
	}
	if phase, _, _ := api.NestedString(ns.Object, "status", "phase"); phase == string(api.NamespaceTerminating) || ns.GetDeletionTimestamp() != nil {
		st := api.NewForbidden(a.Resource, a.Name, fmt.Errorf(
			"unable to create new content in namespace %s because it is being terminated", a.Namespace))
		st.Details.Causes = []api.StatusCause{{
			Type:    api.NamespaceTerminatingCause,
			Message: fmt.Sprintf("namespace %s is being terminated", a.Namespace),
			Field:   "metadata.namespace",
		}}
		return st
	}
	return nil
}

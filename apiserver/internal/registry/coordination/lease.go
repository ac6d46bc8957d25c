package coordination

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Leases is the leases resource.
func Leases() rest.Kind {
	return rest.Kind{Group: "coordination.k8s.io", Resource: "leases", Kind: "Lease",
		Strategy: leaseStrategy{rest.Base{GVK: api.GroupVersionKind{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"}, Unconditional: true}}}
}

// leaseStrategy mirrors pkg/registry/coordination/lease/strategy.go: ValidateLeaseSpec's
// counts on every write.
type leaseStrategy struct{ rest.Base }

// Validate implements rest.Strategy: ValidateLeaseSpec's duration and transitions, then
// presence.
func (s leaseStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	spec, _ := obj.Object["spec"].(map[string]any)
	var causes []api.StatusCause
	if v, ok := api.AsInt64(spec["leaseDurationSeconds"]); ok && v <= 0 {
		causes = append(causes, validation.Invalid("spec.leaseDurationSeconds", v, "must be greater than 0"))
	}
	causes = append(causes, validation.NonNegative(spec, "leaseTransitions", "spec.leaseTransitions")...)
	return rest.RequiredCauses(s.GVK, obj, causes, "")
}

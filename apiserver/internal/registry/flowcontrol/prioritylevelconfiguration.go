package flowcontrol

import (
	"fmt"
	"math"
	"reflect"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// priorityLevelStrategy mirrors priorityLevelConfigurationStrategy and its status strategy
// of pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go.
type priorityLevelStrategy struct{ rest.Base }

// PriorityLevelConfigurations is the prioritylevelconfigurations resource, with its status
// subresource.
func PriorityLevelConfigurations() rest.Kind {
	return rest.Kind{Group: Group, Resource: "prioritylevelconfigurations", Kind: "PriorityLevelConfiguration", Fields: clusterScopedFields(),
		Bootstrap: BootstrapPriorityLevelConfigurations,
		Strategy: priorityLevelStrategy{rest.Base{GVK: gvk("PriorityLevelConfiguration"), Cluster: true, Status: true, Generation: true,
			Unconditional: true, ResetStatus: rest.EmptyStatus}}}
}

// preserveZeroSharesKey is the annotation only v1beta3 may carry.
const preserveZeroSharesKey = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares"

// maxQueues mirrors priorityLevelConfigurationQueuingMaxQueues; maxHashBits
// shufflesharding.MaxHashBits.
const (
	maxQueues   = 10 * 1000 * 1000
	maxHashBits = 60
)

var (
	enablements        = []string{"Exempt", "Limited"}
	limitResponseTypes = []string{"Queue", "Reject"}
)

// Validate implements rest.Strategy (ValidatePriorityLevelConfiguration).
func (priorityLevelStrategy) Validate(obj *api.Unstructured) []api.StatusCause {
	var causes []api.StatusCause
	if _, ok := obj.GetAnnotations()[preserveZeroSharesKey]; ok {
		causes = append(causes, validation.Forbidden("metadata.annotations", fmt.Sprintf("annotation '%s' is forbidden", preserveZeroSharesKey)))
	}
	spec := child(obj.Object, "spec")
	causes = append(causes, priorityLevelSpecCauses(obj.GetName(), spec)...)
	if want, mandatory := mandatoryPriorityLevelSpec(obj.GetName()); mandatory {
		have, detail := spec, fmt.Sprintf("spec of '%s' must equal the fixed value", obj.GetName())
		if obj.GetName() == "exempt" { // its exempt member may change
			have = shallowWith(spec, "exempt", want["exempt"])
			detail = fmt.Sprintf("spec of '%s' except the 'spec.exempt' field must equal the fixed value", obj.GetName())
		}
		if !reflect.DeepEqual(have, want) {
			causes = append(causes, validation.InvalidRaw("spec", internalText(spec, &internalPriorityLevelSpec{}), detail))
		}
	}
	return append(causes, conditionCauses(obj.Object)...)
}

// shallowWith is a shallow copy of m with key set to v (removed when v is nil).
func shallowWith(m map[string]any, key string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, x := range m {
		out[k] = x
	}
	if v == nil {
		delete(out, key)
	} else {
		out[key] = v
	}
	return out
}

// priorityLevelSpecCauses mirrors ValidatePriorityLevelConfigurationSpec.
func priorityLevelSpecCauses(name string, spec map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	typ := str(spec, "type")
	if (name == "exempt") != (typ == "Exempt") {
		causes = append(causes, validation.Invalid("spec.type", typ, "must be 'Exempt' if and only if `name` is 'exempt'"))
	}
	switch typ {
	case "Exempt":
		if spec["limited"] != nil {
			causes = append(causes, validation.Forbidden("spec.limited", "must be nil if the type is not Limited"))
		}
		if ex := child(spec, "exempt"); ex != nil {
			causes = append(causes, sharesCauses(ex, "spec.exempt")...)
		}
	case "Limited":
		if spec["exempt"] != nil {
			causes = append(causes, validation.Forbidden("spec.exempt", "must be nil if the type is Limited"))
		}
		if lim := child(spec, "limited"); lim == nil {
			causes = append(causes, validation.Required("spec.limited", "must not be empty when type is Limited"))
		} else {
			causes = append(causes, limitedCauses(lim, "spec.limited")...)
		}
	case "":
		causes = append(causes, validation.Required("spec.type", ""))
	default:
		causes = append(causes, validation.NotSupported("spec.type", typ, enablements))
	}
	return causes
}

// sharesCauses mirrors ValidateExemptPriorityLevelConfiguration (and the same two checks of
// a limited one).
func sharesCauses(m map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	if n, ok := integer(m, "nominalConcurrencyShares"); ok && n < 0 {
		causes = append(causes, validation.Invalid(path+".nominalConcurrencyShares", n, "must be a non-negative integer"))
	}
	if p, ok := integer(m, "lendablePercent"); ok && (p < 0 || p > 100) {
		causes = append(causes, validation.Invalid(path+".lendablePercent", p, "must be between 0 and 100, inclusive"))
	}
	return causes
}

// limitedCauses mirrors ValidateLimitedPriorityLevelConfiguration and ValidateLimitResponse.
func limitedCauses(lim map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	if n, ok := integer(lim, "nominalConcurrencyShares"); ok && n < 0 {
		causes = append(causes, validation.Invalid(path+".nominalConcurrencyShares", n, "must be a non-negative integer"))
	}
	lr := child(lim, "limitResponse")
	switch t := str(lr, "type"); t {
	case "Reject":
		if lr["queuing"] != nil {
			causes = append(causes, validation.Forbidden(path+".limitResponse.queuing", "must be nil if limited.limitResponse.type is not Limited"))
		}
	case "Queue":
		if q := child(lr, "queuing"); q == nil {
			causes = append(causes, validation.Required(path+".limitResponse.queuing", "must not be empty if limited.limitResponse.type is Limited"))
		} else {
			causes = append(causes, queuingCauses(q, path+".limitResponse.queuing")...)
		}
	case "":
		causes = append(causes, validation.Required(path+".limitResponse.type", ""))
	default:
		causes = append(causes, validation.NotSupported(path+".limitResponse.type", t, limitResponseTypes))
	}
	if p, ok := integer(lim, "lendablePercent"); ok && (p < 0 || p > 100) {
		causes = append(causes, validation.Invalid(path+".lendablePercent", p, "must be between 0 and 100, inclusive"))
	}
	if b, ok := integer(lim, "borrowingLimitPercent"); ok && b < 0 {
		causes = append(causes, validation.Invalid(path+".borrowingLimitPercent", b, "if specified, must be a non-negative integer"))
	}
	return causes
}

// queuingCauses mirrors ValidatePriorityLevelQueuingConfiguration.
func queuingCauses(q map[string]any, path string) []api.StatusCause {
	var causes []api.StatusCause
	limit, _ := integer(q, "queueLengthLimit")
	queues, _ := integer(q, "queues")
	hand, _ := integer(q, "handSize")
	if limit <= 0 {
		causes = append(causes, validation.Invalid(path+".queueLengthLimit", limit, "must be positive"))
	}
	if queues <= 0 {
		causes = append(causes, validation.Invalid(path+".queues", queues, "must be positive"))
	} else if queues > maxQueues {
		causes = append(causes, validation.Invalid(path+".queues", queues, fmt.Sprintf("must not be greater than %d", maxQueues)))
	}
	switch {
	case hand <= 0:
		causes = append(causes, validation.Invalid(path+".handSize", hand, "must be positive"))
	case hand > queues:
		causes = append(causes, validation.Invalid(path+".handSize", hand, fmt.Sprintf("should not be greater than queues (%d)", queues)))
	case int(math.Ceil(math.Log2(float64(queues))*float64(hand))) > maxHashBits:
		causes = append(causes, validation.Invalid(path+".handSize", hand,
			fmt.Sprintf("required entropy bits of deckSize %d and handSize %d should not be greater than %d", queues, hand, maxHashBits)))
	}
	return causes
}

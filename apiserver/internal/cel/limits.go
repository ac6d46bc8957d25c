package cel

import "fmt"

// Cost limits of Kubernetes' CEL (k8s.io/apiserver/pkg/apis/cel/config.go and
// apiextensions-apiserver's validation).
const (
	// PerCallLimit is the actual cost limit of one evaluation of one rule.
	PerCallLimit = 1000000
	// RuntimeCELCostBudget is the actual cost budget of all rules of one object.
	RuntimeCELCostBudget = 10000000
	// StaticEstimatedCostLimit is the largest estimated cost of one rule, times the most
	// times it can run for one object.
	StaticEstimatedCostLimit = 10000000
	// StaticEstimatedCRDCostLimit is the largest estimated cost of all of a CRD's rules.
	StaticEstimatedCRDCostLimit = 100000000
	// MaxRequestSizeBytes is the request size Kubernetes' estimates assume.
	MaxRequestSizeBytes = maxRequestSizeBytes
)

// CostErrorMessage is apiextensions-apiserver's getCostErrorMessage: "<costName> exceeds
// budget by factor of <f> (try simplifying the rule, or adding maxItems, maxProperties, and
// maxLength where arrays, maps, and strings are declared)".
func CostErrorMessage(costName string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", costName, factor)
}

// MaxCardinality is how many times, at most, a rule on a node whose smallest JSON form is
// minSize bytes can run for one request: apiextensions' maxCardinality.
func MaxCardinality(minSize int64) uint64 {
	return uint64(maxRequestSizeBytes / (minSize + 1))
}

// MinSerializedSize is the smallest JSON encoding of self's type, for MaxCardinality.
func (e *SchemaEnv) MinSerializedSize() int64 { return e.Root.MinSerializedSize }

// MultiplyCost multiplies without overflowing, as apiextensions' multiplyWithOverflowGuard.
func MultiplyCost(cost, n uint64) uint64 {
	if cost == 0 || n == 0 {
		return 0
	}
	if cost > ^uint64(0)/n {
		return ^uint64(0)
	}
	return cost * n
}

package cel

import "math"

// Cost factors of cel-go's common/cost.go.
const (
	stringTraversalCostFactor   = 0.1
	regexStringLengthCostFactor = 0.25
	listCreateBaseCost          = 10
	mapCreateBaseCost           = 30
)

// actualSize is the size a value counts for in the cost of a call: its length for strings,
// bytes, lists and maps, else 1.
func actualSize(v Value) uint64 {
	switch x := v.(type) {
	case string:
		return uint64(len([]rune(x)))
	case Bytes:
		return uint64(len(x))
	case List:
		return uint64(x.Len())
	case Map:
		return uint64(x.Len())
	case Optional:
		if x.Ok {
			return actualSize(x.V)
		}
	case sizer:
		return x.size()
	}
	return 1
}

// sizer is implemented by library values with a size (for cost only).
type sizer interface{ size() uint64 }

func traversal(n uint64, factor float64) uint64 { return uint64(math.Ceil(float64(n) * factor)) }

// callCosts holds the actual-cost functions of overloads that do not cost 1, by function
// name (for library functions) or overload id (for standard ones).
var callCosts = map[string]costFn{}

// callCost returns the actual-cost function of a call, mirroring the Kubernetes
// CostEstimator.CallCost and then cel-go's CostTracker.costCall.
func callCost(name string, cands []*overload) costFn {
	if f, ok := callCosts[name]; ok {
		return f
	}
	ids := map[string]bool{}
	for _, o := range cands {
		ids[o.id] = true
	}
	switch {
	case ids["starts_with_string"], ids["ends_with_string"], ids["string_to_bytes"], ids["bytes_to_string"],
		ids["strings_quote"], ids["string_format"]:
		return func(a []Value, _ Value) uint64 { return traversal(actualSize(a[0]), stringTraversalCostFactor) }
	case name == opIn:
		return func(a []Value, _ Value) uint64 {
			if _, ok := a[1].(List); ok {
				return actualSize(a[1])
			}
			return 1
		}
	case name == opEquals || name == opNotEquals || name == opLess || name == opLessEquals ||
		name == opGreater || name == opGreaterEquals:
		sized := name == opEquals || name == opNotEquals
		return func(a []Value, _ Value) uint64 {
			if name == opEquals {
				if _, lib := a[0].(typed); lib {
					return 1
				}
			}
			if !sized && !isStringOrBytes(a[0]) {
				return 1
			}
			n := actualSize(a[0])
			if m := actualSize(a[1]); m < n {
				n = m
			}
			return traversal(n, stringTraversalCostFactor)
		}
	case name == opAdd:
		return func(a []Value, _ Value) uint64 {
			if isStringOrBytes(a[0]) && isStringOrBytes(a[1]) {
				return traversal(actualSize(a[0])+actualSize(a[1]), stringTraversalCostFactor)
			}
			return 1
		}
	case name == "matches":
		return func(a []Value, _ Value) uint64 {
			return traversal(1+actualSize(a[0]), stringTraversalCostFactor) * traversal(actualSize(a[1]), regexStringLengthCostFactor)
		}
	case name == "contains" && ids["contains_string"]:
		return func(a []Value, _ Value) uint64 {
			return traversal(actualSize(a[0]), stringTraversalCostFactor) * traversal(actualSize(a[1]), stringTraversalCostFactor)
		}
	}
	return nil
}

func isStringOrBytes(v Value) bool {
	switch v.(type) {
	case string, Bytes:
		return true
	}
	return false
}

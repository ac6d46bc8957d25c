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
	if f := libraryCost(name, ids); f != nil {
		return f
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

// libraryCosts are the actual costs Kubernetes' CostEstimator.CallCost gives library
// functions, and the trackers cel-go's ext lists and sets register.
func libraryCost(name string, ids map[string]bool) costFn {
	tf := stringTraversalCostFactor
	ceil := func(n uint64, f float64) uint64 { return traversal(n, f) }
	one := func([]Value, Value) uint64 { return 1 }
	switch name {
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
		if ids["string_index_of_string"] || ids["string_index_of_string_int"] || ids["string_last_index_of_string"] || ids["string_last_index_of_string_int"] {
			if !ids["list_a_index_of_int"] && !ids["list_a_last_index_of_int"] {
				return nil
			}
		}
		return func(a []Value, _ Value) uint64 { return traversalCost(a[0]) }
	case "url", "lowerAscii", "upperAscii", "substring", "trim", "cidr", "isIP", "isCIDR",
		"quantity", "isQuantity", "semver", "isSemver":
		return func(a []Value, _ Value) uint64 { return ceil(actualSize(a[0]), tf) }
	case "replace", "split":
		return func(a []Value, _ Value) uint64 { return ceil(actualSize(a[0]), 2*tf) }
	case "join":
		return func(_ []Value, r Value) uint64 { return ceil(actualSize(r), 2*tf) }
	case "find", "findAll":
		return func(a []Value, _ Value) uint64 {
			return ceil(1+actualSize(a[0]), tf) * ceil(actualSize(a[1]), regexStringLengthCostFactor)
		}
	case "ip":
		return func(a []Value, _ Value) uint64 {
			if _, isCIDR := a[0].(CIDR); isCIDR {
				return 1
			}
			return ceil(actualSize(a[0]), tf)
		}
	case "ip.isCanonical":
		return func(a []Value, _ Value) uint64 { return ceil(actualSize(a[0]), 2*tf) }
	case "containsIP", "containsCIDR":
		return func(a []Value, _ Value) uint64 {
			c := ceil(actualSize(a[0])*2, tf)
			if name == "containsCIDR" {
				c += ceil(actualSize(a[0]), tf) + 1
			}
			if _, isStr := a[1].(string); isStr {
				c += ceil(actualSize(a[1]), tf)
			}
			return c
		}
	case "validate":
		return func(a []Value, _ Value) uint64 {
			f, _ := a[0].(NamedFormat)
			return ceil(1+actualSize(a[1]), tf) * ceil(uint64(f.MaxRegexSize), regexStringLengthCostFactor)
		}
	case "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
		"compareTo", "add", "sub", "major", "minor", "patch",
		"getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery",
		"masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return one
	case "slice", "reverse", "lists.range":
		return func(_ []Value, r Value) uint64 { return actualSize(r) + 1 + listCreateBaseCost }
	case "flatten":
		return func(a []Value, _ Value) uint64 {
			depth := 1.0
			if len(a) == 2 {
				if d, ok := a[1].(int64); ok {
					depth = float64(d)
				}
			}
			return uint64(float64(actualSize(a[0]))*depth) + 1 + listCreateBaseCost
		}
	case "distinct", "sort":
		return func(a []Value, _ Value) uint64 { return selfCompareCost(a[0]) }
	case "@sortByAssociatedKeys":
		return func(a []Value, _ Value) uint64 { return selfCompareCost(a[1]) }
	case "sets.contains", "sets.intersects", "sets.equivalent":
		f := 1.0
		if name == "sets.equivalent" {
			f = 2
		}
		return func(a []Value, _ Value) uint64 { return 1 + uint64(float64(actualSize(a[0])*actualSize(a[1]))*f) }
	}
	return nil
}

func selfCompareCost(v Value) uint64 {
	l, ok := v.(List)
	if !ok {
		return 1 + listCreateBaseCost
	}
	n := uint64(l.Len())
	f := 2.0
	if n > 0 && isStringOrBytes(l.At(0)) {
		f += stringTraversalCostFactor
	}
	return uint64(float64(n*n)*f) + 1 + listCreateBaseCost
}

// traversalCost is Kubernetes' cost of one pass over a value.
func traversalCost(v Value) uint64 {
	switch x := v.(type) {
	case string:
		return uint64(float64(len(x)) * stringTraversalCostFactor)
	case Bytes:
		return uint64(float64(len(x)) * stringTraversalCostFactor)
	case List:
		var c uint64
		for i := 0; i < x.Len(); i++ {
			c += traversalCost(x.At(i))
		}
		return c
	case Map:
		var c uint64
		x.Range(func(k, v Value) bool {
			c += traversalCost(k) + traversalCost(v)
			return true
		})
		return c
	}
	return 1
}

package cel

import (
	"math"
	"strings"
)

// functionCost is cel-go's coster.functionCost: an overload estimator of ext lists and
// sets, else Kubernetes' EstimateCallCost, else cel-go's defaults; arguments' costs are
// added to the call's own.
func (c *coster) functionCost(e *Expr, id string, target *astNode, args []astNode, argCosts []CostEstimate) (CostEstimate, *sizeEst) {
	var argSum CostEstimate
	for _, a := range argCosts {
		argSum = argSum.Add(a)
	}
	if est, size, ok := overloadEstimate(id, target, args); ok {
		return est.Add(argSum), size
	}
	if est, size, ok := c.k8sEstimate(e.Name, id, target, args); ok {
		return est.Add(argSum), size
	}
	switch id {
	case "string_format":
		if target != nil {
			return nodeSize(*target).factor(stringTraversalCostFactor).Add(argSum), nil
		}
	case "string_to_bytes":
		if len(args) == 1 {
			sz := nodeSize(args[0])
			return sz.factor(stringTraversalCostFactor).Add(argSum), &sizeEst{sz.Min, sz.Max * 4}
		}
	case "bytes_to_string":
		if len(args) == 1 {
			sz := nodeSize(args[0])
			return sz.factor(stringTraversalCostFactor).Add(argSum), &sizeEst{sz.Min / 4, sz.Max}
		}
	case "strings_quote":
		if len(args) == 1 {
			sz := nodeSize(args[0])
			return sz.factor(stringTraversalCostFactor).Add(argSum), &sizeEst{sz.Min + 2, sz.Max*2 + 2}
		}
	case "starts_with_string", "ends_with_string":
		if len(args) == 1 {
			return nodeSize(args[0]).factor(stringTraversalCostFactor).Add(argSum), nil
		}
	case "in_list":
		if len(args) == 2 {
			return nodeSize(args[1]).factor(1).Add(argSum), nil
		}
	case "matches_string":
		if target != nil && len(args) == 1 {
			str := nodeSize(*target).add(fixedSize(1)).factor(stringTraversalCostFactor)
			re := nodeSize(args[0]).factor(regexStringLengthCostFactor)
			return str.mul(re).Add(argSum), nil
		}
	case "contains_string":
		if target != nil && len(args) == 1 {
			str := nodeSize(*target).factor(stringTraversalCostFactor)
			sub := nodeSize(args[0]).factor(stringTraversalCostFactor)
			return str.mul(sub).Add(argSum), nil
		}
	case "logical_or", "logical_and":
		return CostEstimate{argCosts[0].Min, argCosts[0].Add(argCosts[1]).Max}, nil
	case "conditional":
		size := nodeSize(args[1]).union(nodeSize(args[2]))
		c.setEntry(e, c.entry(args[1].e).union(c.entry(args[2].e)))
		return argCosts[0].Add(argCosts[1].union(argCosts[2])), &size
	case "add_string", "add_bytes", "add_list":
		if len(args) == 2 {
			size := nodeSize(args[0]).add(nodeSize(args[1]))
			if es := c.entry(args[0].e).union(c.entry(args[1].e)); es != nil {
				c.setEntry(e, es)
			}
			if id == "add_list" {
				return fixedCost(1).Add(argSum), &size
			}
			return size.factor(stringTraversalCostFactor).Add(argSum), &size
		}
	case "less_string", "greater_string", "less_equals_string", "greater_equals_string",
		"less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes", "equals", "not_equals":
		l, r := nodeSize(args[0]), nodeSize(args[1])
		smallest := l.Max
		if r.Max < smallest {
			smallest = r.Max
		}
		lo := uint64(0)
		if smallest > 0 {
			lo = 1
		}
		return CostEstimate{lo, smallest}.factor(stringTraversalCostFactor).Add(argSum), nil
	}
	return fixedCost(1).Add(argSum), nil
}

// overloadEstimate holds the estimators cel-go's ext lists (version 3) and sets register.
func overloadEstimate(id string, target *astNode, args []astNode) (CostEstimate, *sizeEst, bool) {
	list := func(f float64, size sizeEst) (CostEstimate, *sizeEst, bool) {
		return size.factor(f).Add(fixedCost(1)).Add(fixedCost(listCreateBaseCost)), &size, true
	}
	switch {
	case id == "list_slice":
		if target == nil || len(args) != 2 {
			break
		}
		sz := nodeSize(*target)
		return list(1, fixedSize(nodeInt(args[1], sz.Max)-nodeInt(args[0], 0)))
	case id == "lists_range":
		if target != nil || len(args) != 1 {
			break
		}
		return list(1, fixedSize(nodeInt(args[0], math.MaxUint)))
	case id == "list_reverse":
		if target == nil || len(args) != 0 {
			break
		}
		return list(1, nodeSize(*target))
	case id == "list_flatten" || id == "list_flatten_int":
		if target == nil || len(args) > 1 {
			break
		}
		depth := uint64(1)
		if len(args) == 1 {
			depth = nodeInt(args[0], math.MaxUint)
		}
		return list(float64(depth), nodeSize(*target))
	case id == "list_distinct":
		if target == nil || len(args) != 0 {
			break
		}
		sz := nodeSize(*target)
		return list(2, sz.mul(sz))
	case strings.HasSuffix(id, "_sort") && strings.HasPrefix(id, "list_"):
		if target == nil || len(args) != 0 {
			break
		}
		return sortEstimate(*target, strings.TrimSuffix(strings.TrimPrefix(id, "list_"), "_sort"))
	case strings.HasSuffix(id, "_sortByAssociatedKeys"):
		if target == nil || len(args) != 1 {
			break
		}
		return sortEstimate(args[0], strings.TrimSuffix(strings.TrimPrefix(id, "list_"), "_sortByAssociatedKeys"))
	case id == "list_sets_contains_list" || id == "list_sets_intersects_list" || id == "list_sets_equivalent_list":
		if len(args) != 2 {
			break
		}
		f := 1.0
		if id == "list_sets_equivalent_list" {
			f = 2
		}
		return nodeSize(args[0]).mul(nodeSize(args[1])).factor(f).Add(fixedCost(1)), nil, true
	}
	return CostEstimate{}, nil, false
}

func sortEstimate(n astNode, elem string) (CostEstimate, *sizeEst, bool) {
	sz := nodeSize(n)
	f := 2.0
	if elem == "string" || elem == "bytes" {
		f += stringTraversalCostFactor
	}
	size := sz.mul(sz)
	return size.factor(f).Add(fixedCost(1)).Add(fixedCost(listCreateBaseCost)), &size, true
}

// nodeInt is an int literal argument's value (0 if negative), else the default.
func nodeInt(n astNode, def uint64) uint64 {
	if n.e == nil || n.e.Kind != eLiteral {
		return def
	}
	i, ok := n.e.Lit.(int64)
	if !ok {
		return def
	}
	if i < 0 {
		return 0
	}
	return uint64(i)
}

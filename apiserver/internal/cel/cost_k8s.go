package cel

import "math"

// Kubernetes' limits on the size of named formats (k8s.io/apiserver/pkg/cel/limits.go).
const (
	maxFormatSize          = 64
	maxNameFormatRegexSize = 128
)

// k8sSize is Kubernetes' CostEstimator.sizeEstimate: the computed size, else the
// schema's, else unknown.
func (c *coster) k8sSize(n astNode) sizeEst {
	if n.size != nil {
		return *n.size
	}
	if s := c.estimateSize(n.path); s != nil {
		return *s
	}
	return unknownSize
}

func (c *coster) listElement(n astNode) *astNode {
	if len(n.t.Params) == 0 {
		return nil
	}
	el := &astNode{t: n.t.Params[0]}
	if n.path != nil {
		el.path = appendPath(n.path, "@items")
	}
	return el
}

// k8sEstimate is Kubernetes' CostEstimator.EstimateCallCost
// (k8s.io/apiserver/pkg/cel/library/cost.go); ok is false where it has no estimate.
func (c *coster) k8sEstimate(fn, id string, target *astNode, args []astNode) (CostEstimate, *sizeEst, bool) {
	one := fixedCost(1)
	tf := stringTraversalCostFactor
	switch fn {
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
		if target == nil {
			break
		}
		if el := c.listElement(*target); el != nil {
			elCost := one
			if k := el.t.Kind; k == StringKind || k == BytesKind {
				elCost = elCost.Add(c.k8sSize(*el).factor(tf))
			}
			return c.k8sSize(*target).mulCost(elCost), nil, true
		}
		return c.k8sSize(*target).factor(tf), nil, true
	case "url":
		if len(args) == 1 {
			sz := c.k8sSize(args[0])
			return sz.factor(tf), &sz, true
		}
	case "lowerAscii", "upperAscii", "substring", "trim":
		if target != nil {
			sz := c.k8sSize(*target)
			return sz.factor(tf), &sz, true
		}
	case "replace":
		if target != nil && len(args) >= 2 {
			return c.replaceEstimate(*target, args)
		}
	case "split":
		if target != nil {
			sz := c.k8sSize(*target)
			max := sz.Max
			if len(args) > 1 && args[1].e != nil && args[1].e.Kind == eLiteral {
				if i, ok := args[1].e.Lit.(int64); ok {
					max = uint64(i)
				}
			}
			return sz.factor(2 * tf), &sizeEst{0, max}, true
		}
	case "join":
		if target != nil {
			var sz sizeEst
			listSize := c.k8sSize(*target)
			if el := c.listElement(*target); el != nil {
				sz = listSize.mul(c.k8sSize(*el))
			}
			if len(args) > 0 {
				var lo, hi uint64
				if listSize.Min > 0 {
					lo = listSize.Min - 1
				}
				if listSize.Max > 0 {
					hi = listSize.Max - 1
				}
				sz = sz.add(c.k8sSize(args[0]).mul(sizeEst{lo, hi}))
			}
			return sz.factor(tf), &sz, true
		}
	case "find", "findAll":
		if target != nil && len(args) >= 1 {
			sz := c.k8sSize(*target)
			str := sz.add(fixedSize(1)).factor(tf)
			re := c.k8sSize(args[0]).factor(regexStringLengthCostFactor)
			return str.mul(re), &sizeEst{0, sz.Max}, true
		}
	case "cidr", "isIP", "isCIDR":
		if len(args) >= 1 {
			return c.k8sSize(args[0]).factor(tf), nil, true
		}
	case "ip":
		if id == "cidr_ip" {
			return one, nil, true
		}
		if len(args) >= 1 {
			return c.k8sSize(args[0]).factor(tf), nil, true
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return c.k8sSize(args[0]).factor(2 * tf), nil, true
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast":
		return one, nil, true
	case "containsIP", "containsCIDR":
		if len(args) >= 1 {
			sz := sizeEst{4, 16}
			cost := sz.add(sz).factor(tf)
			if fn == "containsCIDR" {
				cost = cost.Add(sz.factor(tf)).Add(one)
			}
			if id == "cidr_contains_ip_string" || id == "cidr_contains_cidr_string" {
				s := c.k8sSize(args[0])
				cost = cost.Add(CostEstimate(s).factor(tf))
			}
			return cost, nil, true
		}
	case "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return c.k8sSize(args[0]).factor(tf), nil, true
		}
	case "validate":
		if len(args) >= 1 {
			return c.k8sSize(args[0]).factor(tf).factor(maxNameFormatRegexSize * regexStringLengthCostFactor), nil, true
		}
	case "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
		"compareTo", "add", "sub", "major", "minor", "patch",
		"getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return one, nil, true
	case "_==_":
		if len(args) == 2 && equalTypes(args[0].t, args[1].t) {
			switch args[0].t.Name {
			case "net.IP", "net.CIDR", "kubernetes.Quantity", "kubernetes.Semver":
				return one, nil, true
			case "kubernetes.NamedFormat":
				return CostEstimate{1, maxFormatSize}.factor(tf), nil, true
			case "kubernetes.URL":
				size := sizeEst{1, 1}
				if r := args[1].size; r != nil {
					size = r.union(*r)
				}
				return CostEstimate{1, size.Max}.factor(tf), nil, true
			}
		}
	}
	return CostEstimate{}, nil, false
}

func (c *coster) replaceEstimate(target astNode, args []astNode) (CostEstimate, *sizeEst, bool) {
	sz := c.k8sSize(target)
	toReplace := c.k8sSize(args[0])
	with := c.k8sSize(args[1])
	var count, retained sizeEst
	switch {
	case toReplace.Min == 0:
		count.Max = sz.Max
		if sz.Max < math.MaxUint64 {
			count.Max = sz.Max + 1
		}
		retained.Max = sz.Max
	case with.Max <= toReplace.Min:
		count.Max = 0
		retained.Max = sz.Max
	default:
		count.Max = uint64(math.Ceil(float64(sz.Max) / float64(toReplace.Min)))
	}
	switch {
	case toReplace.Max == 0:
		count.Min = sz.Min
		if sz.Min < math.MaxUint64 {
			count.Min = sz.Min + 1
		}
		retained.Min = sz.Min
	case toReplace.Max <= with.Min:
		count.Min = 0
		retained.Min = sz.Min
	default:
		count.Min = uint64(math.Ceil(float64(sz.Min) / float64(toReplace.Max)))
	}
	size := count.mul(with).add(retained)
	return sz.factor(2 * stringTraversalCostFactor), &size, true
}

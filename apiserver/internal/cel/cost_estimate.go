package cel

import "math"

// CostEstimate is a range of cost, as cel-go's checker.CostEstimate.
type CostEstimate struct{ Min, Max uint64 }

// sizeEst is a range of sizes (string length, list or map size).
type sizeEst struct{ Min, Max uint64 }

var (
	unknownSize = sizeEst{0, math.MaxUint64}
	twoTo64     = math.Ldexp(1, 64)
)

func fixedSize(n uint64) sizeEst      { return sizeEst{n, n} }
func fixedCost(n uint64) CostEstimate { return CostEstimate{n, n} }
func (s sizeEst) add(o sizeEst) sizeEst {
	return sizeEst{addNoOverflow(s.Min, o.Min), addNoOverflow(s.Max, o.Max)}
}
func (s sizeEst) mul(o sizeEst) sizeEst {
	return sizeEst{mulNoOverflow(s.Min, o.Min), mulNoOverflow(s.Max, o.Max)}
}
func (s sizeEst) factor(f float64) CostEstimate {
	return CostEstimate{mulFactor(s.Min, f), mulFactor(s.Max, f)}
}
func (s sizeEst) mulCost(c CostEstimate) CostEstimate {
	return CostEstimate{mulNoOverflow(s.Min, c.Min), mulNoOverflow(s.Max, c.Max)}
}
func (s sizeEst) union(o sizeEst) sizeEst {
	r := s
	if o.Min < r.Min {
		r.Min = o.Min
	}
	if o.Max > r.Max {
		r.Max = o.Max
	}
	return r
}

// Add sums two estimates without overflowing.
func (c CostEstimate) Add(o CostEstimate) CostEstimate {
	return CostEstimate{addNoOverflow(c.Min, o.Min), addNoOverflow(c.Max, o.Max)}
}
func (c CostEstimate) mul(o CostEstimate) CostEstimate {
	return CostEstimate{mulNoOverflow(c.Min, o.Min), mulNoOverflow(c.Max, o.Max)}
}
func (c CostEstimate) factor(f float64) CostEstimate {
	return CostEstimate{mulFactor(c.Min, f), mulFactor(c.Max, f)}
}
func (c CostEstimate) union(o CostEstimate) CostEstimate {
	r := c
	if o.Min < r.Min {
		r.Min = o.Min
	}
	if o.Max > r.Max {
		r.Max = o.Max
	}
	return r
}

func addNoOverflow(x, y uint64) uint64 {
	if y > 0 && x > math.MaxUint64-y {
		return math.MaxUint64
	}
	return x + y
}

func mulNoOverflow(x, y uint64) uint64 {
	if y != 0 && x > math.MaxUint64/y {
		return math.MaxUint64
	}
	return x * y
}

func mulFactor(x uint64, y float64) uint64 {
	xf := float64(x)
	if xf > 0 && y > 0 && xf > math.MaxUint64/y {
		return math.MaxUint64
	}
	c := math.Ceil(xf * y)
	if c >= twoTo64 {
		return math.MaxUint64
	}
	return uint64(c)
}

// entrySize is what is known of the keys and values of a list or map expression.
type entrySize struct {
	kind     Kind // ListKind, MapKind, or DynKind when unknown
	key, val sizeEst
}

func (s *entrySize) keySize() *sizeEst {
	if s == nil {
		return nil
	}
	return &s.key
}

func (s *entrySize) valSize() *sizeEst {
	if s == nil {
		return nil
	}
	return &s.val
}

func (s *entrySize) union(o *entrySize) *entrySize {
	if s == nil || o == nil {
		return nil
	}
	return &entrySize{kind: s.kind, key: s.key.union(o.key), val: s.val.union(o.val)}
}

type localVar struct {
	path  []string
	size  *sizeEst
	entry *entrySize
}

// astNode is what a function's estimator sees of an argument.
type astNode struct {
	path []string
	t    *Type
	e    *Expr
	size *sizeEst
}

// coster estimates the cost of a checked expression the way cel-go's checker.Cost does,
// with Kubernetes' CostEstimator (and its path-based size estimator over the schema when
// the environment has one) and the estimators of cel-go's ext lists and sets.
type coster struct {
	types   map[int64]*Type
	refs    map[int64]*reference
	root    *Type
	paths   map[int64][]string
	locals  map[string][]*localVar
	sizes   map[int64]sizeEst
	entries map[int64]entrySize
}

// EstimateCost is the static cost range of the program, as cel-go's Env.EstimateCost with
// Kubernetes' estimator: for a schema environment, sizes come from maxLength, maxItems and
// maxProperties (or the request-size estimates); has() costs nothing, as Kubernetes
// configures.
func (p *Program) EstimateCost() CostEstimate {
	c := &coster{types: p.types, refs: p.refs, root: p.root0, paths: map[int64][]string{},
		locals: map[string][]*localVar{}, sizes: map[int64]sizeEst{}, entries: map[int64]entrySize{}}
	return c.cost(p.expr)
}

func (c *coster) typeOf(e *Expr) *Type {
	if t := c.types[e.ID]; t != nil {
		return t
	}
	return DynType
}

func (c *coster) peek(name string) (*localVar, bool) {
	s := c.locals[name]
	if len(s) == 0 {
		return nil, false
	}
	return s[len(s)-1], true
}

func (c *coster) push(name string, v *localVar) { c.locals[name] = append(c.locals[name], v) }

func (c *coster) pop(name string) { c.locals[name] = c.locals[name][:len(c.locals[name])-1] }

func (c *coster) path(e *Expr) []string {
	if e.Kind == eIdent {
		if v, ok := c.peek(e.Name); ok {
			return v.path
		}
	}
	return c.paths[e.ID]
}

func appendPath(p []string, s string) []string {
	out := make([]string, len(p)+1)
	copy(out, p)
	out[len(p)] = s
	return out
}

func (c *coster) node(e *Expr) astNode {
	p := c.path(e)
	if len(p) > 0 && (p[0] == accuVar || p[0] == "__result__") {
		p = nil
	}
	return astNode{path: p, t: c.typeOf(e), e: e, size: c.computeSize(e)}
}

func (c *coster) setSize(e *Expr, s *sizeEst) {
	if s != nil {
		c.sizes[e.ID] = *s
	}
}

func (c *coster) setEntry(e *Expr, s *entrySize) {
	if s != nil {
		c.entries[e.ID] = *s
	}
}

func (c *coster) entry(e *Expr) *entrySize {
	if s, ok := c.entries[e.ID]; ok {
		return &s
	}
	if e.Kind == eIdent {
		if v, ok := c.peek(e.Name); ok && v.entry != nil {
			return v.entry
		}
	}
	return nil
}

func (c *coster) sizeOrUnknown(e *Expr) sizeEst {
	if s := c.computeSize(e); s != nil {
		return *s
	}
	return unknownSize
}

func nodeSize(n astNode) sizeEst {
	if n.size != nil {
		return *n.size
	}
	return unknownSize
}

func (c *coster) computeSize(e *Expr) *sizeEst {
	if s, ok := c.sizes[e.ID]; ok {
		return &s
	}
	if s := exprSize(e); s != nil {
		return s
	}
	if s := c.estimateSize(c.path(e)); s != nil {
		c.sizes[e.ID] = *s
		return s
	}
	if isScalar(c.typeOf(e)) {
		s := fixedSize(1)
		return &s
	}
	if e.Kind == eIdent {
		if v, ok := c.peek(e.Name); ok && v.size != nil {
			return v.size
		}
	}
	return nil
}

// estimateSize is Kubernetes' path-based size estimator of a CRD rule: the declared (or
// estimated) bound of the schema node the path reaches.
func (c *coster) estimateSize(path []string) *sizeEst {
	if c.root == nil || len(path) == 0 {
		return nil
	}
	t := c.root
	for _, p := range path[1:] {
		switch p {
		case "@items", "@values":
			if t.Kind != ListKind && t.Kind != MapKind {
				return nil
			}
			t = t.Params[len(t.Params)-1]
		case "@keys":
			if t.Kind != MapKind {
				return nil
			}
			t = t.Params[0]
		default:
			ft, ok := t.Fields[p]
			if !ok || ft == nil {
				return nil
			}
			t = ft
		}
	}
	return &sizeEst{0, uint64(t.MaxElements)}
}

func exprSize(e *Expr) *sizeEst {
	var v uint64
	switch e.Kind {
	case eLiteral:
		switch x := e.Lit.(type) {
		case string:
			v = uint64(len([]rune(x)))
		case Bytes:
			v = uint64(len(x))
		default:
			v = 1
		}
	case eList:
		v = uint64(len(e.Args))
	case eMap:
		v = uint64(len(e.Entries))
	default:
		return nil
	}
	s := fixedSize(v)
	return &s
}

func isScalar(t *Type) bool {
	switch t.Kind {
	case BoolKind, DoubleKind, DurationKind, IntKind, TimestampKind, UintKind:
		return true
	case OpaqueKind:
		if t.isOptional() {
			return isScalar(t.elem())
		}
	}
	return false
}

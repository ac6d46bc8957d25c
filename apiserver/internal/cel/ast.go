package cel

// exprKind is the shape of an expression node, as in cel-spec's syntax.proto Expr.
type exprKind uint8

const (
	eLiteral exprKind = iota
	eIdent
	eSelect
	eCall
	eList
	eMap
	eStruct
	eComprehension
)

// Expr is one node of a parsed expression. Macros are already expanded into
// comprehensions, as cel-go's parser does, so the checker, cost estimator and planner see
// what cel-go's see.
type Expr struct {
	ID   int64
	Kind exprKind
	// Lit is the value of a literal.
	Lit Value
	// Name is an identifier, a selected field, a called function or a struct's type name.
	Name string
	// Target is a select's operand or a member call's receiver (nil for a global call).
	Target *Expr
	// Args are a call's arguments or a list literal's elements.
	Args []*Expr
	// Optional marks, per element, the optional entries of a list literal ([?x]).
	Optional []bool
	// Entries are a map or struct literal's entries.
	Entries []*Entry
	// TestOnly marks a select produced by has().
	TestOnly bool
	// Comprehension parts.
	IterVar, IterVar2, AccuVar                   string
	IterRange, AccuInit, LoopCond, LoopStep, Res *Expr
}

// Entry is a map literal's key and value (or a struct literal's field and value).
type Entry struct {
	ID       int64
	Key      *Expr
	Field    string
	Value    *Expr
	Optional bool
}

// accuVar is the accumulator name of macro comprehensions; cel-go uses "@result".
const accuVar = "@result"

// walk calls f on e and every node below it, parents first.
func walk(e *Expr, f func(*Expr)) {
	if e == nil {
		return
	}
	f(e)
	walk(e.Target, f)
	for _, a := range e.Args {
		walk(a, f)
	}
	for _, en := range e.Entries {
		walk(en.Key, f)
		walk(en.Value, f)
	}
	walk(e.IterRange, f)
	walk(e.AccuInit, f)
	walk(e.LoopCond, f)
	walk(e.LoopStep, f)
	walk(e.Res, f)
}

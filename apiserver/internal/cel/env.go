package cel

import (
	"errors"
	"log/slog"
	"strings"
	"sync"
)

// Env declares what an expression may use: its variables and the functions of CEL's
// standard library and of the Kubernetes libraries. It mirrors the *cel.Env that
// k8s.io/apiserver/pkg/cel/environment builds for the v1.36 compatibility version.
type Env struct {
	vars  map[string]*Type
	funcs map[string]*function
	// sizeRoot is the type of self in a schema environment: the cost estimator reads the
	// declared sizes along a rule's paths from it.
	sizeRoot *Type
	// structs are the struct types expressions may construct (WithStructs).
	structs []string
}

// Var declares one variable.
type Var struct {
	Name string
	Type *Type
}

var (
	baseOnce  sync.Once
	baseFuncs map[string]*function
)

// base is the function set every Env shares, built once.
func base() map[string]*function {
	baseOnce.Do(func() {
		l := newLibrary()
		for _, add := range libraries {
			add(l)
		}
		baseFuncs = l.funcs
	})
	return baseFuncs
}

// libraries lists the declaration builders, in the order Kubernetes enables them.
var libraries []func(*library)

// NewEnv returns an environment with the given variables and every library.
func NewEnv(vars ...Var) *Env {
	e := &Env{vars: map[string]*Type{}, funcs: base()}
	for _, v := range vars {
		e.vars[v.Name] = v.Type
	}
	return e
}

// Program is a compiled expression: immutable, so one Program may be cached and evaluated
// by many goroutines at once.
type Program struct {
	src     string
	expr    *Expr
	root    node
	nslots  int
	outType *Type
	types   map[int64]*Type
	refs    map[int64]*reference
	// usesVar records which declared variables the expression reads.
	uses  map[string]bool
	root0 *Type
}

// OutputType is the checked type of the expression's result.
func (p *Program) OutputType() *Type { return p.outType }

// Uses reports whether the expression refers to the variable name.
func (p *Program) Uses(name string) bool { return p.uses[name] }

// Source is the expression text.
func (p *Program) Source() string { return p.src }

// Compile parses and checks src in env and plans it for evaluation. On failure the error
// is an *Errors whose text is cel-go's issues text (without Kubernetes' "compilation
// failed: " prefix).
func (env *Env) Compile(src string) (*Program, error) {
	return env.CompileWith(src, CompileOptions{})
}

// CompileOptions turn off stages, as cel-spec's conformance tests ask for some cases.
type CompileOptions struct {
	// NoCheck skips the type checker: calls are then dispatched on the run-time types.
	NoCheck bool
	// NoMacros parses has(), all(), map(), … as ordinary calls.
	NoMacros bool
	// Trace logs the stages: parse, macros and check (the zero Trace is silent).
	Trace Trace
}

// CompileWith is Compile with some stages turned off.
func (env *Env) CompileWith(src string, opts CompileOptions) (*Program, error) {
	traced := opts.Trace.Enabled()
	e, offsets, errs, expanded := parseRecording(src, !opts.NoMacros, traced)
	if errs != nil {
		if traced {
			opts.Trace.Hop("parse", slog.String("expr", src), slog.String("error", strings.Join(errs.Messages(), "; ")))
		}
		return nil, errs
	}
	if traced {
		opts.Trace.traceParsed(src, e, expanded)
	}
	errs = newErrors(src)
	var types map[int64]*Type
	var refs map[int64]*reference
	if opts.NoCheck {
		types, refs = map[int64]*Type{e.ID: DynType}, map[int64]*reference{}
	} else {
		types, refs = check(env, e, offsets, errs)
		if errs.Len() == 0 {
			validate(env, e, types, offsets, errs)
		}
	}
	if errs.Len() > 0 {
		if traced {
			opts.Trace.Hop("check", slog.String("error", strings.Join(errs.Messages(), "; ")))
		}
		return nil, errs
	}
	if traced {
		opts.Trace.Hop("check", slog.String("type", types[e.ID].String()))
	}
	p := &planner{env: env, types: types, refs: refs, noCheck: opts.NoCheck}
	root := p.plan(e)
	if p.err != nil {
		return nil, &ProgramError{msg: p.err.msg}
	}
	prog := &Program{src: src, expr: e, root: root, nslots: p.nslots, outType: types[e.ID],
		types: types, refs: refs, uses: map[string]bool{}, root0: env.sizeRoot}
	walk(e, func(x *Expr) {
		if x.Kind == eIdent {
			if _, ok := env.vars[x.Name]; ok {
				prog.uses[x.Name] = true
			}
		}
	})
	return prog, nil
}

// ProgramError is a failure to make the program of a checked expression: a constant
// conversion that always fails, such as int('x'). Its text is Kubernetes' "program
// instantiation failed: <reason>".
type ProgramError struct{ msg string }

func (e *ProgramError) Error() string { return "program instantiation failed: " + e.msg }

// ErrCostLimit is returned by Eval when the actual cost passes the limit; its text is
// cel-go's.
var ErrCostLimit = errors.New("operation cancelled: actual cost limit exceeded")

// Eval evaluates the program with no cost limit.
func (p *Program) Eval(act Activation) (Value, error) {
	v, _, err := p.EvalWithCost(act, 0)
	return v, err
}

// EvalWithCost evaluates the program, tracking its actual cost as cel-go's cost tracker
// does with the Kubernetes cost estimator. A limit of 0 means none; past the limit the
// evaluation stops with ErrCostLimit.
func (p *Program) EvalWithCost(act Activation, limit uint64) (v Value, cost uint64, err error) {
	f := &frame{act: act, limit: limit}
	var slots [8]Value
	if p.nslots <= len(slots) {
		f.slots = slots[:p.nslots]
	} else {
		f.slots = make([]Value, p.nslots)
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(costExceeded); !ok {
				panic(r)
			}
			v, cost, err = nil, f.cost, ErrCostLimit
		}
	}()
	v = p.root.eval(f)
	if e, ok := v.(*Err); ok {
		return nil, f.cost, e
	}
	return v, f.cost, nil
}

package cel

import (
	"fmt"
	"regexp"
)

// validate runs the AST validators Kubernetes enables (cel.ValidateDurationLiterals,
// ValidateTimestampLiterals, ValidateRegexLiterals, ValidateHomogeneousAggregateLiterals):
// literal arguments that would always fail, and mixed-type list and map literals.
func validate(env *Env, e *Expr, types map[int64]*Type, offsets map[int64]int, errs *Errors) {
	// Literals under a format() call are exempt from the homogeneity check, as the strings
	// library configures cel-go's validator.
	exempt := map[int64]bool{}
	walk(e, func(x *Expr) {
		if x.Kind == eCall && x.Name == "format" {
			walk(x, func(y *Expr) { exempt[y.ID] = true })
		}
	})
	walk(e, func(x *Expr) {
		if (x.Kind == eList || x.Kind == eMap) && exempt[x.ID] {
			return
		}
		switch x.Kind {
		case eCall:
			if x.Name == "format" && x.Target != nil && x.Target.Kind == eLiteral && len(x.Args) == 1 && x.Args[0].Kind == eList {
				if _, isStr := x.Target.Lit.(string); isStr {
					if is := checkFormat(x, types); is != nil {
						errs.add(offsets[is.id], is.msg)
					}
				}
			}
			if len(x.Args) == 0 || x.Args[0].Kind != eLiteral {
				return
			}
			lit := x.Args[0]
			switch x.Name {
			case "duration", "timestamp":
				if x.Target != nil {
					return
				}
				if _, isErr := literalCall(env, x).(*Err); isErr {
					errs.add(offsets[lit.ID], fmt.Sprintf("invalid %s argument", x.Name))
				}
			case "matches":
				if s, ok := lit.Lit.(string); ok {
					if _, err := regexp.Compile(s); err != nil {
						errs.add(offsets[lit.ID], "invalid matches argument")
					}
				}
			}
		case eList:
			var et *Type
			for i, a := range x.Args {
				t := types[a.ID]
				if x.Optional != nil && x.Optional[i] && len(t.Params) > 0 {
					t = t.Params[0]
				}
				if et == nil {
					et = t
					continue
				}
				if !equalTypes(et, t) {
					errs.add(offsets[a.ID], fmt.Sprintf("expected type '%s' but found '%s'", formatType(et), formatType(t)))
					break
				}
			}
		case eMap:
			var kt, vt *Type
			for _, en := range x.Entries {
				k, v := types[en.Key.ID], types[en.Value.ID]
				if en.Optional && len(v.Params) > 0 {
					v = v.Params[0]
				}
				if kt == nil {
					kt, vt = k, v
					continue
				}
				if !equalTypes(kt, k) {
					errs.add(offsets[en.Key.ID], fmt.Sprintf("expected type '%s' but found '%s'", formatType(kt), formatType(k)))
				}
				if !equalTypes(vt, v) {
					errs.add(offsets[en.Value.ID], fmt.Sprintf("expected type '%s' but found '%s'", formatType(vt), formatType(v)))
				}
			}
		}
	})
}

// literalCall evaluates a call whose arguments are literals.
func literalCall(env *Env, x *Expr) Value {
	fn := env.funcs[x.Name]
	if fn == nil {
		return nil
	}
	var args []Value
	for _, a := range x.Args {
		if a.Kind != eLiteral {
			return nil
		}
		args = append(args, a.Lit)
	}
	for _, o := range fn.overloads {
		if !o.member && argsMatch(o, args) {
			return o.fn(args)
		}
	}
	return nil
}

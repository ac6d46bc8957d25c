package cel

import (
	"errors"
	"log/slog"
)

// Variable names of a CRD rule.
const (
	ScopedVarName    = "self"
	OldScopedVarName = "oldSelf"
)

// SchemaEnv is the environment of the x-kubernetes-validations rules of one schema node:
// self (and oldSelf) typed from the node, as apiextensions-apiserver's prepareEnvSet.
type SchemaEnv struct {
	*Env
	// Root is the type of self.
	Root   *Type
	schema *Schema
	root   bool
	opt    bool
}

// NewSchemaEnv declares self and oldSelf with the type of the schema node s. resourceRoot
// adds apiVersion, kind and metadata as for a CRD's root or an embedded resource;
// optionalOldSelf makes oldSelf an optional_type, for rules with optionalOldSelf: true.
func NewSchemaEnv(s *Schema, resourceRoot, optionalOldSelf bool) (*SchemaEnv, error) {
	t := declType(s, resourceRoot)
	if t == nil {
		return nil, errors.New("failed to convert to declType for CEL validation rules")
	}
	t = assignTypeNames(t, "selfType0")
	old := t
	if optionalOldSelf {
		old = OptionalType(t)
	}
	env := NewEnv(Var{ScopedVarName, t}, Var{OldScopedVarName, old})
	env.sizeRoot = t
	return &SchemaEnv{Env: env, Root: t, schema: s, root: resourceRoot, opt: optionalOldSelf}, nil
}

// Activation binds self to the data and oldSelf to the old data (nil on create, when a
// transition rule is not run unless oldSelf is optional).
func (e *SchemaEnv) Activation(self, oldSelf any) Activation {
	return e.ActivationTraced(self, oldSelf, Trace{})
}

// ActivationTraced is Activation logged as the activation stage: what self is (its type
// name) and whether oldSelf is bound (a transition rule runs only then, unless optional).
func (e *SchemaEnv) ActivationTraced(self, oldSelf any, t Trace) Activation {
	if t.Enabled() {
		t.Hop("activation", slog.String("self", e.Root.String()), slog.Bool("oldSelf", oldSelf != nil || e.opt))
	}
	s := e.schema
	if e.root {
		s = s.withTypeAndObjectMeta()
	}
	a := &schemaActivation{self: FromUnstructured(self, s)}
	switch {
	case e.opt && oldSelf == nil:
		a.old, a.hasOld = optNone, true
	case e.opt:
		a.old, a.hasOld = Optional{V: FromUnstructured(oldSelf, s), Ok: true}, true
	case oldSelf != nil:
		a.old, a.hasOld = FromUnstructured(oldSelf, s), true
	}
	return a
}

type schemaActivation struct {
	self, old Value
	hasOld    bool
}

func (a *schemaActivation) ResolveName(name string) (Value, bool) {
	switch name {
	case ScopedVarName:
		return a.self, true
	case OldScopedVarName:
		return a.old, a.hasOld
	}
	return nil, false
}

// RuleError is why a rule cannot be used, worded as apiextensions-apiserver's compileRule
// words the Detail of its apiservercel.Error.
type RuleError struct {
	// Internal marks Kubernetes' ErrorTypeInternal; otherwise ErrorTypeInvalid.
	Internal bool
	Detail   string
}

func (e *RuleError) Error() string { return e.Detail }

// CompileRule compiles an x-kubernetes-validations rule: a bool expression over self (and
// oldSelf). Its errors read "compilation failed: …", "cel expression must evaluate to a
// bool" or "program instantiation failed: …", as on the real server.
func (e *SchemaEnv) CompileRule(rule string) (*Program, *RuleError) {
	return e.CompileRuleTraced(rule, Trace{})
}

// CompileRuleTraced is CompileRule logging its stages to t.
func (e *SchemaEnv) CompileRuleTraced(rule string, t Trace) (*Program, *RuleError) {
	return e.compileAs(rule, BoolKind, "compilation failed: ", "cel expression must evaluate to a bool", t)
}

// CompileMessageExpression compiles a rule's messageExpression: a string expression.
func (e *SchemaEnv) CompileMessageExpression(expr string) (*Program, *RuleError) {
	return e.compileAs(expr, StringKind, "messageExpression compilation failed: ", "messageExpression must evaluate to a string", Trace{})
}

func (e *SchemaEnv) compileAs(expr string, kind Kind, prefix, wrongType string, t Trace) (*Program, *RuleError) {
	p, err := e.CompileWith(expr, CompileOptions{Trace: t})
	if err != nil {
		if pe, ok := err.(*ProgramError); ok {
			if kind == StringKind {
				return nil, &RuleError{Detail: "messageExpression instantiation failed: " + pe.msg}
			}
			return nil, &RuleError{Detail: pe.Error()}
		}
		return nil, &RuleError{Detail: prefix + err.Error()}
	}
	if p.OutputType().Kind != kind {
		return nil, &RuleError{Detail: wrongType}
	}
	return p, nil
}

// Package schemacel plugs the CEL interpreter into the structural schema: it compiles a
// CRD's x-kubernetes-validations rules when the CRD is written and evaluates them on custom
// objects. It mirrors k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel (Compile,
// NewValidator, Validator.Validate) and the CEL checks of ValidateCustomResourceDefinitionOpenAPISchema.
package schemacel

import (
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
	"github.com/informer-lab/informer-lab/apiserver/internal/structural"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Compiler is the structural.RuleCompiler backed by the CEL interpreter: the equivalent of
// apiextensions-apiserver's cel.Compile run over every node of a schema.
type Compiler struct{}

// compiled is one rule's CompilationResult.
type compiled struct {
	rule      structural.Rule
	prog, msg *cel.Program
	usesOld   bool
	fieldPath string // NormalizedRuleFieldPath
	err       string // "rule compile error" detail, when the rule does not compile
}

// node is the Validator of one schema node: its compiled rules and those of its children.
type node struct {
	schema   *structural.Schema
	env      *cel.SchemaEnv
	optEnv   *cel.SchemaEnv
	rules    []compiled
	props    map[string]*node
	items    *node
	addl     *node
	listKeys []string // list-type map keys: items correlate with old items by them
}

// Program is the compiled rules of one schema, as Validator: immutable, cached with the
// serving state of a CRD generation and shared by every request. log, when set, gets the
// evaluation stages of every object checked.
type Program struct {
	root *node
	log  *slog.Logger
}

type ruleCost struct {
	path string
	cost uint64
}

// compileCtx carries the CRD-write bookkeeping of CELSchemaContext: the cardinality of
// the node (nil when unbounded), the path of an ancestor list that makes oldSelf
// uncorrelatable, and the total cost of the schema.
type compileCtx struct {
	trace         structural.RuleTrace
	causes        []api.StatusCause
	total         uint64
	mostExpensive []ruleCost
}

// Compile implements structural.RuleCompiler, as the CEL part of
// validateCustomResourceDefinitionValidation: every node's rules compiled with self (and
// oldSelf) typed from it, the estimated costs checked per rule and for the whole schema.
func (Compiler) Compile(root *structural.Schema, path string) (structural.RuleProgram, []api.StatusCause) {
	return Compiler{}.CompileTraced(root, path, structural.RuleTrace{})
}

// CompileTraced implements structural.TracedRuleCompiler: Compile with each rule's stages
// (parse, macros, check, cost, and the estimate against the limit) logged to t, and a
// program that logs its evaluations there too.
func (Compiler) CompileTraced(root *structural.Schema, path string, t structural.RuleTrace) (structural.RuleProgram, []api.StatusCause) {
	c := &compileCtx{trace: t}
	one := uint64(1)
	n := c.node(root, toCEL(root, 0), path, &one, "", true)
	if c.total > cel.StaticEstimatedCRDCostLimit {
		for _, e := range c.mostExpensive {
			c.causes = append(c.causes, validation.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		c.causes = append(c.causes, validation.Forbidden(path, cel.CostErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", c.total, cel.StaticEstimatedCRDCostLimit)))
	}
	if n == nil {
		return nil, c.causes
	}
	return &Program{root: n, log: t.Logger}, c.causes
}

func (c *compileCtx) observe(path string, cost uint64) {
	if ^uint64(0)-c.total < cost {
		c.total = ^uint64(0)
	} else {
		c.total += cost
	}
	if cost < cel.StaticEstimatedCRDCostLimit/100 {
		return
	}
	c.mostExpensive = append(c.mostExpensive, ruleCost{path, cost})
	sort.SliceStable(c.mostExpensive, func(i, j int) bool { return c.mostExpensive[i].cost > c.mostExpensive[j].cost })
	if len(c.mostExpensive) > 4 {
		c.mostExpensive = c.mostExpensive[:4]
	}
}

// maxElements mirrors extractMaxElements: how many children a value of s can have.
func maxElements(s *structural.Schema) *uint64 {
	var limit *int64
	switch s.Type {
	case "object":
		if s.AdditionalProperties == nil {
			one := uint64(1)
			return &one
		}
		limit = s.MaxProperties
	case "array":
		limit = s.MaxItems
	default:
		one := uint64(1)
		return &one
	}
	if limit == nil {
		return nil
	}
	n := uint64(max(*limit, 0))
	return &n
}

func childCard(parent *structural.Schema, card *uint64) *uint64 {
	if card == nil {
		return nil
	}
	m := maxElements(parent)
	if m == nil {
		return nil
	}
	n := cel.MultiplyCost(*card, *m)
	return &n
}

// node compiles the rules of s and its children, children first as the real walk reports
// them; it returns nil when no rule is at or below s.
func (c *compileCtx) node(s *structural.Schema, cs *cel.Schema, path string, card *uint64, uncorrelatable string, resourceRoot bool) *node {
	if s == nil || cs == nil {
		return nil
	}
	n := &node{schema: s}
	any := false
	if s.AdditionalProperties != nil {
		n.addl = c.node(s.AdditionalProperties, cs.AdditionalProperties, path+".additionalProperties", childCard(s, card), uncorrelatable, s.AdditionalProperties.EmbeddedResource)
		any = any || n.addl != nil
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := s.Properties[k]
		if ch := c.node(p, cs.Properties[k], path+".properties["+k+"]", childCard(s, card), uncorrelatable, p.EmbeddedResource); ch != nil {
			if n.props == nil {
				n.props = map[string]*node{}
			}
			n.props[k] = ch
			any = true
		}
	}
	if s.Items != nil {
		u := uncorrelatable
		if u == "" && (s.ListType == nil || *s.ListType != "map") {
			u = path
		}
		n.items = c.node(s.Items, cs.Items, path+".items", childCard(s, card), u, s.Items.EmbeddedResource)
		any = any || n.items != nil
	}
	if s.ListType != nil && *s.ListType == "map" {
		n.listKeys = s.ListMapKeys
	}
	if len(s.Validations) > 0 {
		c.compileRules(n, cs, path, card, uncorrelatable, resourceRoot)
		any = true
	}
	if !any {
		return nil
	}
	return n
}

func (c *compileCtx) compileRules(n *node, cs *cel.Schema, path string, card *uint64, uncorrelatable string, resourceRoot bool) {
	s := n.schema
	env, err := cel.NewSchemaEnv(cs, resourceRoot, false)
	if err != nil {
		c.causes = append(c.causes, internalError(path+".x-kubernetes-validations", "internal error: failed to construct type information for x-kubernetes-validations rules: "+err.Error()))
		return
	}
	n.env = env
	for i, r := range s.Validations {
		p := fmt.Sprintf("%s.x-kubernetes-validations[%d]", path, i)
		cr := compiled{rule: r}
		if r.Rule == "" {
			n.rules = append(n.rules, cr)
			continue
		}
		renv := env
		if r.OptionalOldSelf != nil && *r.OptionalOldSelf {
			if n.optEnv == nil {
				n.optEnv, _ = cel.NewSchemaEnv(cs, resourceRoot, true)
			}
			if n.optEnv != nil {
				renv = n.optEnv
			}
		}
		tr := cel.Trace{Logger: c.trace.Logger, Key: c.trace.Key, RV: c.trace.RV, Field: strings.TrimPrefix(p, ".")}
		prog, rerr := renv.CompileRuleTraced(r.Rule, tr)
		var maxCost uint64
		if rerr == nil {
			cr.prog, cr.usesOld = prog, prog.Uses(cel.OldScopedVarName)
			maxCost = prog.EstimateCostTraced(tr).Max
		}
		runs := cel.MaxCardinality(env.MinSerializedSize())
		if card != nil {
			runs = *card
		}
		cost := cel.MultiplyCost(maxCost, runs)
		if rerr == nil && tr.Enabled() {
			// The per-call estimate times how often the rule can run for one object.
			tr.Hop("estimate", slog.Uint64("runs", runs), slog.Uint64("cost", cost), slog.Uint64("limit", cel.StaticEstimatedCostLimit), slog.Bool("transition", cr.usesOld))
		}
		if cost > cel.StaticEstimatedCostLimit {
			c.causes = append(c.causes, validation.Forbidden(p+".rule", cel.CostErrorMessage("estimated rule cost", cost, cel.StaticEstimatedCostLimit)))
		}
		c.observe(p+".rule", cost)
		if rerr != nil {
			cr.err = rerr.Detail
			if rerr.Internal {
				c.causes = append(c.causes, internalError(p+".rule", rerr.Detail))
			} else {
				c.causes = append(c.causes, validation.Invalid(p+".rule", r, rerr.Detail))
			}
		} else if r.MessageExpression != "" {
			msg, merr := renv.CompileMessageExpression(r.MessageExpression)
			if merr != nil {
				c.causes = append(c.causes, validation.Invalid(p+".messageExpression", r, merr.Detail))
			} else {
				cr.msg = msg
				mc := msg.EstimateCost().Max
				if mc > cel.StaticEstimatedCostLimit {
					c.causes = append(c.causes, validation.Forbidden(p+".messageExpression", cel.CostErrorMessage("estimated messageExpression cost", mc, cel.StaticEstimatedCostLimit)))
				}
				c.observe(p+".messageExpression", mc)
			}
		}
		if cr.usesOld {
			if uncorrelatable != "" {
				c.causes = append(c.causes, validation.Invalid(p+".rule", r.Rule, "oldSelf cannot be used on the uncorrelatable portion of the schema within "+uncorrelatable))
			}
		} else if rerr == nil && r.OptionalOldSelf != nil {
			c.causes = append(c.causes, validation.Invalid(p+".optionalOldSelf", *r.OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
		if r.FieldPath != "" {
			if fp, _, err := structural.ValidFieldPath(r.FieldPath, s); err == nil {
				cr.fieldPath = fp
			}
		}
		n.rules = append(n.rules, cr)
	}
}

// toCEL converts a structural schema node to the part CEL types values with.
func toCEL(s *structural.Schema, depth int) *cel.Schema {
	if s == nil || depth > 1000 {
		return nil
	}
	cs := &cel.Schema{Type: s.Type, Format: s.Format, Required: s.Required, MaxLength: s.MaxLength, MaxItems: s.MaxItems,
		MaxProperties: s.MaxProperties, Enum: s.Enum, Default: s.Default, Nullable: s.Nullable, XIntOrString: s.IntOrString,
		XPreserveUnknown: s.PreserveUnknown != nil && *s.PreserveUnknown, XEmbeddedResource: s.EmbeddedResource, XListMapKeys: s.ListMapKeys}
	if s.ListType != nil {
		cs.XListType = *s.ListType
	}
	if s.Properties != nil {
		cs.Properties = make(map[string]*cel.Schema, len(s.Properties))
		for k, p := range s.Properties {
			cs.Properties[k] = toCEL(p, depth+1)
		}
	}
	cs.AdditionalProperties = toCEL(s.AdditionalProperties, depth+1)
	cs.Items = toCEL(s.Items, depth+1)
	return cs
}

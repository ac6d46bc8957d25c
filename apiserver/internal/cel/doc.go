// Package cel is the Common Expression Language, written from scratch: a lexer and parser
// for cel-spec's grammar, a type checker, a cost estimator and an evaluator, with CEL's
// standard library and the libraries Kubernetes v1.36 enables (k8s.io/apiserver
// pkg/cel/environment: extended strings v2, lists v3, sets, two-variable comprehensions,
// optional types, and Kubernetes' own lists, regex, URLs, quantity, IP, CIDR, format and
// semver; not authz). It mirrors github.com/google/cel-go v0.26.0, the version Kubernetes
// v1.36 pins, configured as Kubernetes configures it; CRD validation rules are compiled and
// run through it as apiextensions-apiserver does with cel-go.
//
// The contract:
//
//  1. NewEnv declares variables over the shared, immutable function set; NewSchemaEnv
//     declares self and oldSelf from a structural schema node (a Schema), typed as
//     Kubernetes' SchemaDeclType types it: objects with properties as object types
//     named selfType0, selfType0.spec, … (the real server appends a clock reading to
//     "selfType"), additionalProperties as maps, x-kubernetes-int-or-string and
//     preserve-unknown-fields objects without properties as they are there, formats byte,
//     duration, date and date-time as bytes, duration and timestamp, and property names
//     escaped as Escape does (__dash__, __dot__, __namespace__, …).
//  2. Env.Compile parses, checks and plans an expression. A parse or check failure is an
//     *Errors whose text is cel-go's Issues text ("ERROR: <input>:1:6: undeclared reference
//     to 'x' (in container ”)" with the source line and a caret); a constant conversion
//     that always fails is a *ProgramError, "program instantiation failed: <reason>".
//     Literal duration(), timestamp() and matches() arguments, mixed-type list and map
//     literals and literal format strings are checked at compile time, as the AST
//     validators Kubernetes enables do. Where cel-go's ANTLR parser reports several syntax
//     errors, only the first is reported, with the same text.
//  3. SchemaEnv.CompileRule and CompileMessageExpression add Kubernetes' wording:
//     "compilation failed: …", "cel expression must evaluate to a bool",
//     "messageExpression must evaluate to a string"; Program.Uses(OldScopedVarName) tells a
//     transition rule.
//  4. A Program is immutable: it may be cached (per CRD generation) and evaluated by any
//     number of goroutines at once.
//  5. Program.EvalWithCost evaluates with an Activation (SchemaEnv.Activation wraps
//     decoded JSON lazily, as UnstructuredToVal does) and returns the value, the actual cost
//     and an error: an evaluation error carries cel-go's message ("no such key: x",
//     "integer overflow", "no such overload: substring(string, uint)"); past the cost limit
//     the error is ErrCostLimit, "operation cancelled: actual cost limit exceeded".
//  6. Evaluation follows CEL's semantics: && and || absorb errors and non-bools when the
//     other side decides, commutatively; int and uint arithmetic fails on overflow;
//     numbers compare and equal across int, uint and double (as cel-go does, through
//     doubles); list-type set and map lists compare without order and merge on +, and a
//     list equals by its left operand's rule; cel-go's optimizer is mirrored where it shows
//     (constant folding of conversions and literals, `x in []` being false).
//  7. Program.EstimateCost is cel-go's checker cost estimate with Kubernetes'
//     CostEstimator, the ext lists and sets estimators and, in a schema environment, the
//     sizes maxLength, maxItems and maxProperties give (or the request-size estimates);
//     has() costs nothing, as Kubernetes sets. MaxCardinality, MultiplyCost and
//     CostErrorMessage give apiextensions' per-rule check and its "estimated rule cost
//     exceeds budget by factor of …" message. The actual cost follows cel-go's cost tracker
//     and Kubernetes' CallCost closely but not in every detail (the tools module measures
//     how often they agree); the estimate agrees exactly.
//  8. No input makes the package panic or work without bound: the parser limits
//     expressions to 100,000 code points and 250 levels of nesting, and evaluation stops at
//     the cost limit (FuzzCELCompileEval).
//  9. A Trace (CompileOptions.Trace, SchemaEnv.CompileRuleTraced, EstimateCostTraced,
//     ActivationTraced, EvalTraced) logs each stage as one Debug hop, component "cel" and
//     op parse, macros, check, cost, activation or eval; a nil or disabled logger adds no
//     allocation (TestCh13_CEL_CompileTraceDisabled).
//
// The tools module checks all this against the real implementations: cel-spec's
// conformance tests, a differential test against cel-go over generated expressions, and
// CRD rules run through apiextensions-apiserver, driving this package through its celeval
// command.
package cel

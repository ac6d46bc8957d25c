package celcheck

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	crdcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

// k8s evaluates expressions with cel-go in the environment k8s.io/apiserver builds for
// v1.36 (its base environment at the default compatibility version, with every library,
// the cost limit and Kubernetes' cost estimator), and CRD rules through
// apiextensions-apiserver's own Compile.
type k8s struct {
	mu   sync.Mutex
	envs map[string]*cel.Env
}

func newK8s() *k8s { return &k8s{envs: map[string]*cel.Env{}} }

func (k *k8s) env(vars []jvar, noMacros bool) (*cel.Env, error) {
	key := fmt.Sprint(noMacros)
	var opts []cel.EnvOption
	for _, v := range vars {
		t, err := celgoType(v.Type)
		if err != nil {
			return nil, err
		}
		key += "|" + v.Name + ":" + v.Type
		opts = append(opts, cel.Variable(v.Name, t))
	}
	if noMacros {
		opts = append(opts, cel.ClearMacros())
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if e, ok := k.envs[key]; ok {
		return e, nil
	}
	set, err := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).Extend(
		environment.VersionedOptions{IntroducedVersion: version.MajorMinor(1, 0), EnvOptions: opts})
	if err != nil {
		return nil, err
	}
	e := set.NewExpressionsEnv()
	k.envs[key] = e
	return e, nil
}

func (k *k8s) eval(req request) response {
	if req.Schema != nil {
		return k.evalSchema(req)
	}
	env, err := k.env(req.Vars, req.NoMacros)
	if err != nil {
		return response{CompileError: err.Error()}
	}
	var ast *cel.Ast
	var iss *cel.Issues
	if req.NoCheck {
		ast, iss = env.Parse(req.Expr)
	} else {
		ast, iss = env.Compile(req.Expr)
	}
	if iss != nil && iss.Err() != nil {
		return response{CompileError: iss.String()}
	}
	var resp response
	resp.OutType = ast.OutputType().String()
	if !req.NoCheck {
		if est, err := env.EstimateCost(ast, &library.CostEstimator{}); err == nil {
			resp.EstMin, resp.EstMax = est.Min, est.Max
		}
	}
	prog, err := env.Program(ast)
	if err != nil {
		return response{CompileError: "program instantiation failed: " + err.Error()}
	}
	act := map[string]any{}
	for _, v := range req.Vars {
		if v.Value != nil {
			x, err := decodeRef(*v.Value)
			if err != nil {
				return response{CompileError: err.Error()}
			}
			act[v.Name] = x
		}
	}
	return finish(resp, prog, act)
}

func finish(resp response, prog cel.Program, act any) response {
	val, det, err := prog.ContextEval(context.Background(), act)
	if det != nil && det.ActualCost() != nil {
		resp.Cost = *det.ActualCost()
	}
	if err != nil {
		resp.EvalError = err.Error()
		return resp
	}
	e, err := encodeRef(val)
	if err != nil {
		resp.EvalError = err.Error()
		return resp
	}
	resp.Value = &e
	return resp
}

// evalSchema compiles the expression as a CRD rule on the schema and evaluates it on self
// (and oldSelf), the way apiextensions-apiserver's validator does.
func (k *k8s) evalSchema(req request) response {
	b, _ := json.Marshal(req.Schema)
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(b, &v1); err != nil {
		return response{CompileError: err.Error()}
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		return response{CompileError: err.Error()}
	}
	s, err := structuralschema.NewStructural(&internal)
	if err != nil {
		return response{CompileError: err.Error()}
	}
	opt := req.OptionalOld
	s.XValidations = apiextensionsv1.ValidationRules{{Rule: req.Expr, OptionalOldSelf: &opt}}
	decl := model.SchemaDeclType(s, req.Root)
	res, err := crdcel.Compile(s, decl, celconfig.PerCallLimit,
		environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), crdcel.NewExpressionsEnvLoader())
	if err != nil {
		return response{CompileError: err.Error()}
	}
	r := res[0]
	if r.Error != nil {
		return response{CompileError: r.Error.Detail}
	}
	sts := s
	if req.Root {
		sts = model.WithTypeAndObjectMeta(s)
	}
	act := &activation{self: crdcel.UnstructuredToVal(normalize(req.Self), sts)}
	switch {
	case opt && req.OldSelf == nil:
		act.old, act.hasOld = types.OptionalNone, true
	case opt:
		act.old, act.hasOld = types.OptionalOf(crdcel.UnstructuredToVal(normalize(req.OldSelf), sts)), true
	case req.OldSelf != nil:
		act.old, act.hasOld = crdcel.UnstructuredToVal(normalize(req.OldSelf), sts), true
	}
	return finish(response{OutType: "bool", EstMax: r.MaxCost}, r.Program, act)
}

type activation struct {
	self, old ref.Val
	hasOld    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "self":
		return a.self, true
	case "oldSelf":
		return a.old, a.hasOld
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// normalize turns JSON numbers that are integers into int64, as the apiserver's decoder
// does for unstructured objects.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
	}
	return v
}

// celgoType parses a type as cel-go formats it.
func celgoType(s string) (*types.Type, error) {
	s = strings.TrimSpace(s)
	name, args := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 && strings.HasSuffix(s, ")") {
		name, args = s[:i], s[i+1:len(s)-1]
	}
	var params []*types.Type
	depth, start := 0, 0
	for i := 0; i <= len(args) && args != ""; i++ {
		if i == len(args) || args[i] == ',' && depth == 0 {
			p, err := celgoType(args[start:i])
			if err != nil {
				return nil, err
			}
			params = append(params, p)
			start = i + 1
			continue
		}
		switch args[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	simple := map[string]*types.Type{"int": types.IntType, "uint": types.UintType, "double": types.DoubleType,
		"bool": types.BoolType, "string": types.StringType, "bytes": types.BytesType, "null_type": types.NullType,
		"dyn": types.DynType, "duration": types.DurationType, "timestamp": types.TimestampType,
		"google.protobuf.Duration": types.DurationType, "google.protobuf.Timestamp": types.TimestampType,
		"any": types.AnyType, "type": types.TypeType}
	switch {
	case name == "list" && len(params) == 1:
		return types.NewListType(params[0]), nil
	case name == "map" && len(params) == 2:
		return types.NewMapType(params[0], params[1]), nil
	case name == "type" && len(params) == 1:
		return types.NewTypeTypeWithParam(params[0]), nil
	case name == "optional_type" && len(params) == 1:
		return types.NewOptionalType(params[0]), nil
	case len(params) == 0 && simple[name] != nil:
		return simple[name], nil
	}
	return nil, fmt.Errorf("unknown type %q", s)
}

// decodeRef reads a protocol value as a cel-go value.
func decodeRef(j jv) (ref.Val, error) {
	a := types.DefaultTypeAdapter
	switch {
	case j.Int != nil:
		i, err := strconv.ParseInt(*j.Int, 10, 64)
		return types.Int(i), err
	case j.Uint != nil:
		u, err := strconv.ParseUint(*j.Uint, 10, 64)
		return types.Uint(u), err
	case j.Double != nil:
		switch *j.Double {
		case "NaN":
			return types.Double(math.NaN()), nil
		case "Infinity":
			return types.Double(math.Inf(1)), nil
		case "-Infinity":
			return types.Double(math.Inf(-1)), nil
		}
		f, err := strconv.ParseFloat(*j.Double, 64)
		return types.Double(f), err
	case j.String != nil:
		return types.String(*j.String), nil
	case j.Bytes != nil:
		b, err := base64.StdEncoding.DecodeString(*j.Bytes)
		return types.Bytes(b), err
	case j.Bool != nil:
		return types.Bool(*j.Bool), nil
	case j.Null:
		return types.NullValue, nil
	case j.Duration != nil:
		n, err := strconv.ParseInt(*j.Duration, 10, 64)
		return types.Duration{Duration: time.Duration(n)}, err
	case j.Timestamp != nil:
		t, err := time.Parse(time.RFC3339Nano, *j.Timestamp)
		return types.Timestamp{Time: t.UTC()}, err
	case j.List != nil:
		var out []ref.Val
		for _, e := range *j.List {
			v, err := decodeRef(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return types.NewRefValList(a, out), nil
	case j.Map != nil:
		m := map[ref.Val]ref.Val{}
		for _, e := range *j.Map {
			k, err := decodeRef(e.K)
			if err != nil {
				return nil, err
			}
			v, err := decodeRef(e.V)
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		return types.NewRefValMap(a, m), nil
	case j.Optional != nil:
		if j.Optional.Value == nil {
			return types.OptionalNone, nil
		}
		v, err := decodeRef(*j.Optional.Value)
		return types.OptionalOf(v), err
	}
	return nil, fmt.Errorf("cannot decode %s", j.key())
}

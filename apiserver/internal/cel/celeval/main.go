// Command celeval evaluates CEL expressions with this repository's interpreter for the
// checks in the tools module, which compare it with cel-go: the interpreter is internal to
// the main module, so the tools module talks to it over this line protocol. Each line of
// stdin is a JSON request; each line of stdout the JSON response.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/informer-lab/informer-lab/apiserver/internal/cel"
)

type request struct {
	Expr     string `json:"expr"`
	Vars     []jvar `json:"vars,omitempty"`
	NoCheck  bool   `json:"noCheck,omitempty"`
	NoMacros bool   `json:"noMacros,omitempty"`
	Limit    uint64 `json:"costLimit,omitempty"`
	Schema   any    `json:"schema,omitempty"`
	Self     any    `json:"self,omitempty"`
	OldSelf  any    `json:"oldSelf,omitempty"`
	// Root: the schema is a resource's root; OptionalOld: oldSelf is optional_type.
	Root        bool `json:"root,omitempty"`
	OptionalOld bool `json:"optionalOldSelf,omitempty"`
}

type jvar struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value *jv    `json:"value,omitempty"`
}

type response struct {
	CompileError string `json:"compileError,omitempty"`
	OutType      string `json:"outType,omitempty"`
	Value        *jv    `json:"value,omitempty"`
	EvalError    string `json:"evalError,omitempty"`
	Cost         uint64 `json:"cost"`
	EstMin       uint64 `json:"estMin"`
	EstMax       uint64 `json:"estMax"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "celeval:", err)
			os.Exit(2)
		}
		if err := enc.Encode(run(req)); err != nil {
			os.Exit(2)
		}
		out.Flush()
	}
}

func run(req request) (resp response) {
	var decls []cel.Var
	act := cel.Vars{}
	for _, v := range req.Vars {
		t, err := parseType(v.Type)
		if err != nil {
			return response{CompileError: err.Error()}
		}
		decls = append(decls, cel.Var{Name: v.Name, Type: t})
		if v.Value != nil {
			x, err := decode(*v.Value)
			if err != nil {
				return response{CompileError: err.Error()}
			}
			act[v.Name] = x
		}
	}
	env := cel.NewEnv(decls...)
	var activation cel.Activation = act
	if req.Schema != nil {
		s, ok := req.Schema.(map[string]any)
		if !ok {
			return response{CompileError: "schema is not an object"}
		}
		senv, err := cel.NewSchemaEnv(cel.SchemaFromJSON(s), req.Root, req.OptionalOld)
		if err != nil {
			return response{CompileError: err.Error()}
		}
		prog, rerr := senv.CompileRule(req.Expr)
		if rerr != nil {
			return response{CompileError: rerr.Detail}
		}
		return finish(prog, senv.Activation(req.Self, req.OldSelf), req)
	}
	prog, err := env.CompileWith(req.Expr, cel.CompileOptions{NoCheck: req.NoCheck, NoMacros: req.NoMacros})
	if err != nil {
		return response{CompileError: err.Error()}
	}
	return finish(prog, activation, req)
}

func finish(prog *cel.Program, activation cel.Activation, req request) (resp response) {
	resp.OutType = prog.OutputType().String()
	if !req.NoCheck {
		est := prog.EstimateCost()
		resp.EstMin, resp.EstMax = est.Min, est.Max
	}
	v, cost, err := prog.EvalWithCost(activation, req.Limit)
	resp.Cost = cost
	if err != nil {
		resp.EvalError = err.Error()
		return resp
	}
	e := encode(v)
	resp.Value = &e
	return resp
}

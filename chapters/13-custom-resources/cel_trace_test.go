package ch13_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// scalerCRD has the two rules the chapter follows: an object rule on spec
// (minReplicas <= maxReplicas) and a transition rule on spec.mode (self == oldSelf), and a
// third with a macro, all() over a bounded list.
const scalerCRD = `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
 "metadata": {"name": "scalers.example.com"},
 "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "scalers", "kind": "Scaler"},
  "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
   "type": "object", "properties": {"spec": {"type": "object",
    "x-kubernetes-validations": [{"rule": "self.minReplicas <= self.maxReplicas", "message": "minReplicas must not exceed maxReplicas"}],
    "properties": {
     "minReplicas": {"type": "integer"}, "maxReplicas": {"type": "integer"},
     "mode": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "mode is immutable"}]},
     "zones": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 16},
      "x-kubernetes-validations": [{"rule": "self.all(z, z.startsWith('eu-'))", "message": "zones must be in the EU"}]}}}}}}}]}}`

// celHops keeps the interpreter's hops (component cel) as "op key@rv attr=value …" lines,
// attributes in the order they were logged.
type celHops struct {
	mu    sync.Mutex
	lines []string
}

func (h *celHops) Enabled(context.Context, slog.Level) bool { return true }
func (h *celHops) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *celHops) WithGroup(string) slog.Handler            { return h }

func (h *celHops) Handle(_ context.Context, rec slog.Record) error {
	d := trace.Decode(trace.Scope{}, rec)
	if d.Component != "cel" {
		return nil
	}
	parts := []string{d.Op, d.Key + "@" + d.RV}
	for _, a := range d.Attrs {
		v := a.Value.String()
		if strings.ContainsAny(v, " \"") || v == "" {
			v = strconv.Quote(v)
		}
		parts = append(parts, a.Key+"="+v)
	}
	h.mu.Lock()
	h.lines = append(h.lines, strings.Join(parts, " "))
	h.mu.Unlock()
	return nil
}

// print prints the lines recorded since the last call that contain every one of only,
// and forgets them all.
func (h *celHops) print(only ...string) {
	for _, l := range h.take() {
		keep := true
		for _, o := range only {
			keep = keep && strings.Contains(l, o)
		}
		if keep {
			fmt.Println("  " + l)
		}
	}
}

// take returns the lines recorded since the last call, and forgets them.
func (h *celHops) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.lines
	h.lines = nil
	return out
}

// Example_celRuleTrace follows a CRD's validation rules through the interpreter: compiled
// once when the CRD is served (parse, macros, check, cost, estimate: key and rv are the
// CRD's), then run for each write of a Scaler (activation, eval, and skip for a transition
// rule with no old object; key and rv are the object's).
func Example_celRuleTrace() {
	hops := &celHops{}
	srv := apiserver.New(apiserver.Options{Logger: slog.New(hops)})
	ctx := context.Background()
	crd := &api.Unstructured{}
	check(json.Unmarshal([]byte(scalerCRD), crd))
	_, err := srv.Create(ctx, "customresourcedefinitions", "", crd)
	check(err)
	fmt.Println("CRD created; its rules compiled:")
	hops.print()

	scaler := &api.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Scaler",
		"metadata": map[string]any{"name": "web", "namespace": "default"},
		"spec":     map[string]any{"minReplicas": int64(1), "maxReplicas": int64(3), "mode": "fast", "zones": []any{"eu-west"}}}}
	_, err = srv.Create(ctx, "scalers.example.com", "default", scaler)
	fmt.Println("create web:", errText(err))
	hops.print()

	patch := func(p string) {
		_, err := srv.Patch(ctx, "scalers.example.com", "default", "web", api.MergePatchType, []byte(p))
		fmt.Printf("patch %s: %s\n", p, errText(err))
		hops.print()
	}
	patch(`{"spec":{"minReplicas":5}}`)
	patch(`{"spec":{"mode":"slow"}}`)

	// Ratcheting: a Scaler stored before a rule existed keeps its value until it changes.
	legacy := &api.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Scaler",
		"metadata": map[string]any{"name": "legacy", "namespace": "default"},
		"spec":     map[string]any{"minReplicas": int64(1), "maxReplicas": int64(20)}}}
	_, err = srv.Create(ctx, "scalers.example.com", "default", legacy)
	check(err)
	hops.take()
	_, err = srv.Patch(ctx, "customresourcedefinitions", "", "scalers.example.com", api.JSONPatchType, []byte(`[{"op": "add",
	 "path": "/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/-",
	 "value": {"rule": "self.maxReplicas <= 10", "message": "maxReplicas may not exceed 10"}}]`))
	check(err)
	fmt.Println("CRD updated: every rule compiled again; the new one:")
	hops.print("x-kubernetes-validations[1]")
	patch = func(p string) {
		_, err := srv.Patch(ctx, "scalers.example.com", "default", "legacy", api.MergePatchType, []byte(p))
		fmt.Printf("patch legacy %s: %s\n", p, errText(err))
		hops.print("field=spec ")
	}
	patch(`{"metadata":{"labels":{"tier":"gold"}}}`)
	patch(`{"spec":{"minReplicas":2}}`)
	// Output:
	// CRD created; its rules compiled:
	//   parse scalers.example.com@7 field=properties[spec].properties[mode].x-kubernetes-validations[0] expr="self == oldSelf" nodes=3
	//   macros scalers.example.com@7 field=properties[spec].properties[mode].x-kubernetes-validations[0] expanded="" comprehensions=0
	//   check scalers.example.com@7 field=properties[spec].properties[mode].x-kubernetes-validations[0] type=bool
	//   cost scalers.example.com@7 field=properties[spec].properties[mode].x-kubernetes-validations[0] min=3 max=314575
	//   estimate scalers.example.com@7 field=properties[spec].properties[mode].x-kubernetes-validations[0] runs=1 cost=314575 limit=10000000 transition=true
	//   parse scalers.example.com@7 field=properties[spec].properties[zones].x-kubernetes-validations[0] expr="self.all(z, z.startsWith('eu-'))" nodes=11
	//   macros scalers.example.com@7 field=properties[spec].properties[zones].x-kubernetes-validations[0] expanded=all comprehensions=1
	//   check scalers.example.com@7 field=properties[spec].properties[zones].x-kubernetes-validations[0] type=bool
	//   cost scalers.example.com@7 field=properties[spec].properties[zones].x-kubernetes-validations[0] min=2 max=17
	//   estimate scalers.example.com@7 field=properties[spec].properties[zones].x-kubernetes-validations[0] runs=1 cost=17 limit=10000000 transition=false
	//   parse scalers.example.com@7 field=properties[spec].x-kubernetes-validations[0] expr="self.minReplicas <= self.maxReplicas" nodes=5
	//   macros scalers.example.com@7 field=properties[spec].x-kubernetes-validations[0] expanded="" comprehensions=0
	//   check scalers.example.com@7 field=properties[spec].x-kubernetes-validations[0] type=bool
	//   cost scalers.example.com@7 field=properties[spec].x-kubernetes-validations[0] min=5 max=5
	//   estimate scalers.example.com@7 field=properties[spec].x-kubernetes-validations[0] runs=1 cost=5 limit=10000000 transition=false
	// create web: ok
	//   activation default/web@ field=spec self=selfType0 oldSelf=false
	//   eval default/web@ field=spec expr="self.minReplicas <= self.maxReplicas" result=true cost=5
	//   skip default/web@ field=spec.mode expr="self == oldSelf" reason="no oldSelf"
	//   activation default/web@ field=spec.zones self=list(string) oldSelf=false
	//   eval default/web@ field=spec.zones expr="self.all(z, z.startsWith('eu-'))" result=true cost=7
	// patch {"spec":{"minReplicas":5}}: Scaler.example.com "web" is invalid: spec: Invalid value: minReplicas must not exceed maxReplicas
	//   activation default/web@8 field=spec self=selfType0 oldSelf=true
	//   eval default/web@8 field=spec expr="self.minReplicas <= self.maxReplicas" result=false cost=5
	//   activation default/web@8 field=spec.mode self=string oldSelf=true
	//   eval default/web@8 field=spec.mode expr="self == oldSelf" result=true cost=3
	//   activation default/web@8 field=spec.zones self=list(string) oldSelf=true
	//   eval default/web@8 field=spec.zones expr="self.all(z, z.startsWith('eu-'))" result=true cost=7
	// patch {"spec":{"mode":"slow"}}: Scaler.example.com "web" is invalid: spec.mode: Invalid value: "slow": mode is immutable
	//   activation default/web@8 field=spec self=selfType0 oldSelf=true
	//   eval default/web@8 field=spec expr="self.minReplicas <= self.maxReplicas" result=true cost=5
	//   activation default/web@8 field=spec.mode self=string oldSelf=true
	//   eval default/web@8 field=spec.mode expr="self == oldSelf" result=false cost=3
	//   activation default/web@8 field=spec.zones self=list(string) oldSelf=true
	//   eval default/web@8 field=spec.zones expr="self.all(z, z.startsWith('eu-'))" result=true cost=7
	// CRD updated: every rule compiled again; the new one:
	//   parse scalers.example.com@10 field=properties[spec].x-kubernetes-validations[1] expr="self.maxReplicas <= 10" nodes=4
	//   macros scalers.example.com@10 field=properties[spec].x-kubernetes-validations[1] expanded="" comprehensions=0
	//   check scalers.example.com@10 field=properties[spec].x-kubernetes-validations[1] type=bool
	//   cost scalers.example.com@10 field=properties[spec].x-kubernetes-validations[1] min=3 max=3
	//   estimate scalers.example.com@10 field=properties[spec].x-kubernetes-validations[1] runs=1 cost=3 limit=10000000 transition=false
	// patch legacy {"metadata":{"labels":{"tier":"gold"}}}: ok
	//   activation default/legacy@9 field=spec self=selfType0 oldSelf=true
	//   eval default/legacy@9 field=spec expr="self.minReplicas <= self.maxReplicas" result=true cost=5
	//   eval default/legacy@9 field=spec expr="self.maxReplicas <= 10" result=false cost=3
	//   ratchet default/legacy@9 field=spec expr="self.maxReplicas <= 10" warning="spec: Invalid value: maxReplicas may not exceed 10"
	// patch legacy {"spec":{"minReplicas":2}}: Scaler.example.com "legacy" is invalid: spec: Invalid value: maxReplicas may not exceed 10
	//   activation default/legacy@11 field=spec self=selfType0 oldSelf=true
	//   eval default/legacy@11 field=spec expr="self.minReplicas <= self.maxReplicas" result=true cost=5
	//   eval default/legacy@11 field=spec expr="self.maxReplicas <= 10" result=false cost=3
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

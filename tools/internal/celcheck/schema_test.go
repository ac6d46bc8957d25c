package celcheck

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// crdSchema is a CRD root schema with the shapes CRD authors use: objects, maps, set and
// map lists, int-or-string, durations, dates, bytes, reserved and dashed names.
const crdSchema = `{
  "type": "object",
  "properties": {
    "spec": {
      "type": "object",
      "required": ["name"],
      "properties": {
        "minReplicas": {"type": "integer"},
        "maxReplicas": {"type": "integer"},
        "name": {"type": "string", "maxLength": 63},
        "image": {"type": "string"},
        "mode": {"type": "string", "enum": ["Auto", "Manual"]},
        "tags": {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 10}, "x-kubernetes-list-type": "set"},
        "ports": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {
          "name": {"type": "string"}, "port": {"type": "integer"}}}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
        "args": {"type": "array", "items": {"type": "string"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "ratio": {"type": "number"},
        "size": {"x-kubernetes-int-or-string": true},
        "timeout": {"type": "string", "format": "duration"},
        "created": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "data": {"type": "string", "format": "byte"},
        "enabled": {"type": "boolean"},
        "dash-name": {"type": "string"},
        "namespace": {"type": "string"},
        "memory": {"type": "string"},
        "nested": {"type": "object", "nullable": true, "properties": {"x": {"type": "integer"}, "y": {"type": "string"}}},
        "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"known": {"type": "string"}}}
      }
    },
    "status": {"type": "object", "properties": {"replicas": {"type": "integer"}, "conditions": {"type": "array",
      "items": {"type": "object", "properties": {"type": {"type": "string"}, "status": {"type": "string"}}}}}}
  }
}`

// crdRules are rules as CRDs write them (and some that the checker refuses).
var crdRules = []string{
	"self.spec.minReplicas <= self.spec.maxReplicas",
	"self.spec.name.matches('^[a-z]+$')",
	"self.spec.tags.all(t, t.matches('^[a-z]+$'))",
	"self.spec.ports.exists(p, p.port == 80)",
	"self.spec.ports.map(p, p.name).size() == size(self.spec.ports)",
	"self.spec.labels.all(k, k.startsWith('app'))",
	"'app' in self.spec.labels",
	"has(self.spec.image) ? self.spec.image.contains(':') : true",
	"self.spec.ratio < 1.5",
	"self.spec.size == 3 || self.spec.size == '50%'",
	"self.spec.timeout > duration('30s')",
	"self.spec.created < timestamp('2030-01-01T00:00:00Z')",
	"self.spec.day.getDayOfWeek() != 0",
	"size(self.spec.data) < 16",
	"self.spec.enabled",
	"self.spec.dash__dash__name != ''",
	"self.spec.__namespace__ == 'default'",
	"quantity(self.spec.memory).isLessThan(quantity('1Gi'))",
	"isQuantity(self.spec.memory)",
	"!has(self.spec.nested) || self.spec.nested.x > 0",
	"self.spec.nested.y.size() > 1",
	"self.spec.extra.known == 'x'",
	"self.spec.extra.unknown == 'x'",
	"self.status.replicas <= self.spec.maxReplicas",
	"self.status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')",
	"self.metadata.name.startsWith('foo')",
	"self.kind == 'Foo'",
	"self.spec.mode == 'Auto'",
	"self == oldSelf",
	"self.spec.name == oldSelf.spec.name",
	"self.spec.tags == oldSelf.spec.tags",
	"self.spec.ports == oldSelf.spec.ports",
	"self.spec.maxReplicas >= oldSelf.spec.maxReplicas",
	"self.spec.args.all(a, a.size() < 100)",
	"self.spec.args.all(a, self.spec.args.exists(b, a == b))",
	"self.spec.args.map(a, a + a).all(x, x.size() > 0)",
	"self.spec.args.filter(a, a.startsWith('-')).size() <= 3",
	"self.spec.labels.map(k, self.spec.labels[k]).exists(v, v == 'x')",
	"self.spec.tags + ['x'] == self.spec.tags",
	"(self.spec.ports + [{'name': 'a', 'port': 1}]).size() > 0",
	"self.spec.name.size() + self.spec.minReplicas",
	"self.spec.nope == 1",
	"self.spec.minReplicas == 'a'",
	"self.spec.name.lowerAscii() == self.spec.name",
	"self.spec.args.join(',').size() < 1000",
	"url(self.spec.image).getHost() == 'k8s.io'",
	"self.spec.minReplicas.all(x, true)",
	"oldSelf.spec.minReplicas == 1",
	"self.spec.tags.sort() == self.spec.tags",
	"self.spec.args.sortBy(a, a.size()).size() >= 0",
	"sets.contains(self.spec.args, self.spec.tags)",
	"self.spec.ports.all(p, p.port > 0 && p.port < 65536)",
	"self.spec.labels.size() <= 10",
	"format.dns1123Label().validate(self.spec.name).hasValue() == false",
	"self.spec.?image.orValue('none') != ''",
	"self.spec.ports[0].name == 'http'",
	"self.spec.args[1] == 'x'",
	"self.spec.labels['app'] == 'web'",
	"type(self.spec.size) == int",
	"self.spec.timeout.getSeconds() < 3600",
}

func crdObject(r *rand.Rand) map[string]any {
	spec := map[string]any{"name": pickS(r, "web", "Web", "a-b", "x")}
	maybe := func(k string, v any) {
		if r.Intn(4) != 0 {
			spec[k] = v
		}
	}
	maybe("minReplicas", float64(r.Intn(5)))
	maybe("maxReplicas", float64(r.Intn(5)))
	maybe("image", pickS(r, "k8s.io/app:1", "https://k8s.io/x", "nginx", "://bad"))
	maybe("mode", pickS(r, "Auto", "Manual"))
	maybe("tags", pickL(r, []any{}, []any{"a", "b"}, []any{"b", "a"}, []any{"Up"}))
	maybe("ports", pickL(r, []any{}, []any{map[string]any{"name": "http", "port": float64(80)}},
		[]any{map[string]any{"name": "a", "port": float64(1)}, map[string]any{"name": "http", "port": float64(8080)}}))
	maybe("args", pickL(r, []any{}, []any{"-v", "x"}, []any{"a", "b", "c"}))
	maybe("labels", []map[string]any{{}, {"app": "web"}, {"app": "x", "tier": "db"}}[r.Intn(3)])
	maybe("ratio", []any{0.5, float64(2), 1.25}[r.Intn(3)])
	maybe("size", []any{float64(3), "50%", float64(7)}[r.Intn(3)])
	maybe("timeout", pickS(r, "10s", "1h", "1 hour", "5m30s"))
	maybe("created", pickS(r, "2024-01-02T03:04:05Z", "2031-01-01T00:00:00.5+02:00", "2020-02-02T02:02:02"))
	maybe("day", pickS(r, "2024-01-07", "2024-01-08"))
	maybe("data", pickS(r, "YWJj", "", "aGVsbG8gd29ybGQ="))
	maybe("enabled", r.Intn(2) == 0)
	maybe("dash-name", pickS(r, "", "d"))
	maybe("namespace", pickS(r, "default", "kube-system"))
	maybe("memory", pickS(r, "512Mi", "2Gi", "1.5", "bad"))
	if r.Intn(5) == 0 {
		spec["nested"] = nil
	} else {
		maybe("nested", map[string]any{"x": float64(r.Intn(3) - 1), "y": pickS(r, "a", "bb")})
	}
	maybe("extra", map[string]any{"known": "x", "unknown": "y"})
	obj := map[string]any{"apiVersion": "example.com/v1", "kind": pickS(r, "Foo", "Bar"),
		"metadata": map[string]any{"name": pickS(r, "foo-1", "bar")}, "spec": spec}
	if r.Intn(2) == 0 {
		obj["status"] = map[string]any{"replicas": float64(r.Intn(5)), "conditions": []any{
			map[string]any{"type": "Ready", "status": pickS(r, "True", "False")}}}
	}
	return obj
}

func pickS(r *rand.Rand, xs ...string) string { return xs[r.Intn(len(xs))] }
func pickL(r *rand.Rand, xs ...[]any) []any   { return xs[r.Intn(len(xs))] }

// TestCh13_CEL_CRDRuleDifferential compiles and runs CRD rules on generated objects with
// apiextensions-apiserver's own Compile and value conversion, and with ours: the compile
// errors, the estimated cost (MaxCost), the results and errors must agree.
func TestCh13_CEL_CRDRuleDifferential(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal([]byte(crdSchema), &schema); err != nil {
		t.Fatal(err)
	}
	o := startOurs(t)
	k := newK8s()
	r := rand.New(rand.NewSource(2))
	var diffs, msgDiffs []string
	cases, compileErrs := 0, 0
	for _, rule := range crdRules {
		for n := 0; n < 20; n++ {
			obj, old := crdObject(r), crdObject(r)
			req := request{Expr: rule, Schema: schema, Root: true, Self: obj, Limit: celconfig.PerCallLimit}
			switch n % 3 {
			case 1:
				req.OldSelf = old
			case 2:
				req.OldSelf, req.OptionalOld = old, true
			}
			ref := k.eval(req)
			mine, err := o.eval(req)
			if err != nil {
				t.Fatal(err)
			}
			cases++
			if ref.CompileError != "" {
				compileErrs++
			}
			mine.EstMin = 0 // Kubernetes keeps only the maximum.
			d, md := diffOutcome(ref, mine)
			if d != "" {
				diffs = append(diffs, fmt.Sprintf("%s (oldSelf: %v, optional: %v)\n    %s", rule, req.OldSelf != nil, req.OptionalOld, d))
			}
			if md != "" && !strings.Contains(md, "cel-go \"internal error") {
				msgDiffs = append(msgDiffs, fmt.Sprintf("%s\n    %s", rule, md))
			}
			if ref.CompileError != "" {
				break
			}
		}
	}
	t.Logf("CRD rules: %d cases of %d rules (%d refused at compile time), %d differences, %d differing messages",
		cases, len(crdRules), compileErrs, len(diffs), len(msgDiffs))
	if len(msgDiffs) > 0 {
		t.Logf("differing messages:\n%s", strings.Join(first(dedupe(msgDiffs), 20), "\n"))
	}
	if len(diffs) > 0 {
		t.Errorf("%d differences:\n%s", len(diffs), strings.Join(first(dedupe(diffs), 30), "\n"))
	}
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

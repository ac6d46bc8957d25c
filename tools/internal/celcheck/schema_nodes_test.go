package celcheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// nodeCases are rules placed below the root, where self is a scalar, a list, a map, an
// embedded resource or an object that keeps unknown fields.
var nodeCases = []struct {
	schema string
	values []string
	rules  []string
}{
	{`{"type": "string", "maxLength": 10}`, []string{`"abc"`, `"ABC-1"`, `""`},
		[]string{"self.matches('^[a-z]*$')", "self.size() <= 5", "self == oldSelf", "self.startsWith(oldSelf)", "self + 1 == 2"}},
	{`{"type": "integer", "minimum": 0}`, []string{`0`, `5`, `-3`},
		[]string{"self >= 0", "self > oldSelf", "self % 2 == 0", "self == 1.0", "double(self) / 2.0 > 1.0"}},
	{`{"type": "array", "items": {"type": "integer"}, "maxItems": 4}`, []string{`[]`, `[1, 2]`, `[3, 1, 2]`},
		[]string{"self.all(x, x > 0)", "self.isSorted()", "size(self) <= 3", "self == oldSelf", "self.sum() < 10", "oldSelf.all(x, x in self)"}},
	{`{"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 3}`, []string{`{}`, `{"a": "x"}`, `{"a": "x", "b": "y"}`},
		[]string{"self.all(k, self[k] != '')", "'a' in self", "self.size() < 3", "self == oldSelf", "self.a == 'x'", "has(self.a)"}},
	{`{"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "string"}}}`,
		[]string{`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": "s"}`, `{"apiVersion": "v1", "kind": "X", "spec": "t"}`},
		[]string{"self.kind == 'Pod'", "self.metadata.name == 'p'", "self.apiVersion.startsWith('v')", "self.spec == oldSelf.spec", "has(self.metadata.name)"}},
	{`{"type": "object", "x-kubernetes-preserve-unknown-fields": true}`, []string{`{}`, `{"a": 1}`},
		[]string{"self.a == 1", "size(self) >= 0", "self == oldSelf"}},
	{`{"type": "array", "items": {"type": "string", "format": "date-time"}}`, []string{`["2024-01-01T00:00:00Z"]`, `[]`},
		[]string{"self.all(t, t > timestamp('2020-01-01T00:00:00Z'))", "self.size() == 0 || self[0].getFullYear() == 2024"}},
}

// TestCh13_CEL_SchemaNodeDifferential runs rules on schema nodes below the root through
// apiextensions-apiserver and ours.
func TestCh13_CEL_SchemaNodeDifferential(t *testing.T) {
	o := startOurs(t)
	k := newK8s()
	var diffs []string
	cases := 0
	for _, c := range nodeCases {
		var schema map[string]any
		if err := json.Unmarshal([]byte(c.schema), &schema); err != nil {
			t.Fatal(err)
		}
		for _, rule := range c.rules {
			for _, self := range c.values {
				for _, old := range append([]string{""}, c.values...) {
					req := request{Expr: rule, Schema: schema, Self: decodeJSON(t, self), Limit: celconfig.PerCallLimit}
					if old != "" {
						req.OldSelf = decodeJSON(t, old)
					}
					ref := k.eval(req)
					mine, err := o.eval(req)
					if err != nil {
						t.Fatal(err)
					}
					cases++
					mine.EstMin = 0
					if d, md := diffOutcome(ref, mine); d != "" || md != "" {
						diffs = append(diffs, fmt.Sprintf("%s on %s (self %s, oldSelf %q): %s%s", rule, c.schema, self, old, d, md))
					}
				}
			}
		}
	}
	t.Logf("schema nodes: %d cases, %d differences", cases, len(diffs))
	if len(diffs) > 0 {
		t.Errorf("differences:\n%s", strings.Join(first(dedupe(diffs), 30), "\n"))
	}
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

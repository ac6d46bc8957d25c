package cel

import (
	"testing"
)

// FuzzCELCompileEval runs any input through the parser, the checker, the cost estimator
// and, when the estimated cost is within Kubernetes' per-rule limit, the evaluator with the
// per-call cost limit: nothing may panic, and the work is bounded by those limits.
func FuzzCELCompileEval(f *testing.F) {
	for _, seed := range []string{
		"self.minReplicas <= self.maxReplicas", "l.all(x, x > 0)", "m.exists(k, m[k] == s)",
		"s.matches('^[a-z]+$') ? i : -i", "[1, 2u, 3.0]", "{'a': [1, 2]}.a[1] / 0",
		"d.?x.orValue(1) + int(s)", "timestamp('2023-01-01T00:00:00Z') + duration('1h')",
		"quantity('1Gi').isLessThan(quantity(s))", "l.map(x, x * 2).filter(y, y % 3 == 0).sum()",
		"'%s-%d'.format([s, i])", "b'\\xff' + bytes(s)", "has(d.x) || d in [1, 'a']",
		"r'''\\d'''.size() == 2 && \"\"\"a\nb\"\"\".contains('\\n')", "l.sortBy(x, -x)[0]",
		"!!true && --1 == 1 && -(-9223372036854775807) > 0", "a.b.c(", "`x`", "0x1Fu + 07",
	} {
		f.Add(seed)
	}
	env := NewEnv(Var{"i", IntType}, Var{"s", StringType}, Var{"l", ListType(IntType)},
		Var{"m", MapType(StringType, StringType)}, Var{"d", DynType}, Var{"self", DynType})
	vars := Vars{"i": int64(3), "s": "ab1", "l": NewList([]Value{int64(1), int64(2), int64(3)}),
		"m": NewMap([]Value{"a"}, []Value{"ab1"}), "d": NewMap([]Value{"x"}, []Value{int64(2)}),
		"self": NewMap([]Value{"minReplicas", "maxReplicas"}, []Value{int64(1), int64(2)})}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := env.Compile(src)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("empty compile error for %q", src)
			}
			return
		}
		if p.EstimateCost().Max > StaticEstimatedCostLimit {
			return
		}
		v, cost, err := p.EvalWithCost(vars, PerCallLimit)
		if err == nil && v == nil {
			t.Fatalf("no value and no error for %q", src)
		}
		if err == ErrCostLimit && cost <= PerCallLimit {
			t.Fatalf("cost limit reported at cost %d for %q", cost, src)
		}
		if err == nil {
			checkResultType(t, src, p.OutputType(), v)
		}
	})
}

// checkResultType checks that a value agrees with the checked type of the expression.
func checkResultType(t *testing.T, src string, want *Type, v Value) {
	t.Helper()
	switch want.Kind {
	case IntKind, UintKind, DoubleKind, BoolKind, StringKind, BytesKind, ListKind, MapKind, DurationKind, TimestampKind:
		if got := typeOfValue(v); got.Kind != want.Kind {
			t.Fatalf("%q: checked type %s, value of type %s", src, want, got)
		}
	}
}

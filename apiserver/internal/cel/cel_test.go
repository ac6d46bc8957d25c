package cel

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// show renders a result for comparison: the value, or "error: <message>".
func show(v Value, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case uint64:
		return fmt.Sprintf("%du", x)
	case float64:
		return fmt.Sprintf("%gd", x)
	case Bytes:
		return fmt.Sprintf("b%q", string(x))
	case List:
		var parts []string
		for i := 0; i < x.Len(); i++ {
			parts = append(parts, show(x.At(i), nil))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case Optional:
		if !x.Ok {
			return "optional.none()"
		}
		return "optional.of(" + show(x.V, nil) + ")"
	}
	return formatValue(v)
}

func evalString(t *testing.T, env *Env, src string, vars Vars) string {
	t.Helper()
	p, err := env.Compile(src)
	if err != nil {
		return "compile: " + err.Error()
	}
	return show(p.Eval(vars))
}

func TestCh13_CEL_Semantics(t *testing.T) {
	env := NewEnv(Var{"i", IntType}, Var{"s", StringType}, Var{"l", ListType(IntType)}, Var{"d", DynType})
	vars := Vars{"i": int64(7), "s": "abc", "l": NewList([]Value{int64(3), int64(1), int64(2)}), "d": "x"}
	tests := []struct{ expr, want string }{
		{"1 + 2 * 3 - 4 / 2 % 3", "5"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"9223372036854775807 + 1", "error: integer overflow"},
		{"-(-9223372036854775807 - 1)", "error: integer overflow"},
		{"18446744073709551615u + 1u", "error: unsigned integer overflow"},
		{"1 / 0", "error: division by zero"},
		{"1 % 0", "error: modulus by zero"},
		{"1.0 / 0.0", "+Infd"},
		{"1 == dyn(1u) && dyn(1u) == 1.0 && 2 < 2.5 && 3u > -1", "true"},
		{"1 == 1u", "compile: ERROR: <input>:1:3: found no matching overload for '_==_' applied to '(int, uint)'\n | 1 == 1u\n | ..^"},
		{"dyn(1) == 'a'", "false"},
		{"[1, 2] == [1, 2.0]", "compile: ERROR: <input>:1:15: expected type 'int' but found 'double'\n | [1, 2] == [1, 2.0]\n | ..............^"},
		{"[1, 2] == [dyn(1), dyn(2.0)]", "true"},
		{"{'a': 1} == {'a': 1.0}", "compile: ERROR: <input>:1:10: found no matching overload for '_==_' applied to '(map(string, int), map(string, double))'\n | {'a': 1} == {'a': 1.0}\n | .........^"},
		{"1 / 0 == 1 || true", "true"},
		{"true || 1 / 0 == 1", "true"},
		{"false && d", "false"},
		{"d && false", "false"},
		{"d || true", "true"},
		{"d || false", "error: no such overload"},
		{"i in l || 2 in l", "true"},
		{"'b' in {'a': 1}", "false"},
		{"l.all(x, x > 0) && l.exists(x, x == 2) && l.exists_one(x, x > 2)", "true"},
		{"l.map(x, x * 2)", "[6, 2, 4]"},
		{"l.map(x, x > 1, x * 10)", "[30, 20]"},
		{"l.filter(x, x % 2 == 1)", "[3, 1]"},
		{"l.all(x, 10 / (x - 1) > 0)", "error: division by zero"},
		{"l.exists(x, 10 / (x - 1) > 0)", "true"},
		{"has({'a': 1}.a) && !has({'a': 1}.b)", "true"},
		{"{'a': 1}.b", "error: no such key: b"},
		{"l[5]", "error: index out of bounds: 5"},
		{"int('12') + int(3.9) + int(2u)", "17"},
		{"int('x')", "compile: program instantiation failed: type conversion error from 'string' to 'int'"},
		{"uint(-1 + i - i)", "error: unsigned integer overflow"},
		{"string(1.5) + string(2u) + string(true) + string(b'hi')", `"1.52truehi"`},
		{"double('1e3')", "1000d"},
		{"bytes('é')", `b"é"`},
		{"type(1) == int && type('a') == string && type([]) == list && type(null) == null_type", "true"},
		{"type(type(1))", "type"},
		{"duration('1h30m') + duration('30m') == duration('2h')", "true"},
		{"string(duration('90s'))", `"90s"`},
		{"timestamp('2023-03-04T05:06:07Z') + duration('1h')", "2023-03-04 06:06:07 +0000 UTC"},
		{"timestamp('2023-03-04T05:06:07Z').getHours('America/New_York')", "0"},
		{"timestamp('2023-03-04T05:06:07Z').getDayOfWeek()", "6"},
		{"timestamp('2023-03-04T05:06:07Z').getMonth('+09:00')", "2"},
		{"timestamp('2023-01-01T00:00:00Z') - timestamp('2022-12-31T23:00:00Z') == duration('1h')", "true"},
		{"timestamp('9999-12-31T23:59:59Z') + duration('1s')", "error: timestamp overflow"},
		{"duration('bad')", "compile: ERROR: <input>:1:10: invalid duration argument\n | duration('bad')\n | .........^"},
		{"s.matches('^[a-z]+$') && !s.matches('^[A-Z]')", "true"},
		{"s.startsWith('a') && s.endsWith('c') && s.contains('b') && size(s) == 3", "true"},
		{"'héllo'.size()", "5"},
		{"r'\\d' + '''a\nb''' + \"\\u00e9\"", `"\\da\nbé"`},
		{"b'\\xff' == bytes('\\xff')", "false"},
		{"0x10 + 010", "26"},
		{"optional.of(1).orValue(2) + optional.none().orValue(3)", "4"},
		{"{'a': 1}.?b.orValue(5) + {'a': 1}.?a.value()", "6"},
		{"[1, 2][?5].hasValue()", "false"},
		{"[?optional.none(), ?optional.of(1), 2]", "[1, 2]"},
		{"optional.none().value()", "error: optional.none() dereference"},
		{"optional.none().or(optional.of(i)).value()", "7"},
		{"optional.ofNonZeroValue('')", "optional.none()"},
		{"l.all(x, y, x >= 0 && y > 0)", "true"},
		{"l.transformList(i, v, v * i)", "[0, 1, 4]"},
		{"{'a': 1, 'b': 2}.transformMap(k, v, v + 1)['b']", "3"},
		{"true ? 1 : dyn('a')", "1"},
		{"d ? 1 : 2", "error: no such overload"},
		{"1 + 'a'", "compile: ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a'\n | ..^"},
		{"'abc'.size(1)", "compile: ERROR: <input>:1:11: found no matching overload for 'size' applied to 'string.(int)'\n | 'abc'.size(1)\n | ..........^"},
		{"foo.bar", "compile: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^"},
		{"i.foo", "compile: ERROR: <input>:1:2: type 'int' does not support field selection\n | i.foo\n | .^"},
		{"[1, 'a']", "compile: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a']\n | ....^"},
		{"s.substring(1) + s.charAt(0) + s.upperAscii() + ' x '.trim()", `"bcaABCx"`},
		{"'a,b,c'.split(',').join('-')", `"a-b-c"`},
		{"'%s has %d items costing %.2f'.format(['cart', 3, 1234.5])", `"cart has 3 items costing 1,234.50"`},
		{"'%d'.format(['x'])", "compile: ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n | '%d'.format(['x'])\n | .............^"},
		{"strings.quote('a\"b')", `"\"a\\\"b\""`},
		{"s.indexOf('c') + s.lastIndexOf('a') + s.indexOf('z')", "1"},
		{"l.isSorted() || l.sort().isSorted()", "true"},
		{"l.sum() + l.max() - l.min()", "8"},
		{"[].max()", "error: max called on empty list"},
		{"l.sortBy(x, -x)", "[3, 2, 1]"},
		{"[[1], [2, 3]].flatten()", "[1, 2, 3]"},
		{"[1, 2, 1].distinct().reverse()", "[2, 1]"},
		{"l.slice(1, 3) + lists.range(2)", "[1, 2, 0, 1]"},
		{"sets.contains(l, [1]) && sets.intersects(l, [9, 3]) && sets.equivalent([1, 2, 2], [2, 1])", "true"},
		{"'abc123def'.find('[0-9]+') + 'x'.find('y')", `"123"`},
		{"'a1b2'.findAll('[0-9]')", `["1", "2"]`},
		{"url('https://example.com:8443/p?q=1').getPort() + url('https://example.com/a%20b').getEscapedPath()", `"8443/a%20b"`},
		{"isURL('/x') && !isURL('x')", "true"},
		{"quantity('1.5Gi').isGreaterThan(quantity('1G')) && quantity('100m').compareTo(quantity('0.1')) == 0", "true"},
		{"quantity('2k').asInteger() + quantity('1').add(2).asInteger()", "2003"},
		{"quantity('1.5').isInteger() || quantity('1.5').asApproximateFloat() == 1.5", "true"},
		{"quantity('1.5').asInteger()", "error: cannot convert value to integer"},
		{"quantity('1e')", "error: unable to parse quantity's suffix"},
		{"quantity('1.2.3')", "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"ip('10.1.2.3').family() == 4 && cidr('10.0.0.0/8').containsIP('10.1.2.3') && cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", "true"},
		{"string(cidr('10.1.2.3/8').masked()) + ' ' + string(ip('::1'))", `"10.0.0.0/8 ::1"`},
		{"ip('::ffff:1.2.3.4')", `error: IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed`},
		{"format.dns1123Label().validate('my-name').hasValue() || format.named('nope').hasValue()", "false"},
		{"semver('1.2.3-rc.1').isLessThan(semver('1.2.3')) && semver('v1.2', true).minor() == 2", "true"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			assert.Equal(t, tt.want, evalString(t, env, tt.expr, vars))
		})
	}
}

// TestCh13_CEL_SyntaxErrors checks the first syntax error against cel-go's text (cel-go's
// ANTLR parser may go on and report more).
func TestCh13_CEL_SyntaxErrors(t *testing.T) {
	env := NewEnv()
	tests := []struct{ expr, want string }{
		{"1 +", "ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 +\n | ...^"},
		{"a # b", "ERROR: <input>:1:3: Syntax error: token recognition error at: '#'\n | a # b\n | ..^"},
		{"(1", "ERROR: <input>:1:3: Syntax error: missing ')' at '<EOF>'\n | (1\n | ..^"},
		{"self.", "ERROR: <input>:1:6: Syntax error: no viable alternative at input '.'\n | self.\n | .....^"},
		{"{1: 2", "ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting {'}', ','}\n | {1: 2\n | .....^"},
		{"!", "ERROR: <input>:1:2: Syntax error: extraneous input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | !\n | .^"},
		{"has(a)", "ERROR: <input>:1:5: invalid argument to has() macro\n | has(a)\n | ....^"},
		{"[1].all(1, true)", "ERROR: <input>:1:9: argument must be a simple name\n | [1].all(1, true)\n | ........^"},
		{"if", "ERROR: <input>:1:1: reserved identifier: if\n | if\n | ^"},
		{"'\\q'", "ERROR: <input>:1:1: Syntax error: token recognition error at: ''\\q'\n | '\\q'\n | ^"},
		{strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), "ERROR: <input>:1:251: expression recursion limit exceeded: 250"},
	}
	for _, tt := range tests {
		t.Run(tt.expr[:min(len(tt.expr), 20)], func(t *testing.T) {
			_, err := env.Compile(tt.expr)
			require.Error(t, err)
			got := err.Error()
			if len(got) > len(tt.want) && strings.HasPrefix(tt.want, "ERROR: <input>:1:251") {
				got = got[:len(tt.want)]
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// crdSchema is a CRD's root schema, the shape the CRD validation hands over.
const crdSchema = `{"type": "object", "properties": {"spec": {"type": "object", "properties": {
  "minReplicas": {"type": "integer"}, "maxReplicas": {"type": "integer"},
  "name": {"type": "string", "maxLength": 63},
  "tags": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 20}, "x-kubernetes-list-type": "set"},
  "ports": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}},
    "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
  "args": {"type": "array", "items": {"type": "string"}},
  "memory": {"type": "string"}, "size": {"x-kubernetes-int-or-string": true},
  "timeout": {"type": "string", "format": "duration"}, "dash-name": {"type": "string"}}}}}`

func schemaEnv(t *testing.T, optionalOld bool) *SchemaEnv {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(crdSchema), &m))
	env, err := NewSchemaEnv(SchemaFromJSON(m), true, optionalOld)
	require.NoError(t, err)
	return env
}

func object(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

func TestCh13_CEL_CRDRules(t *testing.T) {
	obj := object(t, `{"apiVersion": "v1", "kind": "Foo", "metadata": {"name": "foo"}, "spec": {"minReplicas": 3, "maxReplicas": 2,
	  "name": "web", "tags": ["a", "b"], "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
	  "memory": "512Mi", "size": "50%", "timeout": "90s", "dash-name": "d"}}`)
	old := object(t, `{"apiVersion": "v1", "kind": "Foo", "metadata": {"name": "foo"}, "spec": {"minReplicas": 1, "maxReplicas": 2,
	  "name": "web", "tags": ["b", "a"], "ports": [{"name": "https", "port": 443}, {"name": "http", "port": 80}]}}`)
	tests := []struct {
		rule        string
		optionalOld bool
		old         map[string]any
		want        string
	}{
		{rule: "self.spec.minReplicas <= self.spec.maxReplicas", want: "false"},
		{rule: "self.spec.tags.all(x, x.matches('^[a-z]+$'))", want: "true"},
		{rule: "quantity(self.spec.memory).isLessThan(quantity('1Gi'))", want: "true"},
		{rule: "self.spec.size == '50%'", want: "true"},
		{rule: "self.spec.timeout < duration('2m')", want: "true"},
		{rule: "self.spec.dash__dash__name == 'd' && self.metadata.name == 'foo' && self.kind == 'Foo'", want: "true"},
		{rule: "self.spec.args.size() == 0", want: "error: no such key: args"},
		{rule: "!has(self.spec.args) || self.spec.args.size() == 0", want: "true"},
		{rule: "self.spec.tags == oldSelf.spec.tags && self.spec.ports == oldSelf.spec.ports", old: old, want: "true"},
		{rule: "['b', 'a'] == self.spec.tags", want: "false"},
		{rule: "self.spec.tags == ['b', 'a']", want: "true"},
		{rule: "(self.spec.tags + ['a', 'c']).size() == 3", want: "true"},
		{rule: "self.spec.minReplicas >= oldSelf.spec.minReplicas", old: old, want: "true"},
		{rule: "oldSelf.hasValue()", optionalOld: true, want: "false"},
		{rule: "!oldSelf.hasValue() || self.spec.name == oldSelf.value().spec.name", optionalOld: true, old: old, want: "true"},
		{rule: "self.spec.nope == 1", want: "compile: compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | self.spec.nope == 1\n | .........^"},
		{rule: "self.spec.minReplicas + 1", want: "compile: cel expression must evaluate to a bool"},
		{rule: "self.spec.name + 1 == ''", want: "compile: compilation failed: ERROR: <input>:1:16: found no matching overload for '_+_' applied to '(string, int)'\n | self.spec.name + 1 == ''\n | ...............^"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			env := schemaEnv(t, tt.optionalOld)
			p, rerr := env.CompileRule(tt.rule)
			if rerr != nil {
				assert.Equal(t, tt.want, "compile: "+rerr.Detail)
				return
			}
			var oldObj any
			if tt.old != nil {
				oldObj = tt.old
			}
			assert.Equal(t, tt.want, show(p.Eval(env.Activation(obj, oldObj))))
			assert.Equal(t, tt.old != nil && !tt.optionalOld, p.Uses(OldScopedVarName) && !tt.optionalOld)
		})
	}
}

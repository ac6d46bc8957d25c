package celcheck

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
)

// gen builds random CEL expressions of a requested type over a fixed set of variables,
// mixing well-typed expressions with some that the checker refuses or that fail at run
// time (overflow, division by zero, missing keys, bad conversions).
type gen struct {
	r     *rand.Rand
	depth int
	// iter is the set of comprehension variables in scope, by type.
	iter map[string][]string
	n    int
}

// genVars are the variables every generated expression may use.
var genVars = []jvar{
	{Name: "i", Type: "int"}, {Name: "j", Type: "int"}, {Name: "u", Type: "uint"}, {Name: "d", Type: "double"},
	{Name: "s", Type: "string"}, {Name: "t", Type: "string"}, {Name: "b", Type: "bool"}, {Name: "by", Type: "bytes"},
	{Name: "l", Type: "list(int)"}, {Name: "ls", Type: "list(string)"}, {Name: "m", Type: "map(string, int)"},
	{Name: "dur", Type: "google.protobuf.Duration"}, {Name: "ts", Type: "google.protobuf.Timestamp"},
	{Name: "dy", Type: "dyn"}, {Name: "o", Type: "optional_type(int)"},
}

func (g *gen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// values draws an activation for genVars.
func (g *gen) values() []jvar {
	out := make([]jvar, len(genVars))
	copy(out, genVars)
	ints := []int64{0, 1, -1, 2, 3, 7, 10, 42, -5, 100, math.MaxInt64, math.MinInt64, 1 << 32}
	strs := []string{"", "a", "abc", "Hello World", "k8s.io", "a-b_c", "héllo", "  pad  ", "10.0.0.1", "1.2.3", "x,y,z", "AbC"}
	for k := range out {
		var v jv
		switch out[k].Type {
		case "int":
			v = jv{Int: ptr(strconv.FormatInt(ints[g.r.Intn(len(ints))], 10))}
		case "uint":
			v = jv{Uint: ptr(strconv.FormatUint([]uint64{0, 1, 2, 9, 255, math.MaxUint64}[g.r.Intn(6)], 10))}
		case "double":
			v = jv{Double: ptr(fmtDouble([]float64{0, 0.5, -1.5, 3, 1e300, math.NaN(), math.Inf(1), 2.75}[g.r.Intn(8)]))}
		case "string":
			v = jv{String: ptr(strs[g.r.Intn(len(strs))])}
		case "bool":
			v = jv{Bool: ptr(g.chance(0.5))}
		case "bytes":
			v = jv{Bytes: ptr([]string{"", "YWJj", "/w=="}[g.r.Intn(3)])}
		case "list(int)":
			var l []jv
			for n := g.r.Intn(5); n > 0; n-- {
				l = append(l, jv{Int: ptr(strconv.FormatInt(ints[g.r.Intn(10)], 10))})
			}
			if l == nil {
				l = []jv{}
			}
			v = jv{List: &l}
		case "list(string)":
			var l []jv
			for n := g.r.Intn(4); n > 0; n-- {
				l = append(l, jv{String: ptr(strs[g.r.Intn(len(strs))])})
			}
			if l == nil {
				l = []jv{}
			}
			v = jv{List: &l}
		case "map(string, int)":
			es := []jentry{}
			for _, k := range []string{"a", "b", "c"} {
				if g.chance(0.6) {
					es = append(es, jentry{K: jv{String: ptr(k)}, V: jv{Int: ptr(strconv.FormatInt(ints[g.r.Intn(10)], 10))}})
				}
			}
			v = jv{Map: &es}
		case "google.protobuf.Duration":
			v = jv{Duration: ptr(strconv.FormatInt([]int64{0, 1e9, 90e9, -3600e9, 1500e6}[g.r.Intn(5)], 10))}
		case "google.protobuf.Timestamp":
			v = jv{Timestamp: ptr([]string{"2023-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59.5Z"}[g.r.Intn(3)])}
		case "dyn":
			v = []jv{{Int: ptr("3")}, {String: ptr("x")}, {Double: ptr("1.5")}, {Uint: ptr("3")}, {Bool: ptr(true)}}[g.r.Intn(5)]
		case "optional_type(int)":
			if g.chance(0.5) {
				v = jv{Optional: &jopt{}}
			} else {
				x := jv{Int: ptr("4")}
				v = jv{Optional: &jopt{Value: &x}}
			}
		}
		out[k].Value = &v
	}
	return out
}

func (g *gen) enter() bool {
	g.depth++
	return g.depth < 5
}

func (g *gen) leave() { g.depth-- }

func (g *gen) freshVar() string {
	g.n++
	return fmt.Sprintf("x%d", g.n)
}

// withIter generates body with a new iteration variable of type t in scope.
func (g *gen) withIter(t string, body func(v string) string) string {
	v := g.freshVar()
	g.iter[t] = append(g.iter[t], v)
	s := body(v)
	g.iter[t] = g.iter[t][:len(g.iter[t])-1]
	return s
}

func (g *gen) iterOf(t string) (string, bool) {
	if vs := g.iter[t]; len(vs) > 0 {
		return vs[g.r.Intn(len(vs))], true
	}
	return "", false
}

// expr returns an expression of type t: int, uint, double, string, bool, bytes,
// list(int), list(string), duration, timestamp, or any.
func (g *gen) expr(t string) string {
	if !g.enter() {
		g.leave()
		return g.leaf(t)
	}
	defer g.leave()
	if g.chance(0.25) {
		return g.leaf(t)
	}
	if g.chance(0.08) {
		return fmt.Sprintf("(%s ? %s : %s)", g.expr("bool"), g.expr(t), g.expr(t))
	}
	switch t {
	case "int":
		return g.intExpr()
	case "uint":
		return g.pick(
			fmt.Sprintf("(%s %s %s)", g.expr("uint"), g.pick("+", "-", "*", "/", "%"), g.expr("uint")),
			fmt.Sprintf("uint(%s)", g.expr(g.pick("int", "double"))),
			fmt.Sprintf("uint('%d')", g.r.Intn(1000)))
	case "double":
		return g.pick(
			fmt.Sprintf("(%s %s %s)", g.expr("double"), g.pick("+", "-", "*", "/"), g.expr("double")),
			fmt.Sprintf("double(%s)", g.expr(g.pick("int", "uint"))),
			fmt.Sprintf("-%s", g.leaf("double")),
			"quantity('1.5Gi').asApproximateFloat()")
	case "string":
		return g.stringExpr()
	case "bool":
		return g.boolExpr()
	case "bytes":
		return g.pick(fmt.Sprintf("bytes(%s)", g.expr("string")), fmt.Sprintf("(%s + %s)", g.expr("bytes"), g.expr("bytes")))
	case "list(int)":
		return g.listIntExpr()
	case "list(string)":
		return g.pick(
			fmt.Sprintf("%s.split(%s)", g.expr("string"), g.pick("','", "''", "'b'")),
			fmt.Sprintf("(%s + %s)", g.expr("list(string)"), g.expr("list(string)")),
			fmt.Sprintf("%s.filter(%s)", g.expr("list(string)"), g.withIter("string", func(v string) string { return v + ", " + g.expr("bool") })),
			fmt.Sprintf("%s.map(%s)", g.expr("list(int)"), g.withIter("int", func(v string) string { return v + ", string(" + v + ")" })),
			fmt.Sprintf("%s.sort()", g.expr("list(string)")),
			fmt.Sprintf("%s.findAll(%s)", g.expr("string"), g.pick("'[a-z]'", "'b+'", "'.'")))
	case "duration":
		return g.pick(fmt.Sprintf("(%s + %s)", g.expr("duration"), g.expr("duration")),
			fmt.Sprintf("(%s - %s)", g.expr("duration"), g.expr("duration")),
			fmt.Sprintf("(%s - %s)", g.expr("timestamp"), g.expr("timestamp")),
			fmt.Sprintf("duration(%s)", g.pick("'1h'", "'-90s'", "'1.5s'", "'3m20s'", "'1x'")))
	case "timestamp":
		return g.pick(fmt.Sprintf("(%s + %s)", g.expr("timestamp"), g.expr("duration")),
			fmt.Sprintf("(%s - %s)", g.expr("timestamp"), g.expr("duration")),
			fmt.Sprintf("timestamp(%s)", g.pick("'2020-05-06T07:08:09Z'", "'2023-12-31T23:59:59+02:00'", "0", "1700000000", "'bad'")))
	}
	return g.leaf(g.pick("int", "string", "bool", "double", "list(int)", "uint"))
}

func (g *gen) intExpr() string {
	switch g.r.Intn(16) {
	case 0, 1, 2:
		return fmt.Sprintf("(%s %s %s)", g.expr("int"), g.pick("+", "-", "*", "/", "%"), g.expr("int"))
	case 3:
		return fmt.Sprintf("-%s", g.expr("int"))
	case 4:
		return fmt.Sprintf("size(%s)", g.expr(g.pick("string", "list(int)", "bytes", "list(string)")))
	case 5:
		return fmt.Sprintf("int(%s)", g.expr(g.pick("uint", "double", "duration", "timestamp")))
	case 6:
		return fmt.Sprintf("int(%s)", g.pick("'12'", "'-7'", "'x'", "'9223372036854775808'"))
	case 7:
		return fmt.Sprintf("%s[%s]", g.expr("list(int)"), g.leaf("int"))
	case 8:
		return fmt.Sprintf("m[%s]", g.pick("'a'", "'b'", "'c'", "s"))
	case 9:
		return fmt.Sprintf("%s.%s()", g.expr("list(int)"), g.pick("sum", "max", "min"))
	case 10:
		return fmt.Sprintf("%s.indexOf(%s)", g.expr("string"), g.expr("string"))
	case 11:
		return fmt.Sprintf("%s.%s(%s)", g.expr("timestamp"), g.pick("getFullYear", "getMonth", "getDayOfYear", "getDate", "getDayOfWeek", "getHours", "getMinutes"), g.pick("", "'UTC'", "'America/New_York'", "'+05:30'", "'Nowhere/City'"))
	case 12:
		return fmt.Sprintf("quantity(%s).compareTo(quantity(%s))", g.quantity(), g.quantity())
	case 13:
		return fmt.Sprintf("%s.orValue(%s)", g.pick("o", "optional.of(7)", "optional.none()", "m[?'a']", "l[?0]"), g.expr("int"))
	case 14:
		return fmt.Sprintf("%s.indexOf(%s)", g.expr("list(int)"), g.expr("int"))
	}
	return fmt.Sprintf("%s.size()", g.expr("list(int)"))
}

func (g *gen) quantity() string {
	return g.pick("'1'", "'1.5'", "'100m'", "'2Ki'", "'1G'", "'0.1'", "'1e3'", "'-2'", "'1.5Gi'", "'x'")
}

func (g *gen) stringExpr() string {
	switch g.r.Intn(13) {
	case 0, 1:
		return fmt.Sprintf("(%s + %s)", g.expr("string"), g.expr("string"))
	case 2:
		return fmt.Sprintf("string(%s)", g.expr(g.pick("int", "uint", "double", "bool", "duration", "timestamp")))
	case 3:
		return fmt.Sprintf("%s.%s()", g.expr("string"), g.pick("lowerAscii", "upperAscii", "trim"))
	case 4:
		return fmt.Sprintf("%s.substring(%s)", g.expr("string"), g.leaf("int"))
	case 5:
		return fmt.Sprintf("%s.replace(%s, %s)", g.expr("string"), g.expr("string"), g.expr("string"))
	case 6:
		return fmt.Sprintf("%s.join(%s)", g.expr("list(string)"), g.pick("''", "', '"))
	case 7:
		return fmt.Sprintf("%s.charAt(%s)", g.expr("string"), g.leaf("int"))
	case 8:
		return fmt.Sprintf("%s.format([%s])", g.pick("'%s'", "'%d!'", "'[%s|%s]'", "'%.2f'", "'%x'"), g.expr(g.pick("int", "string", "double")))
	case 9:
		return fmt.Sprintf("string(%s)", g.expr("bytes"))
	case 10:
		return fmt.Sprintf("strings.quote(%s)", g.expr("string"))
	case 11:
		return fmt.Sprintf("%s.find(%s)", g.expr("string"), g.pick("'[0-9]+'", "'l+'", "'^a'"))
	}
	return fmt.Sprintf("url(%s).%s()", g.pick("'https://k8s.io:443/a/b?c=d'", "'http://x'", "'/rel'", "'not a url'"), g.pick("getScheme", "getHost", "getHostname", "getPort", "getEscapedPath"))
}

func (g *gen) boolExpr() string {
	num := g.pick("int", "uint", "double")
	switch g.r.Intn(18) {
	case 0, 1:
		return fmt.Sprintf("(%s %s %s)", g.expr(num), g.pick("<", "<=", ">", ">=", "==", "!="), g.expr(g.pick("int", "uint", "double", num)))
	case 2:
		return fmt.Sprintf("(%s %s %s)", g.expr("bool"), g.pick("&&", "||"), g.expr("bool"))
	case 3:
		return fmt.Sprintf("!%s", g.expr("bool"))
	case 4:
		return fmt.Sprintf("(%s in %s)", g.expr("int"), g.expr("list(int)"))
	case 5:
		return fmt.Sprintf("%s.%s(%s)", g.expr("list(int)"), g.pick("all", "exists", "exists_one"),
			g.withIter("int", func(v string) string { return v + ", " + g.expr("bool") }))
	case 6:
		return fmt.Sprintf("%s.%s(%s)", g.expr("string"), g.pick("startsWith", "endsWith", "contains", "matches"), g.pick("'a'", "''", "'b.*'", "s", "'[a-z]+'"))
	case 7:
		return fmt.Sprintf("has(%s)", g.pick("{'a': 1}.a", "{'a': 1}.b"))
	case 8:
		return fmt.Sprintf("(%s %s %s)", g.expr("string"), g.pick("<", "==", "!=", ">="), g.expr("string"))
	case 9:
		return fmt.Sprintf("%s.isSorted()", g.expr(g.pick("list(int)", "list(string)")))
	case 10:
		return fmt.Sprintf("sets.%s(%s, %s)", g.pick("contains", "equivalent", "intersects"), g.expr("list(int)"), g.expr("list(int)"))
	case 11:
		return fmt.Sprintf("quantity(%s).%s(quantity(%s))", g.quantity(), g.pick("isLessThan", "isGreaterThan"), g.quantity())
	case 12:
		return g.pick(fmt.Sprintf("isQuantity(%s)", g.quantity()), fmt.Sprintf("quantity(%s).isInteger()", g.quantity()),
			fmt.Sprintf("isURL(%s)", g.expr("string")), fmt.Sprintf("isIP(%s)", g.expr("string")),
			fmt.Sprintf("isCIDR(%s)", g.pick("'10.0.0.0/8'", "'::1/128'", "s")), fmt.Sprintf("isSemver(%s)", g.pick("'1.2.3'", "'v1.2'", "s")))
	case 13:
		return g.pick(
			fmt.Sprintf("cidr(%s).containsIP(%s)", g.pick("'10.0.0.0/8'", "'192.168.0.0/16'", "'::/0'"), g.pick("'10.1.2.3'", "ip('192.168.1.1')", "'::1'", "s")),
			fmt.Sprintf("ip(%s).%s()", g.pick("'10.0.0.1'", "'127.0.0.1'", "'::1'", "'fe80::1'", "s"), g.pick("isLoopback", "isUnspecified", "isGlobalUnicast", "isLinkLocalUnicast")),
			fmt.Sprintf("semver(%s).isLessThan(semver(%s))", g.pick("'1.2.3'", "'1.2.3-alpha'", "'2.0.0'"), g.pick("'1.2.3'", "'1.10.0'", "'1.2.3+b'")))
	case 14:
		return fmt.Sprintf("format.%s().validate(%s).hasValue()", g.pick("dns1123Label", "dns1123Subdomain", "labelValue", "qualifiedName", "uuid", "dns1035Label"), g.expr("string"))
	case 15:
		return fmt.Sprintf("%s == %s", g.expr(g.pick("list(int)", "list(string)", "bytes", "duration", "timestamp")), g.expr(g.pick("list(int)", "list(string)", "bytes", "duration", "timestamp")))
	case 16:
		return fmt.Sprintf("m.%s(%s)", g.pick("all", "exists", "exists_one"), g.withIter("string", func(v string) string { return v + ", " + g.expr("bool") }))
	}
	return fmt.Sprintf("%s == %s", g.expr("any"), g.expr("any"))
}

func (g *gen) listIntExpr() string {
	switch g.r.Intn(10) {
	case 0:
		var xs []string
		for n := g.r.Intn(4); n > 0; n-- {
			xs = append(xs, g.expr("int"))
		}
		return "[" + strings.Join(xs, ", ") + "]"
	case 1:
		return fmt.Sprintf("(%s + %s)", g.expr("list(int)"), g.expr("list(int)"))
	case 2:
		return fmt.Sprintf("%s.map(%s)", g.expr("list(int)"), g.withIter("int", func(v string) string { return v + ", " + g.expr("int") }))
	case 3:
		return fmt.Sprintf("%s.filter(%s)", g.expr("list(int)"), g.withIter("int", func(v string) string { return v + ", " + g.expr("bool") }))
	case 4:
		return fmt.Sprintf("%s.%s()", g.expr("list(int)"), g.pick("sort", "reverse", "distinct"))
	case 5:
		return fmt.Sprintf("%s.slice(%s, %s)", g.expr("list(int)"), g.leaf("int"), g.leaf("int"))
	case 6:
		return fmt.Sprintf("lists.range(%d)", g.r.Intn(5))
	case 7:
		return fmt.Sprintf("%s.sortBy(%s)", g.expr("list(int)"), g.withIter("int", func(v string) string { return v + ", -" + v }))
	case 8:
		return fmt.Sprintf("[%s].flatten()", g.expr("list(int)"))
	}
	return fmt.Sprintf("%s.transformList(%s)", g.expr("list(int)"), g.withIter("int", func(v string) string {
		return g.withIter("int", func(w string) string { return v + ", " + w + ", " + w + " * " + v })
	}))
}

func (g *gen) leaf(t string) string {
	if v, ok := g.iterOf(t); ok && g.chance(0.6) {
		return v
	}
	switch t {
	case "int":
		return g.pick("i", "j", "0", "1", "-1", "2", "9223372036854775807", "-9223372036854775808", "100", "3", "size(s)", "dy")
	case "uint":
		return g.pick("u", "0u", "1u", "18446744073709551615u", "7u")
	case "double":
		return g.pick("d", "0.0", "1.5", "-2.5", "1e308", "0.1")
	case "string":
		return g.pick("s", "t", "''", "'abc'", "'A-b'", "\"x\\ny\"", "r'\\d'", "'''tri'''", "'é'")
	case "bool":
		return g.pick("b", "true", "false", "o.hasValue()", "dy")
	case "bytes":
		return g.pick("by", "b'abc'", "b'\\xff'", "b''")
	case "list(int)":
		return g.pick("l", "[]", "[1, 2, 3]", "[3, 1, 2]", "[i, j]")
	case "list(string)":
		return g.pick("ls", "['a', 'b']", "[]", "[s, t]")
	case "duration":
		return g.pick("dur", "duration('1s')", "duration('-1m')")
	case "timestamp":
		return g.pick("ts", "timestamp('2000-01-01T00:00:00Z')")
	}
	return g.pick("i", "u", "d", "s", "b", "by", "l", "m", "dy", "null", "[1, 'a']", "{1: 2}", "type(i)", "int", "dur", "o")
}

// next returns a new expression.
func (g *gen) next() string {
	g.depth, g.iter = 0, map[string][]string{}
	return g.expr(g.pick("bool", "bool", "int", "string", "list(int)", "double", "uint", "list(string)", "duration", "timestamp", "bytes", "any"))
}

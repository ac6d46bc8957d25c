package cel

import (
	"strings"
	"unicode/utf8"
)

func init() { libraries = append(libraries, standardLib, conversionLib, timeLib) }

// typeOfValue is the CEL type of a run-time value, as type() returns it.
func typeOfValue(v Value) *Type {
	switch x := v.(type) {
	case int64:
		return IntType
	case uint64:
		return UintType
	case float64:
		return DoubleType
	case bool:
		return BoolType
	case string:
		return StringType
	case Bytes:
		return BytesType
	case NullValue:
		return NullType
	case Duration:
		return DurationType
	case Timestamp:
		return TimestampType
	case *Type:
		return TypeType
	case Optional:
		return optTypeValue
	case List:
		return listTypeValue
	case Map:
		return mapTypeValue
	case typed:
		return x.celType()
	}
	return ErrorType
}

// typed is implemented by library values to name their type.
type typed interface{ celType() *Type }

func standardLib(l *library) {
	for _, op := range []string{opConditional, opLogicalAnd, opLogicalOr} {
		n := 2
		if op == opConditional {
			n = 3
		}
		args := []*Type{BoolType, BoolType}
		res := BoolType
		id := map[string]string{opConditional: "conditional", opLogicalAnd: "logical_and", opLogicalOr: "logical_or"}[op]
		if n == 3 {
			args, res = ts(BoolType, tA, tA), tA
		}
		l.global(op, id, res, args, nil).nonStrict = true
	}
	l.global(opLogicalNot, "logical_not", BoolType, ts(BoolType), func(a Value) Value { return !a.(bool) })
	l.global(opNotStrictlyFalse, "not_strictly_false", BoolType, ts(BoolType), nil).nonStrict = true
	l.global(opEquals, "equals", BoolType, ts(tA, tA), func(a, b Value) Value { return equal(a, b) })
	l.global(opNotEquals, "not_equals", BoolType, ts(tA, tA), func(a, b Value) Value { return !equal(a, b) })
	arith(l)
	relations(l)
	l.global(opIndex, "index_list", tA, ts(ListType(tA), IntType), index)
	l.global(opIndex, "index_map", tB, ts(MapType(tA, tB), tA), index)
	l.global(opIn, "in_list", BoolType, ts(tA, ListType(tA)), func(a, b Value) Value {
		lst := b.(List)
		for i := 0; i < lst.Len(); i++ {
			if equal(a, lst.At(i)) {
				return true
			}
		}
		return false
	})
	l.global(opIn, "in_map", BoolType, ts(tA, MapType(tA, tB)), func(a, b Value) Value {
		_, ok := mapLookup(b.(Map), a)
		return ok
	})
	size := func(v Value) Value {
		switch x := v.(type) {
		case string:
			return int64(utf8.RuneCountInString(x))
		case Bytes:
			return int64(len(x))
		case List:
			return int64(x.Len())
		case Map:
			return int64(x.Len())
		}
		return errNoSuchOverload
	}
	for _, s := range []struct {
		id string
		t  *Type
	}{{"bytes", BytesType}, {"list", ListType(tA)}, {"map", MapType(tA, tB)}, {"string", StringType}} {
		l.global("size", "size_"+s.id, IntType, ts(s.t), size)
		l.member("size", s.id+"_size", IntType, ts(s.t), size)
	}
	l.member("contains", "contains_string", BoolType, ts(StringType, StringType), func(a, b Value) Value {
		return strings.Contains(a.(string), b.(string))
	})
	l.member("endsWith", "ends_with_string", BoolType, ts(StringType, StringType), func(a, b Value) Value {
		return strings.HasSuffix(a.(string), b.(string))
	})
	l.member("startsWith", "starts_with_string", BoolType, ts(StringType, StringType), func(a, b Value) Value {
		return strings.HasPrefix(a.(string), b.(string))
	})
	l.global("matches", "matches", BoolType, ts(StringType, StringType), matches)
	l.member("matches", "matches_string", BoolType, ts(StringType, StringType), matches)
}

func arith(l *library) {
	l.global(opAdd, "add_bytes", BytesType, ts(BytesType, BytesType), func(a, b Value) Value { return a.(Bytes) + b.(Bytes) })
	l.global(opAdd, "add_double", DoubleType, ts(DoubleType, DoubleType), func(a, b Value) Value { return a.(float64) + b.(float64) })
	l.global(opAdd, "add_duration_duration", DurationType, ts(DurationType, DurationType), addDurations)
	l.global(opAdd, "add_duration_timestamp", TimestampType, ts(DurationType, TimestampType), func(a, b Value) Value { return addTime(b.(Timestamp), a.(Duration)) })
	l.global(opAdd, "add_timestamp_duration", TimestampType, ts(TimestampType, DurationType), func(a, b Value) Value { return addTime(a.(Timestamp), b.(Duration)) })
	l.global(opAdd, "add_int64", IntType, ts(IntType, IntType), func(a, b Value) Value { return addInt(a.(int64), b.(int64)) })
	l.global(opAdd, "add_list", ListType(tA), ts(ListType(tA), ListType(tA)), addLists)
	l.global(opAdd, "add_string", StringType, ts(StringType, StringType), func(a, b Value) Value { return a.(string) + b.(string) })
	l.global(opAdd, "add_uint64", UintType, ts(UintType, UintType), func(a, b Value) Value { return addUint(a.(uint64), b.(uint64)) })
	l.global(opDivide, "divide_double", DoubleType, ts(DoubleType, DoubleType), func(a, b Value) Value { return a.(float64) / b.(float64) })
	l.global(opDivide, "divide_int64", IntType, ts(IntType, IntType), func(a, b Value) Value { return divInt(a.(int64), b.(int64)) })
	l.global(opDivide, "divide_uint64", UintType, ts(UintType, UintType), func(a, b Value) Value { return divUint(a.(uint64), b.(uint64)) })
	l.global(opModulo, "modulo_int64", IntType, ts(IntType, IntType), func(a, b Value) Value { return modInt(a.(int64), b.(int64)) })
	l.global(opModulo, "modulo_uint64", UintType, ts(UintType, UintType), func(a, b Value) Value { return modUint(a.(uint64), b.(uint64)) })
	l.global(opMultiply, "multiply_double", DoubleType, ts(DoubleType, DoubleType), func(a, b Value) Value { return a.(float64) * b.(float64) })
	l.global(opMultiply, "multiply_int64", IntType, ts(IntType, IntType), func(a, b Value) Value { return mulInt(a.(int64), b.(int64)) })
	l.global(opMultiply, "multiply_uint64", UintType, ts(UintType, UintType), func(a, b Value) Value { return mulUint(a.(uint64), b.(uint64)) })
	l.global(opNegate, "negate_double", DoubleType, ts(DoubleType), func(a Value) Value { return -a.(float64) })
	l.global(opNegate, "negate_int64", IntType, ts(IntType), func(a Value) Value { return negInt(a.(int64)) })
	l.global(opSubtract, "subtract_double", DoubleType, ts(DoubleType, DoubleType), func(a, b Value) Value { return a.(float64) - b.(float64) })
	l.global(opSubtract, "subtract_duration_duration", DurationType, ts(DurationType, DurationType), subDurations)
	l.global(opSubtract, "subtract_int64", IntType, ts(IntType, IntType), func(a, b Value) Value { return subInt(a.(int64), b.(int64)) })
	l.global(opSubtract, "subtract_timestamp_duration", TimestampType, ts(TimestampType, DurationType), subTimeDuration)
	l.global(opSubtract, "subtract_timestamp_timestamp", DurationType, ts(TimestampType, TimestampType), subTimes)
	l.global(opSubtract, "subtract_uint64", UintType, ts(UintType, UintType), func(a, b Value) Value { return subUint(a.(uint64), b.(uint64)) })
}

// addLists concatenates; a comprehension's own accumulator is extended in place.
func addLists(a, b Value) Value {
	r := b.(List)
	if ad, ok := a.(listAdder); ok {
		return ad.add(r)
	}
	if acc, ok := a.(*accuList); ok {
		for i := 0; i < r.Len(); i++ {
			acc.elems = append(acc.elems, r.At(i))
		}
		return acc
	}
	l := a.(List)
	if l.Len() == 0 {
		return r
	}
	if r.Len() == 0 {
		return l
	}
	out := make(listOf, 0, l.Len()+r.Len())
	for i := 0; i < l.Len(); i++ {
		out = append(out, l.At(i))
	}
	for i := 0; i < r.Len(); i++ {
		out = append(out, r.At(i))
	}
	return out
}

type relation struct {
	op, id string
	test   func(int) bool
}

func relations(l *library) {
	rels := []relation{
		{opLess, "less", func(c int) bool { return c < 0 }},
		{opLessEquals, "less_equals", func(c int) bool { return c <= 0 }},
		{opGreater, "greater", func(c int) bool { return c > 0 }},
		{opGreaterEquals, "greater_equals", func(c int) bool { return c >= 0 }},
	}
	pairs := []struct {
		id   string
		a, b *Type
	}{
		{"bool", BoolType, BoolType}, {"int64", IntType, IntType}, {"int64_double", IntType, DoubleType},
		{"int64_uint64", IntType, UintType}, {"uint64", UintType, UintType}, {"uint64_double", UintType, DoubleType},
		{"uint64_int64", UintType, IntType}, {"double", DoubleType, DoubleType}, {"double_int64", DoubleType, IntType},
		{"double_uint64", DoubleType, UintType}, {"string", StringType, StringType}, {"bytes", BytesType, BytesType},
		{"timestamp", TimestampType, TimestampType}, {"duration", DurationType, DurationType},
	}
	for _, r := range rels {
		test := r.test
		fn := func(a, b Value) Value {
			c, ok := compare(a, b)
			if !ok {
				return compareErr(a, b)
			}
			return test(c)
		}
		for _, p := range pairs {
			l.global(r.op, r.id+"_"+p.id, BoolType, ts(p.a, p.b), fn)
		}
	}
}

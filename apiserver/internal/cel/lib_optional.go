package cel

func init() { libraries = append(libraries, optionalLib) }

// optionalLib declares cel-go's optional types library (cel.OptionalTypes, every version),
// which Kubernetes enables from v1.28.
func optionalLib(l *library) {
	optV := OptionalType(tV)
	l.global("optional.of", "optional_of", optV, ts(tV), func(v Value) Value { return Optional{V: v, Ok: true} })
	l.global("optional.ofNonZeroValue", "optional_ofNonZeroValue", optV, ts(tV), func(v Value) Value {
		if isZeroValue(v) {
			return optNone
		}
		return Optional{V: v, Ok: true}
	})
	l.global("optional.none", "optional_none", optV, nil, func([]Value) Value { return optNone })
	l.member("value", "optional_value", tV, ts(optV), func(v Value) Value {
		o := v.(Optional)
		if !o.Ok {
			return errorf("optional.none() dereference")
		}
		return o.V
	})
	l.member("hasValue", "optional_hasValue", BoolType, ts(optV), func(v Value) Value { return v.(Optional).Ok })
	// or and orValue are planned as short-circuit nodes; these implementations serve the
	// dynamic path only.
	l.member("or", "optional_or_optional", optV, ts(optV, optV), func(a, b Value) Value {
		if a.(Optional).Ok {
			return a
		}
		return b
	})
	l.member("orValue", "optional_orValue_value", tV, ts(optV, tV), func(a, b Value) Value {
		if o := a.(Optional); o.Ok {
			return o.V
		}
		return b
	})
	l.global(opOptSelect, "select_optional_field", optV, ts(DynType, StringType), func(a, b Value) Value {
		return optSelect(a, b.(string))
	})
	listV, mapKV := ListType(tV), MapType(tK, tV)
	l.global(opOptIndex, "list_optindex_optional_int", optV, ts(listV, IntType), optIndex)
	l.global(opOptIndex, "optional_list_optindex_optional_int", optV, ts(OptionalType(listV), IntType), optIndex)
	l.global(opOptIndex, "map_optindex_optional_value", optV, ts(mapKV, tK), optIndex)
	l.global(opOptIndex, "optional_map_optindex_optional_value", optV, ts(OptionalType(mapKV), tK), optIndex)
	l.global(opIndex, "optional_list_index_int", optV, ts(OptionalType(listV), IntType), index)
	l.global(opIndex, "optional_map_index_value", optV, ts(OptionalType(mapKV), tK), index)
	l.member("last", "list_last", optV, ts(listV), func(v Value) Value {
		lst := v.(List)
		if lst.Len() == 0 {
			return optNone
		}
		return Optional{V: lst.At(lst.Len() - 1), Ok: true}
	})
	l.member("first", "list_first", optV, ts(listV), func(v Value) Value {
		lst := v.(List)
		if lst.Len() == 0 {
			return optNone
		}
		return Optional{V: lst.At(0), Ok: true}
	})
	unwrap := func(v Value) Value {
		lst := v.(List)
		out := listOf{}
		for i := 0; i < lst.Len(); i++ {
			o, ok := lst.At(i).(Optional)
			if !ok {
				return errorf("value %s is not optional", formatValue(lst.At(i)))
			}
			if o.Ok {
				out = append(out, o.V)
			}
		}
		return out
	}
	l.global("optional.unwrap", "optional_unwrap", listV, ts(ListType(optV)), unwrap)
	l.member("unwrapOpt", "optional_unwrapOpt", listV, ts(ListType(optV)), unwrap)
}

// isZeroValue is cel-go's IsZeroValue: the zero of each type, and empty aggregates.
func isZeroValue(v Value) bool {
	switch x := v.(type) {
	case int64:
		return x == 0
	case uint64:
		return x == 0
	case float64:
		return x == 0
	case bool:
		return !x
	case string:
		return x == ""
	case Bytes:
		return len(x) == 0
	case NullValue:
		return true
	case Duration:
		return x.D == 0
	case Timestamp:
		return x.T.Unix() == 0 && x.T.Nanosecond() == 0
	case Optional:
		return !x.Ok
	case List:
		return x.Len() == 0
	case Map:
		return x.Len() == 0
	}
	return false
}

// orNode is opt.or(other): other is evaluated only when opt is none.
type optOrNode struct {
	opt, other node
	value      bool // orValue: unwrap, and other is a plain value
}

func (n *optOrNode) eval(f *frame) Value {
	v := n.opt.eval(f)
	f.add(1)
	o, ok := v.(Optional)
	if !ok {
		if e, isErr := v.(*Err); isErr {
			return e
		}
		return errNoSuchOverload
	}
	if o.Ok {
		if n.value {
			return o.V
		}
		return o
	}
	return n.other.eval(f)
}

package cel

import (
	"fmt"
	"sort"
)

func init() { libraries = append(libraries, k8sListsLib, extListsLib, setsLib) }

type namedType struct {
	name string
	t    *Type
}

var (
	summable   = []namedType{{"int", IntType}, {"uint", UintType}, {"double", DoubleType}, {"duration", DurationType}}
	comparable = []namedType{{"int", IntType}, {"uint", UintType}, {"double", DoubleType}, {"bool", BoolType},
		{"duration", DurationType}, {"timestamp", TimestampType}, {"string", StringType}, {"bytes", BytesType}}
	zeroOf = map[string]Value{"int": int64(0), "uint": uint64(0), "double": 0.0, "duration": Duration{}}
)

// k8sListsLib is Kubernetes' lists library (k8s.io/apiserver/pkg/cel/library/lists.go).
func k8sListsLib(l *library) {
	for _, c := range comparable {
		l.member("isSorted", fmt.Sprintf("list_%s_is_sorted_bool", c.name), BoolType, ts(ListType(c.t)), isSorted)
	}
	for _, s := range summable {
		zero := zeroOf[s.name]
		l.member("sum", fmt.Sprintf("list_%s_sum_%s", s.name, s.name), s.t, ts(ListType(s.t)), func(v Value) Value {
			return sumList(v.(List), zero)
		})
	}
	for _, c := range comparable {
		l.member("max", fmt.Sprintf("list_%s_max_%s", c.name, c.name), c.t, ts(ListType(c.t)), func(v Value) Value { return extremum(v.(List), "max", -1) })
		l.member("min", fmt.Sprintf("list_%s_min_%s", c.name, c.name), c.t, ts(ListType(c.t)), func(v Value) Value { return extremum(v.(List), "min", 1) })
	}
	l.member("indexOf", "list_a_index_of_int", IntType, ts(ListType(tA), tA), func(lv, x Value) Value {
		lst := lv.(List)
		for i := 0; i < lst.Len(); i++ {
			if equal(lst.At(i), x) {
				return int64(i)
			}
		}
		return int64(-1)
	})
	l.member("lastIndexOf", "list_a_last_index_of_int", IntType, ts(ListType(tA), tA), func(lv, x Value) Value {
		lst := lv.(List)
		for i := lst.Len() - 1; i >= 0; i-- {
			if equal(lst.At(i), x) {
				return int64(i)
			}
		}
		return int64(-1)
	})
}

func isSorted(v Value) Value {
	lst := v.(List)
	for i := 1; i < lst.Len(); i++ {
		if c, ok := compare(lst.At(i-1), lst.At(i)); ok && c == 1 {
			return false
		}
	}
	return true
}

func sumList(lst List, zero Value) Value {
	acc := zero
	for i := 0; i < lst.Len(); i++ {
		acc = addValues(acc, lst.At(i))
		if e, ok := acc.(*Err); ok {
			return e
		}
	}
	return acc
}

// addValues is + over the summable types, for sum().
func addValues(a, b Value) Value {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return addInt(x, y)
		}
	case uint64:
		if y, ok := b.(uint64); ok {
			return addUint(x, y)
		}
	case float64:
		if y, ok := b.(float64); ok {
			return x + y
		}
	case Duration:
		if y, ok := b.(Duration); ok {
			return addDurations(x, y)
		}
	}
	return errNoSuchOverload
}

// extremum is min (prefer = 1: replace when the current is greater) or max (prefer = -1).
func extremum(lst List, name string, prefer int) Value {
	if lst.Len() == 0 {
		return errorf("%s called on empty list", name)
	}
	r := lst.At(0)
	for i := 1; i < lst.Len(); i++ {
		if c, ok := compare(r, lst.At(i)); ok && c == prefer {
			r = lst.At(i)
		}
	}
	return r
}

// extListsLib is cel-go's ext.Lists at version 3, as Kubernetes enables it.
func extListsLib(l *library) {
	listT := ListType(paramType("T"))
	l.member("slice", "list_slice", listT, ts(listT, IntType, IntType), func(a []Value) Value {
		lst, start, end := a[0].(List), a[1].(int64), a[2].(int64)
		n := int64(lst.Len())
		switch {
		case start < 0 || end < 0:
			return errorf("cannot slice(%d, %d), negative indexes not supported", start, end)
		case start > end:
			return errorf("cannot slice(%d, %d), start index must be less than or equal to end index", start, end)
		case n < end:
			return errorf("cannot slice(%d, %d), list is length %d", start, end, n)
		}
		out := make(listOf, 0, end-start)
		for i := start; i < end; i++ {
			out = append(out, lst.At(int(i)))
		}
		return out
	})
	l.member("flatten", "list_flatten", listT, ts(ListType(listT)), func(v Value) Value { return flattenList(v.(List), 1) })
	l.member("flatten", "list_flatten_int", ListType(DynType), ts(ListType(DynType), IntType), func(v, d Value) Value {
		return flattenList(v.(List), d.(int64))
	})
	for _, c := range comparable {
		l.member("sort", fmt.Sprintf("list_%s_sort", c.t.Name), ListType(c.t), ts(ListType(c.t)), func(v Value) Value {
			return sortByKeys(v.(List), v.(List))
		})
	}
	for _, c := range comparable {
		l.member("@sortByAssociatedKeys", fmt.Sprintf("list_%s_sortByAssociatedKeys", c.t.Name), listT, ts(listT, ListType(c.t)), func(v, k Value) Value {
			return sortByKeys(v.(List), k.(List))
		})
	}
	l.global("lists.range", "lists_range", ListType(IntType), ts(IntType), func(v Value) Value {
		n := v.(int64)
		out := listOf{}
		for i := int64(0); i < n; i++ {
			out = append(out, i)
		}
		return out
	})
	l.member("reverse", "list_reverse", listT, ts(listT), func(v Value) Value {
		lst := v.(List)
		out := make(listOf, lst.Len())
		for i := range out {
			out[i] = lst.At(lst.Len() - 1 - i)
		}
		return out
	})
	l.member("distinct", "list_distinct", listT, ts(listT), func(v Value) Value {
		lst := v.(List)
		if lst.Len() == 0 {
			return lst
		}
		out := listOf{}
		for i := 0; i < lst.Len(); i++ {
			seen := false
			for _, u := range out {
				if equal(lst.At(i), u) {
					seen = true
					break
				}
			}
			if !seen {
				out = append(out, lst.At(i))
			}
		}
		return out
	})
}

func flattenList(lst List, depth int64) Value {
	if depth < 0 {
		return errorf("level must be non-negative")
	}
	out := listOf{}
	for i := 0; i < lst.Len(); i++ {
		e := lst.At(i)
		inner, ok := e.(List)
		if !ok || depth == 0 {
			out = append(out, e)
			continue
		}
		f := flattenList(inner, depth-1)
		if err, isErr := f.(*Err); isErr {
			return err
		}
		fl := f.(listOf)
		out = append(out, fl...)
	}
	return out
}

// sortByKeys orders lst by the matching elements of keys, with sort.Slice as cel-go does,
// so that equal keys end up in the same order.
func sortByKeys(lst, keys List) Value {
	if lst.Len() != keys.Len() {
		return errorf("@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got %d and %d elements respectively", lst.Len(), keys.Len())
	}
	if lst.Len() == 0 {
		return lst
	}
	first := keys.At(0)
	if _, ok := compare(first, first); !ok {
		return errorf("list elements must be comparable")
	}
	ft := typeOfValue(first).Name
	idx := make([]int, lst.Len())
	for i := range idx {
		idx[i] = i
	}
	var err *Err
	sort.Slice(idx, func(i, j int) bool {
		a, b := keys.At(idx[i]), keys.At(idx[j])
		if typeOfValue(a).Name != ft || typeOfValue(b).Name != ft {
			err = errorf("list elements must have the same type")
			return false
		}
		c, _ := compare(a, b)
		return c == -1
	})
	if err != nil {
		return err
	}
	out := make(listOf, len(idx))
	for i, x := range idx {
		out[i] = lst.At(x)
	}
	return out
}

// setsLib is cel-go's ext.Sets.
func setsLib(l *library) {
	listT := ListType(paramType("T"))
	l.global("sets.contains", "list_sets_contains_list", BoolType, ts(listT, listT), func(a, b Value) Value {
		return setsContains(a.(List), b.(List))
	})
	l.global("sets.equivalent", "list_sets_equivalent_list", BoolType, ts(listT, listT), func(a, b Value) Value {
		if !setsContains(a.(List), b.(List)) {
			return false
		}
		return setsContains(b.(List), a.(List))
	})
	l.global("sets.intersects", "list_sets_intersects_list", BoolType, ts(listT, listT), func(a, b Value) Value {
		x, y := a.(List), b.(List)
		for i := 0; i < x.Len(); i++ {
			if listContains(y, x.At(i)) {
				return true
			}
		}
		return false
	})
}

func listContains(l List, v Value) bool {
	for i := 0; i < l.Len(); i++ {
		if equal(l.At(i), v) {
			return true
		}
	}
	return false
}

func setsContains(l, sub List) bool {
	for i := 0; i < sub.Len(); i++ {
		if !listContains(l, sub.At(i)) {
			return false
		}
	}
	return true
}

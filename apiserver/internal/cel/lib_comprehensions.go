package cel

func init() { libraries = append(libraries, comprehensionsLib) }

// comprehensionsLib declares cel.@mapInsert, the helper of cel-go's two-variable
// comprehension macros (ext.TwoVarComprehensions, enabled by Kubernetes from v1.32).
func comprehensionsLib(l *library) {
	mapKV := MapType(tK, tV)
	l.global(opMapInsert, "@mapInsert_map_key_value", mapKV, ts(mapKV, tK, tV), func(a []Value) Value {
		return mapInsert(a[0].(Map), a[1], a[2])
	})
	l.global(opMapInsert, "@mapInsert_map_map", mapKV, ts(mapKV, mapKV), func(a, b Value) Value {
		m := a.(Map)
		var out Value = m
		b.(Map).Range(func(k, v Value) bool {
			out = mapInsert(m, k, v)
			if e, ok := out.(*Err); ok {
				out = e
				return false
			}
			m = out.(Map)
			return true
		})
		return out
	})
}

// mapInsert adds one entry, refusing a key already present; a comprehension's own
// accumulator grows in place.
func mapInsert(m Map, k, v Value) Value {
	if _, ok := mapLookup(m, k); ok {
		return errorf("insert failed: key %s already exists", formatValue(k))
	}
	switch k.(type) {
	case List, Map:
		return errorf("unsupported key type: %s", typeOfValue(k).Name)
	}
	if acc, ok := m.(*accuMap); ok {
		acc.m.put(k, v)
		return acc
	}
	c := newMapOf(m.Len() + 1)
	m.Range(func(k, v Value) bool {
		c.put(k, v)
		return true
	})
	c.put(k, v)
	return c
}

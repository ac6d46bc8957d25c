package cel

// accuList is a comprehension's list accumulator, extended in place by its own step
// (@result + [x]) rather than copied on every iteration.
type accuList struct{ elems listOf }

func (a *accuList) Len() int       { return len(a.elems) }
func (a *accuList) At(i int) Value { return a.elems[i] }

// accuMap is a comprehension's map accumulator, extended in place by cel.@mapInsert.
type accuMap struct{ m *mapOf }

func (a *accuMap) Len() int                      { return a.m.Len() }
func (a *accuMap) Get(k Value) (Value, bool)     { return a.m.Get(k) }
func (a *accuMap) Range(f func(k, v Value) bool) { a.m.Range(f) }

func newAccumulator(init Value) Value {
	switch x := init.(type) {
	case listOf:
		if len(x) == 0 {
			return &accuList{}
		}
	case *mapOf:
		if x.Len() == 0 {
			return &accuMap{m: newMapOf(0)}
		}
	}
	return init
}

// freezeAccu turns a finished accumulator back into an ordinary immutable value.
func freezeAccu(v Value) Value {
	switch x := v.(type) {
	case *accuList:
		if x.elems == nil {
			return listOf{}
		}
		return x.elems
	case *accuMap:
		return x.m
	}
	return v
}

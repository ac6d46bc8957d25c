// Removing a key from an old index value leaves the value's set behind even when it is empty.
//
// Plausible because a map lookup on an empty set answers correctly; but ListIndexFuncValues
// then reports values that no object has any more (TS-3).
//
// File: store/thread_safe_store.go
// Caught by: TestCh03_TS2_TS3_UpdateMovesKey
package store

func (i *storeIndex) updateSingleIndex(name string, f IndexFunc, old, new any, key string) {
	oldValues := indexValues(f, name, key, old)
	newValues := indexValues(f, name, key, new)
	if len(oldValues) == 1 && len(newValues) == 1 && oldValues[0] == newValues[0] {
		return
	}
	idx := i.indices[name]
	if idx == nil {
		idx = Index{}
		i.indices[name] = idx
	}
	for _, v := range oldValues {
		delete(idx[v], key)
	}
	for _, v := range newValues {
		set := idx[v]
		if set == nil {
			set = KeySet{}
			idx[v] = set
		}
		set[key] = struct{}{}
	}
}

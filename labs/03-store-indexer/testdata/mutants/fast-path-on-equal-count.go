// The fast path skips the refiling whenever the old and new objects have as many index values,
// instead of only when their single value is the same.
//
// Plausible as an optimisation "nothing was added or removed"; but a pod that moves from node
// A to node B keeps one value and stays filed under A (TS-2).
//
// File: store/thread_safe_store.go
// Caught by: TestCh03_TS2_TS3_UpdateMovesKey, TestCh03_TS1_AddIsUpdate
package store

func (i *storeIndex) updateSingleIndex(name string, f IndexFunc, old, new any, key string) {
	oldValues := indexValues(f, name, key, old)
	newValues := indexValues(f, name, key, new)
	if len(oldValues) == len(newValues) && len(oldValues) > 0 {
		return
	}
	idx := i.indices[name]
	if idx == nil {
		idx = Index{}
		i.indices[name] = idx
	}
	for _, v := range oldValues {
		set := idx[v]
		delete(set, key)
		if len(set) == 0 {
			delete(idx, v)
		}
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

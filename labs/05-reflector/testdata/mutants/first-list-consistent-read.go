// The first LIST asks for resourceVersion "" (a consistent read from etcd) instead of "0".
//
// Plausible because "" looks like "no version yet"; but "0" is what lets a real apiserver
// answer the first list of every informer from its watch cache, and the tests pin the
// sequence of RVs the reflector asks for.
//
// File: reflector/reflector.go
// Caught by: TestCh05_RelistResourceVersion_R9, TestCh05_ListRVSequence_T7_R11_R12
package reflector

func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.isLastSyncResourceVersionUnavailable {
		return ""
	}
	return r.lastSyncResourceVersion
}

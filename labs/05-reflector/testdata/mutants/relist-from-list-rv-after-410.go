// After a 410 Gone the relist asks again for the resourceVersion the server just said it no
// longer has, instead of "" (the latest consistent state).
//
// Plausible because "resume from where we were" is right for a watch; but a LIST at a
// compacted RV fails the same way again, so the reflector never recovers.
//
// File: reflector/reflector.go
// Caught by: TestCh05_RelistResourceVersion_R9, TestCh05_ListRVSequence_T7_R11_R12
package reflector

func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.lastSyncResourceVersion == "" {
		return "0"
	}
	return r.lastSyncResourceVersion
}

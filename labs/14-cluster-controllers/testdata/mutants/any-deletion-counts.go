// DeletionObserved counts any pod of the ReplicaSet seen deleted as one of the expected
// deletions, by removing one pending key whichever pod it was.
//
// Plausible because a counter is what ControllerExpectations keeps for creations; but a pod
// is seen deleted twice (its deletionTimestamp, then its removal), and pods deleted by
// someone else count too, so the expectations are met while the controller's own deletions
// are still on their way, and the next sync deletes again.
//
// File: chapters/14-cluster-controllers/expectations.go
// Caught by: TestCh14_Sync_Expectations
package ch14

func (e *Expectations) DeletionObserved(key, podKey string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return
	}
	for k := range x.deletions {
		delete(x.deletions, k)
		return
	}
}

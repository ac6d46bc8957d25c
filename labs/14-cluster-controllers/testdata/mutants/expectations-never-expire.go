// SatisfiedExpectations waits until every expected creation and deletion is observed, however
// long that takes.
//
// Plausible because the informer does see every write eventually; but not every expected
// event comes: a watch event lost before a relist that folds it away, or a pod deleted by
// someone else before the controller saw it created. Without the timeout one lost event
// stops the ReplicaSet for good.
//
// File: chapters/14-cluster-controllers/expectations.go
// Caught by: TestCh14_Sync_Expectations
package ch14

func (e *Expectations) SatisfiedExpectations(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return true
	}
	return x.add <= 0 && len(x.deletions) == 0
}

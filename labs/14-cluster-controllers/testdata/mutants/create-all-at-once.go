// slowStartBatch makes every call at once, in one parallel batch, and reports the first error
// after all of them.
//
// Plausible because parallel creates are faster, and the caller still learns of the error;
// but a ReplicaSet of 500 replicas in a namespace whose quota is used up then sends 500
// doomed requests on every sync, where slow start sends one.
//
// File: chapters/14-cluster-controllers/manage.go
// Caught by: TestCh14_Sync_SlowStartBatch, TestCh14_Sync_CreateFailuresStopTheBatch
package ch14

import "sync"

func slowStartBatch(count, initialBatchSize int, fn func() error) (int, error) {
	errs := make(chan error, count)
	var wg sync.WaitGroup
	for range count {
		wg.Go(func() {
			if err := fn(); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	return count - len(errs), <-errs
}

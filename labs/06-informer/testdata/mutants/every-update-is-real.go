// Every update is distributed as a real change, also the resync's Update(obj, obj) whose
// resourceVersion did not move.
//
// Plausible because a resync does arrive through OnUpdate; but then every listener gets
// every resync, even the ones that asked for none or for a longer period (SI-10).
//
// File: informer/shared_informer.go
// Caught by: TestCh08_SharedInformer_SI10_SameRVIsSync
package informer

import "github.com/informer-lab/informer-lab/processor"

func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	s.processor.Distribute(processor.UpdateNotification{OldObj: oldObj, NewObj: newObj}, false)
}

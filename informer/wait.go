package informer

import (
	"context"
	"time"

	"github.com/informer-lab/informer-lab/processor"
)

// InformerSynced mirrors cache.InformerSynced: a HasSynced function.
type InformerSynced func() bool

// syncedPollPeriod mirrors syncedPollPeriod in client-go (SI-20).
const syncedPollPeriod = 100 * time.Millisecond

// WaitForCacheSync mirrors cache.WaitForCacheSync (SI-20): check every function now and then
// every 100 ms until all are true (true) or stopCh closes (false).
func WaitForCacheSync(stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	all := func() bool {
		for _, synced := range cacheSyncs {
			if !synced() {
				return false
			}
		}
		return true
	}
	if all() {
		return true
	}
	t := time.NewTicker(syncedPollPeriod)
	defer t.Stop()
	for {
		select {
		case <-stopCh:
			return false
		case <-t.C:
			if all() {
				return true
			}
		}
	}
}

// WaitFor mirrors cache.WaitFor (v0.36, SI-20): wait on the checkers' Done channels, without
// polling, until all are done (true) or ctx ends (false). A checker already done when ctx
// ends still counts.
func WaitFor(ctx context.Context, what string, checkers ...processor.DoneChecker) bool {
	_ = what // client-go logs it; we have nothing to log it to
	for _, c := range checkers {
		select {
		case <-c.Done():
		case <-ctx.Done():
			if !processor.IsDone(c) {
				return false
			}
		}
	}
	return true
}

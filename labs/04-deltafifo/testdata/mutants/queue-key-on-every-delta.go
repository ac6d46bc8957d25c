// Every delta appends its key to the queue, not only the first delta of a key.
//
// Plausible for anyone who thinks of a FIFO of events; but a key then sits in the queue twice,
// Pop hands out all its deltas at the first position and finds nothing at the second (DF-3,
// INV-20).
//
// File: deltafifo/delta_fifo.go
// Caught by: TestCh04_DF3_PositionRule
package deltafifo

import "github.com/informer-lab/informer-lab/store"

func (f *DeltaFIFO) queueKeyedLocked(key string, t DeltaType, obj any, transform bool, op string) error {
	if transform && f.transformer != nil {
		if _, tombstone := obj.(store.DeletedFinalStateUnknown); !tombstone {
			var err error
			if obj, err = f.transformer(obj); err != nil {
				return err
			}
		}
	}
	f.queue = append(f.queue, key)
	f.items[key] = dfDedupDeltas(append(f.items[key], Delta{Type: t, Object: obj}))
	return nil
}

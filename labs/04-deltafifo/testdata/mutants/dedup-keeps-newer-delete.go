// Two trailing deletions collapse into the newer one, even when the older one carries the
// object's real final state and the newer is only a tombstone.
//
// Plausible because "keep the latest" is the usual dedup rule; but a relist's tombstone then
// replaces the watch's delete, and the handler gets DeletedFinalStateUnknown instead of the
// object (DF-5).
//
// File: deltafifo/delta_fifo.go
// Caught by: TestCh04_DF5_DeleteDedup
package deltafifo

func dfDedupDeltas(d Deltas) Deltas {
	n := len(d)
	if n < 2 || d[n-1].Type != Deleted || d[n-2].Type != Deleted {
		return d
	}
	d[n-2] = d[n-1]
	d[n-1] = Delta{}
	return d[:n-1]
}

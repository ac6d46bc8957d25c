package storage

import "github.com/informer-lab/informer-lab/api/watch"

// Event is one entry of the history: a write at RV. Obj is the new state; for a delete it
// is the last state carrying the delete's RV. Old is the state before (nil on create).
type Event struct {
	size int // ObjectSize of Obj, counted against the history's byte bound
	RV   uint64
	Type watch.EventType
	Coll *Collection
	Obj  *Record
	Old  *Record
}

// history is the bounded ring of events. Every write makes exactly one event and bumps the
// revision by one, so the retained events have the contiguous RVs start+1 … rev and the
// event of RV r sits at a computed position. It is bounded in events and, when maxBytes is
// set, in the bytes of the objects its events hold: a count alone lets a few large objects,
// rewritten, pin gigabytes. The newest event is always kept.
type history struct {
	ring     []*Event
	head     int    // position of the oldest retained event
	n        int    // number of retained events
	start    uint64 // every event with RV > start is retained
	bytes    int    // the sizes of the retained events
	maxBytes int    // 0: no byte bound
}

func (h *history) init(size, maxBytes int) {
	h.ring = make([]*Event, size)
	h.maxBytes = maxBytes
}

func (h *history) add(ev *Event) {
	if h.n == len(h.ring) {
		h.dropOldest()
	}
	h.ring[(h.head+h.n)%len(h.ring)] = ev
	h.n++
	h.bytes += ev.size
	for h.maxBytes > 0 && h.bytes > h.maxBytes && h.n > 1 {
		h.dropOldest()
	}
}

// dropOldest forgets the oldest event. The version it replaced (Old), and the last state of
// a delete, are then held by no retained event and are no object's current state: their
// cached encodings go with them, so the history, not the number of writes, bounds them.
func (h *history) dropOldest() {
	ev := h.ring[h.head]
	h.bytes -= ev.size
	if ev.Old != nil {
		ev.Old.release()
	}
	if ev.Type == watch.Deleted {
		ev.Obj.release()
	}
	h.ring[h.head] = nil
	h.head = (h.head + 1) % len(h.ring)
	h.n--
	h.start++
}

// at returns the event of RV rv, which must be in (start, start+n].
func (h *history) at(rv uint64) *Event {
	return h.ring[(h.head+int(rv-h.start-1))%len(h.ring)]
}

// compact drops every event with RV ≤ rv.
func (h *history) compact(rv uint64) {
	for h.n > 0 && h.start < rv {
		h.dropOldest()
	}
	if h.start < rv {
		h.start = rv
	}
}

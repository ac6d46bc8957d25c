package chaos

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// note is one notification a handler received (the §12 harness record): its kind, the object
// (the new one of an add or update, what OnDelete got), the RVs, and whether it was a
// tombstone or an initial-list add.
type note struct {
	kind  byte // 'A' add, 'U' update, 'D' delete
	obj   any
	oldRV uint64 // updates: RV of the old object
	rv    uint64 // RV of obj (of a tombstone's Obj; 0 for a tombstone without one)
	tomb  bool
	init  bool
}

func (n note) String() string {
	switch n.kind {
	case 'A':
		s := "ADD " + show(n.obj)
		if n.init {
			s += " init"
		}
		return s
	case 'U':
		return fmt.Sprintf("UPD @%d→%s", n.oldRV, show(n.obj))
	}
	return "DEL " + show(n.obj)
}

// handler is a recording ResourceEventHandler that checks the per-listener stream properties
// while it runs (INV-6, INV-7, INV-8, INV-9, INV-26, INV-27) and keeps every notification for
// the end-state and history checks. It can be stalled (a gate) or made slow (virtual time
// spent per call), and can forward keys to the workqueue controller.
type handler struct {
	name string
	w    *world
	// ghostsAllowed tolerates OnDelete of a key the handler never had: RealFIFO delivers the
	// DELETED event of an object whose ADDED event was dropped (INV-6's exception, D-2).
	ghostsAllowed bool
	// onCall, when set, runs at the end of every call with the key (the controller's enqueue).
	onCall func(key string)

	reg     processor.ResourceEventHandlerRegistration
	removed atomic.Bool // set once ShutDownEventHandler has returned
	// busy counts calls in progress. A listener's Pending() leaves out the notification its
	// pop goroutine holds for the next call, so "drained" is Pending() == 0 and not busy,
	// observed while every goroutine is blocked.
	busy atomic.Int32

	mu      sync.Mutex
	present map[string]uint64 // key → RV of the last notification, while the handler has the key
	notes   map[string][]note // key → every notification, in order
	calls   int
	gate    chan struct{} // non-nil while stalled: each call waits for it
	slow    time.Duration
}

func newHandler(w *world, name string) *handler {
	return &handler{
		name: name, w: w, ghostsAllowed: w.ghostsAllowed(),
		present: map[string]uint64{}, notes: map[string][]note{},
	}
}

func (h *handler) OnAdd(obj any, isInInitialList bool) {
	h.observe(note{kind: 'A', obj: obj, rv: rvOf(obj), init: isInInitialList})
}

func (h *handler) OnUpdate(oldObj, newObj any) {
	h.observe(note{kind: 'U', obj: newObj, oldRV: rvOf(oldObj), rv: rvOf(newObj)})
}

func (h *handler) OnDelete(obj any) {
	_, tomb := obj.(store.DeletedFinalStateUnknown)
	h.observe(note{kind: 'D', obj: obj, rv: rvOf(obj), tomb: tomb})
}

func (h *handler) fail(inv, format string, args ...any) {
	h.w.rep.add(inv, "handler %s: "+format, append([]any{h.name}, args...)...)
}

func (h *handler) observe(n note) {
	h.busy.Add(1)
	defer h.busy.Add(-1)
	key := keyOf(n.obj)
	if h.w.stopped.Load() {
		h.fail("INV-26", "%s after the informer's Run returned", n)
	}
	if h.removed.Load() {
		h.fail("INV-27", "%s after ShutDownEventHandler returned", n)
	}
	h.checkCache(key, n)

	h.mu.Lock()
	prev, present := h.present[key]
	if seq := h.notes[key]; len(seq) > 0 && n.rv != 0 {
		if last := seq[len(seq)-1]; n.rv < last.rv {
			h.fail("INV-8", "%s after %s: the RV goes back", n, last)
		}
	}
	switch n.kind {
	case 'A':
		if present {
			h.fail("INV-6", "%s while it has %s@%d", n, key, prev)
		}
		h.present[key] = n.rv
	case 'U':
		switch {
		case !present:
			h.fail("INV-6", "%s of a key it does not have", n)
		case n.oldRV != prev:
			h.fail("INV-7", "%s: the old object is not the @%d it last had", n, prev)
		}
		h.present[key] = n.rv
	case 'D':
		switch {
		case !present:
			if n.tomb || !h.ghostsAllowed {
				h.fail("INV-6", "%s of a key it does not have", n)
			}
		case n.tomb && n.rv != 0 && n.rv != prev:
			h.fail("INV-7", "%s: a tombstone must carry the @%d it last had", n, prev)
		case !n.tomb && n.rv < prev:
			h.fail("INV-7", "%s: older than the @%d it last had", n, prev)
		}
		delete(h.present, key)
	}
	h.notes[key] = append(h.notes[key], n)
	h.calls++
	gate, slow := h.gate, h.slow
	h.mu.Unlock()

	if gate != nil {
		<-gate
	}
	if slow > 0 {
		// The handler's work, in virtual time: nothing waits on this sleep, it only makes the
		// listener fall behind.
		time.Sleep(slow)
	}
	if h.onCall != nil {
		h.onCall(key)
	}
}

// checkCache is INV-9: when a callback runs, the indexer never shows a state of the key older
// than the one notified (later ones may already be visible).
func (h *handler) checkCache(key string, n note) {
	obj, exists, _ := h.w.inf.GetIndexer().GetByKey(key)
	if !exists {
		return
	}
	cached := rvOf(obj)
	switch {
	case n.kind != 'D' && cached < n.rv:
		h.fail("INV-9", "%s while the cache still holds %s", n, show(obj))
	case n.kind == 'D' && n.rv != 0 && cached <= n.rv:
		h.fail("INV-9", "%s while the cache still holds %s", n, show(obj))
	}
}

// stall makes every later call wait until release.
func (h *handler) stall() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gate == nil {
		h.gate = make(chan struct{})
	}
}

func (h *handler) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gate != nil {
		close(h.gate)
		h.gate = nil
	}
}

func (h *handler) setSlow(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.slow = d
}

// drained reports whether the handler's listener has nothing buffered and no call running.
// Only meaningful right after synctest.Wait.
func (h *handler) drained() bool {
	l, ok := h.reg.(*processor.ProcessorListener)
	return h.busy.Load() == 0 && (!ok || l.Pending() == 0)
}

// last returns the handler's last notification for key.
func (h *handler) last(key string) (note, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	seq := h.notes[key]
	if len(seq) == 0 {
		return note{}, false
	}
	return seq[len(seq)-1], true
}

// snapshot returns a copy of every key's notifications.
func (h *handler) snapshot() map[string][]note {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string][]note, len(h.notes))
	for k, v := range h.notes {
		out[k] = append([]note(nil), v...)
	}
	return out
}

func (h *handler) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

// ---------------------------------------------------------------------------------------
// Object helpers.

func keyOf(obj any) string {
	k, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return fmt.Sprintf("?%T", obj)
	}
	return k
}

// rvOf returns the numeric RV of an object, or of a tombstone's last known state; 0 if none.
func rvOf(obj any) uint64 {
	_, s, _ := store.KeyAndResourceVersion(obj)
	rv, _ := strconv.ParseUint(s, 10, 64)
	return rv
}

// show renders "ns/name@rv", a tombstone as "DFSU(ns/name@rv)" or "DFSU(ns/name)".
func show(obj any) string {
	if t, ok := obj.(store.DeletedFinalStateUnknown); ok {
		if t.Obj == nil {
			return "DFSU(" + t.Key + ")"
		}
		return "DFSU(" + show(t.Obj) + ")"
	}
	m, err := api.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return m.GetNamespace() + "/" + m.GetName() + "@" + m.GetResourceVersion()
}

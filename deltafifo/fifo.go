package deltafifo

import (
	"sync"

	"github.com/informer-lab/informer-lab/store"
)

// FIFO mirrors cache.FIFO in client-go tools/cache/fifo.go: a queue that keeps only the latest
// object per key (FF-1). It exists for contrast with DeltaFIFO: a consumer of a FIFO never
// learns about deletions (FF-2), which is why informers need DeltaFIFO.
type FIFO struct {
	lock sync.Mutex
	cond sync.Cond

	// items holds the latest object per key. queue may still name a key whose object was
	// deleted; Pop skips such keys, as client-go does, rather than search the queue on Delete.
	items map[string]any
	queue []string

	populated              bool
	initialPopulationCount int

	keyFunc store.KeyFunc
	closed  bool
}

// NewFIFO mirrors cache.NewFIFO.
func NewFIFO(keyFunc store.KeyFunc) *FIFO {
	f := &FIFO{items: map[string]any{}, keyFunc: keyFunc}
	f.cond.L = &f.lock
	return f
}

// Add mirrors FIFO.Add (FF-1): store obj as the latest state and queue its key if new.
func (f *FIFO) Add(obj any) error {
	key, err := f.keyFunc(obj)
	if err != nil {
		return store.KeyError{Obj: obj, Err: err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	if _, exists := f.items[key]; !exists {
		f.queue = append(f.queue, key)
	}
	f.items[key] = obj
	f.cond.Broadcast()
	return nil
}

// Update mirrors FIFO.Update: the same as Add, since only the latest state is kept.
func (f *FIFO) Update(obj any) error {
	return f.Add(obj)
}

// Delete mirrors FIFO.Delete (FF-2): forget the object; nothing is left to pop for it.
func (f *FIFO) Delete(obj any) error {
	key, err := f.keyFunc(obj)
	if err != nil {
		return store.KeyError{Obj: obj, Err: err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	delete(f.items, key)
	return nil
}

// Replace mirrors FIFO.Replace (FF-3): drop everything and queue the list (in map order).
func (f *FIFO) Replace(list []any, _ string) error {
	items := make(map[string]any, len(list))
	for _, obj := range list {
		key, err := f.keyFunc(obj)
		if err != nil {
			return store.KeyError{Obj: obj, Err: err}
		}
		items[key] = obj
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(items)
	}
	f.items = items
	f.queue = f.queue[:0]
	for key := range items {
		f.queue = append(f.queue, key)
	}
	if len(f.queue) > 0 {
		f.cond.Broadcast()
	}
	return nil
}

// Resync mirrors FIFO.Resync (FF-3): queue again every stored key that is not queued.
func (f *FIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	queued := make(map[string]struct{}, len(f.queue))
	for _, key := range f.queue {
		queued[key] = struct{}{}
	}
	for key := range f.items {
		if _, ok := queued[key]; !ok {
			f.queue = append(f.queue, key)
		}
	}
	if len(f.queue) > 0 {
		f.cond.Broadcast()
	}
	return nil
}

// Pop mirrors FIFO.Pop: wait for the head key and hand its latest object to process while the
// lock is held. Unlike DeltaFIFO, the initial count is decremented after process returns, so
// HasSynced turns true only once the last initial item has been processed (FF-3).
func (f *FIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		for len(f.queue) == 0 {
			if f.closed {
				return nil, ErrFIFOClosed
			}
			f.cond.Wait()
		}
		isInInitialList := !f.hasSyncedLocked()
		key := f.queue[0]
		f.queue[0] = ""
		f.queue = f.queue[1:]
		obj, ok := f.items[key]
		if !ok {
			// Deleted after it was queued. It still counts towards the initial population.
			if f.initialPopulationCount > 0 {
				f.initialPopulationCount--
			}
			continue
		}
		delete(f.items, key)
		err := process(obj, isInInitialList)
		if f.initialPopulationCount > 0 {
			f.initialPopulationCount--
		}
		return obj, err
	}
}

// hasSyncedLocked is the DF-11 condition; FIFO has no latch because nothing waits on it.
func (f *FIFO) hasSyncedLocked() bool {
	return f.populated && f.initialPopulationCount == 0
}

// HasSynced mirrors FIFO.HasSynced: true once the first Replace's items have been processed,
// or once anything was written before a first Replace.
func (f *FIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.hasSyncedLocked()
}

// Close mirrors FIFO.Close: Pop drains what is left, then returns ErrFIFOClosed.
func (f *FIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed mirrors FIFO.IsClosed.
func (f *FIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// ListKeys mirrors FIFO.ListKeys (removed from client-go in v0.33): the keys of the stored
// objects, in no particular order.
func (f *FIFO) ListKeys() []string {
	f.lock.Lock()
	defer f.lock.Unlock()
	keys := make([]string, 0, len(f.items))
	for key := range f.items {
		keys = append(keys, key)
	}
	return keys
}

package storage

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/watch"
)

// TestCh01_Storage_ConcurrentWritersAndWatchers runs writers, watchers, paged readers and
// encoders at once (meant for -race). Every watcher opened with initial events and fed
// its events ends with exactly the collection's final state, so the list→watch hand-off has
// no gap and no duplicate even under concurrent writes; every event arrives once, in
// revision order; every paged list is one snapshot; the revision counts every write.
func TestCh01_Storage_ConcurrentWritersAndWatchers(t *testing.T) {
	const (
		writers  = 4
		rounds   = 150
		watchers = 6
		readers  = 3
	)
	ctx := context.Background()
	s := newTestStore(Config{HistorySize: 100000, WatchBufferSize: 100000, Codec: &countingCodec{}})
	colls := []*Collection{s.NewCollection("pods", "pod"), s.NewCollection("secrets", "secret")}
	namespaces := []string{"n0", "n1", ""}

	start := make(chan struct{})
	var writes sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for wr := range writers {
		writes.Go(func() {
			<-start
			n := 0
			for i := range rounds {
				c := colls[i%len(colls)]
				ns := namespaces[i%2]
				name := fmt.Sprintf("w%d-%d", wr, i%7)
				key := ObjectKey(ns, name)
				if _, err := s.Create(ctx, c, key, cm(ns, name, "0"), CreateOptions{}); err == nil {
					n++
				}
				if _, typ, err := s.GuaranteedUpdate(ctx, c, key, nil, setValue(fmt.Sprint(i)), UpdateOptions{}); err == nil && typ != "" {
					n++
				}
				if i%3 == 0 {
					if _, err := s.Delete(ctx, c, key, nil, DeleteOptions{}); err == nil {
						n++
					}
				}
			}
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}

	type result struct {
		coll  *Collection
		ns    string
		state map[string]string
		err   error
	}
	results := make(chan result, watchers)
	var consumers sync.WaitGroup
	for i := range watchers {
		c, ns := colls[i%len(colls)], namespaces[i%len(namespaces)]
		consumers.Go(func() {
			<-start
			w, err := s.Watch(ctx, c, WatchOptions{Namespace: ns, SendInitialEvents: true})
			if err != nil {
				results <- result{err: err}
				return
			}
			defer s.Unregister(w)
			state := map[string]string{}
			for _, r := range w.Initial {
				state[r.Key] = valueOf(r)
			}
			last := w.StartRV
			apply := func(ev *Event) error {
				if ev.RV <= last {
					return fmt.Errorf("event %d after %d", ev.RV, last)
				}
				if ev.Coll != c || !inNamespace(ev, ns) {
					return fmt.Errorf("event of another collection or namespace: %s", ev.Obj.Key)
				}
				last = ev.RV
				if _, err := ev.Obj.Encoded(Format(ev.RV % MaxFormats)); err != nil {
					return err
				}
				switch ev.Type {
				case watch.Deleted:
					delete(state, ev.Obj.Key)
				default:
					state[ev.Obj.Key] = valueOf(ev.Obj)
				}
				return nil
			}
			for {
				select {
				case <-w.Ready():
					for _, ev := range drain(w) {
						if err := apply(ev); err != nil {
							results <- result{err: err}
							return
						}
					}
				case <-w.Done():
					for _, ev := range drain(w) {
						if err := apply(ev); err != nil {
							results <- result{err: err}
							return
						}
					}
					if w.Why() != StopServer {
						results <- result{err: fmt.Errorf("stopped with %d", w.Why())}
						return
					}
					results <- result{coll: c, ns: ns, state: state}
					return
				}
			}
		})
	}

	pages := make(chan error, readers)
	var reads sync.WaitGroup
	for i := range readers {
		c := colls[i%len(colls)]
		reads.Go(func() {
			<-start
			for range 10 {
				if err := pagedIsSnapshot(ctx, s, c); err != nil {
					pages <- err
					return
				}
			}
			pages <- nil
		})
	}

	close(start)
	writes.Wait()
	reads.Wait()
	close(pages)
	for err := range pages {
		require.NoError(t, err)
	}
	s.CloseAllWatches()
	consumers.Wait()
	close(results)

	assert.Equal(t, uint64(total), s.ResourceVersion(), "one revision per write")
	for r := range results {
		require.NoError(t, r.err)
		list, err := s.GetList(ctx, r.coll, ListOptions{Namespace: r.ns})
		require.NoError(t, err)
		want := map[string]string{}
		for _, rec := range list.Items {
			want[rec.Key] = valueOf(rec)
		}
		assert.Empty(t, cmp.Diff(want, r.state), "%s in %q: initial state + events = final state", r.coll.Name(), r.ns)
	}
	assert.Equal(t, 0, s.OpenWatches())
}

// pagedIsSnapshot lists c in pages of 3 and checks the pages against an Exact list at the
// first page's revision.
func pagedIsSnapshot(ctx context.Context, s *Store, c *Collection) error {
	var got []*Record
	res, err := s.GetList(ctx, c, ListOptions{Limit: 3})
	if err != nil {
		return err
	}
	rv := res.RV
	got = append(got, res.Items...)
	for res.Continue != "" {
		if res, err = s.GetList(ctx, c, ListOptions{Limit: 3, Continue: res.Continue}); err != nil {
			return err
		}
		if res.RV != rv {
			return fmt.Errorf("page at %d, first page at %d", res.RV, rv)
		}
		got = append(got, res.Items...)
	}
	exact, err := s.GetList(ctx, c, ListOptions{ResourceVersion: rv, Exact: true})
	if err != nil {
		return err
	}
	a, b := map[string]uint64{}, map[string]uint64{}
	for _, r := range got {
		a[r.Key] = r.RV
	}
	for _, r := range exact.Items {
		b[r.Key] = r.RV
	}
	if len(a) != len(got) || !maps.Equal(a, b) {
		return fmt.Errorf("pages at %d differ from the snapshot: %s", rv, cmp.Diff(b, a))
	}
	return nil
}

package storage

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkStoreCreate measures one create: the write lock, the revision, the history and
// the dispatch to no watcher (building the small object is counted too).
func BenchmarkStoreCreate(b *testing.B) {
	ctx := context.Background()
	s := New(Config{HistorySize: 1000, WatchBufferSize: 1})
	c := s.NewCollection("configmaps", "cm")
	objs := make([]*objKey, b.N)
	for i := range objs {
		name := fmt.Sprintf("cm-%d", i)
		objs[i] = &objKey{key: ObjectKey("ns", name), name: name}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Create(ctx, c, objs[i].key, cm("ns", objs[i].name, "v"), CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

type objKey struct{ key, name string }

// BenchmarkStoreGetList measures lists of a collection of 1000 objects: whole, in pages of
// 100 at the current revision, and in pages of 100 rebuilt at a revision 100 writes old.
func BenchmarkStoreGetList(b *testing.B) {
	ctx := context.Background()
	s := New(Config{HistorySize: 10000, WatchBufferSize: 1})
	c := s.NewCollection("configmaps", "cm")
	for i := range 1000 {
		mustCreate(b, s, c, fmt.Sprintf("ns%d", i%10), fmt.Sprintf("cm-%04d", i), "v")
	}
	old := s.ResourceVersion()
	for i := range 100 {
		mustUpdate(b, s, c, ObjectKey(fmt.Sprintf("ns%d", i%10), fmt.Sprintf("cm-%04d", i)), "w")
	}
	pages := func(b *testing.B, opts ListOptions) {
		for {
			res, err := s.GetList(ctx, c, opts)
			if err != nil {
				b.Fatal(err)
			}
			if res.Continue == "" {
				return
			}
			opts.Continue = res.Continue
			opts.Exact, opts.ResourceVersion = false, 0
		}
	}
	cases := []struct {
		name string
		opts ListOptions
	}{
		{"all", ListOptions{}},
		{"namespace", ListOptions{Namespace: "ns3"}},
		{"paged", ListOptions{Limit: 100}},
		{"paged-predicate", ListOptions{Limit: 100, Predicate: func(r *Record) bool { return r.Obj.GetNamespace() != "ns0" }}},
		{"paged-old-revision", ListOptions{Limit: 100, ResourceVersion: old, Exact: true}},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				pages(b, bc.opts)
			}
		})
	}
}

// BenchmarkStoreWatchFanOut measures one write dispatched to N watchers of its collection
// (and their consumers taking the event).
func BenchmarkStoreWatchFanOut(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", n), func(b *testing.B) {
			ctx := context.Background()
			s := New(Config{HistorySize: 1000, WatchBufferSize: 1})
			c := s.NewCollection("configmaps", "cm")
			mustCreate(b, s, c, "ns", "a", "0")
			ws := make([]*Watcher, n)
			for i := range ws {
				w, err := s.Watch(ctx, c, WatchOptions{})
				if err != nil {
					b.Fatal(err)
				}
				ws[i] = w
			}
			values := [2]UpdateFunc{setValue("1"), setValue("2")}
			spare := map[*Watcher][]*Event{}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, _, err := s.GuaranteedUpdate(ctx, c, "ns/a", nil, values[i%2], UpdateOptions{}); err != nil {
					b.Fatal(err)
				}
				i++
				for _, w := range ws {
					spare[w] = w.Take(spare[w])
					clear(spare[w])
				}
			}
			for _, w := range ws {
				s.Unregister(w)
			}
		})
	}
}

package ch05_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// newPod returns pod ns/name; the source gives it its resourceVersion.
func newPod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name}}
}

// watchOpened is a ListerWatcher over a fake source that says on a channel whenever a
// watch opens, so an example can wait for the reflector instead of sleeping.
type watchOpened struct {
	*fakesource.Source
	opened chan struct{}
}

func newWatchOpened(src *fakesource.Source) *watchOpened {
	return &watchOpened{Source: src, opened: make(chan struct{}, 100)}
}

func (w *watchOpened) WatchWithContext(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	wi, err := w.Source.WatchWithContext(ctx, opts)
	if err == nil {
		w.opened <- struct{}{}
	}
	return wi, err
}

func (w *watchOpened) Watch(opts api.ListOptions) (watch.Interface, error) {
	return w.WatchWithContext(context.Background(), opts)
}

// signalStore passes every write on to a ReflectorStore and then says so on a channel, so an
// example can wait until the reflector has handled an event.
type signalStore struct {
	reflector.ReflectorStore
	done chan string
}

func newSignalStore(s reflector.ReflectorStore) *signalStore {
	return &signalStore{ReflectorStore: s, done: make(chan string, 100)}
}

func (s *signalStore) Add(obj any) error { defer s.signal("Add"); return s.ReflectorStore.Add(obj) }
func (s *signalStore) Update(obj any) error {
	defer s.signal("Update")
	return s.ReflectorStore.Update(obj)
}
func (s *signalStore) Delete(obj any) error {
	defer s.signal("Delete")
	return s.ReflectorStore.Delete(obj)
}
func (s *signalStore) Replace(list []any, rv string) error {
	defer s.signal("Replace")
	return s.ReflectorStore.Replace(list, rv)
}

// Bookmark forwards to the inner store when it wants bookmarks, and signals either way.
func (s *signalStore) Bookmark(rv string) error {
	defer s.signal("Bookmark")
	if b, ok := s.ReflectorStore.(reflector.ReflectorBookmarkStore); ok {
		return b.Bookmark(rv)
	}
	return nil
}

func (s *signalStore) signal(op string) { s.done <- op }

// running is a reflector running in its own goroutine.
type running struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func run(r *reflector.Reflector) *running {
	ctx, cancel := context.WithCancel(context.Background())
	rr := &running{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(rr.done)
		r.RunWithContext(ctx)
	}()
	return rr
}

// stop ends Run and waits for it; nothing the reflector started is left behind.
func (rr *running) stop() {
	rr.cancel()
	<-rr.done
}

// describeCalls renders the requests a fake source answered, one per line.
func describeCalls(calls []fakesource.Call) string {
	var b strings.Builder
	for _, c := range calls {
		verb := c.Verb
		if c.IsWatchList() {
			verb = "WATCH sendInitialEvents=true"
		}
		fmt.Fprintf(&b, "%s rv=%q", verb, c.Options.ResourceVersion)
		if c.Verb == "LIST" {
			fmt.Fprintf(&b, " limit=%d", c.Options.Limit)
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// off is the UseWatchList value of the classic LIST + WATCH path.
func off() *bool { v := false; return &v }

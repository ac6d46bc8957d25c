package reflector_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
	"github.com/informer-lab/informer-lab/store"
)

// tellingStore is a store that reports the calls a Reflector makes on it.
type tellingStore struct {
	store.Store
	calls chan string
}

func (t tellingStore) Replace(list []any, rv string) error {
	t.calls <- fmt.Sprintf("Replace %d object(s) at rv %s", len(list), rv)
	return t.Store.Replace(list, rv)
}

func (t tellingStore) Add(obj any) error {
	t.calls <- "Add " + obj.(*api.Pod).Name
	return t.Store.Add(obj)
}

// A Reflector lists, hands the list to its store with one Replace, then watches from the
// list's resourceVersion, so every later change reaches the store once and in order.
func ExampleReflector_RunWithContext() {
	src := fakesource.New()
	defer src.Close()
	_, _ = src.Add(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"}})

	s := tellingStore{Store: store.NewStore(store.MetaNamespaceKeyFunc), calls: make(chan string, 8)}
	r := reflector.NewReflector(src, &api.Pod{}, s, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.RunWithContext(ctx) }()
	fmt.Println(<-s.calls)

	_, _ = src.Add(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "db"}})
	fmt.Println(<-s.calls)
	cancel()
	<-done
	keys := s.ListKeys()
	slices.Sort(keys) // a store has no order
	fmt.Println(keys)
	// Output:
	// Replace 1 object(s) at rv 1
	// Add db
	// [default/db default/web]
}

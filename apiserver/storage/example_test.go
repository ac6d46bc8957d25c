package storage_test

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The reflector's list-then-watch against the storage: a paged list is one snapshot even
// when a write falls between its pages, and a watch from the list's revision replays that
// write, then receives live events.
func Example_listWatch() {
	ctx := context.Background()
	s := storage.New(storage.Config{HistorySize: 100, WatchBufferSize: 10})
	pods := s.NewCollection("pods", "pod")
	for _, name := range []string{"c", "a", "b"} {
		obj := &api.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"namespace": "default", "name": name},
		}}
		rec, _ := s.Create(ctx, pods, storage.ObjectKey("default", name), obj, storage.CreateOptions{})
		fmt.Printf("created %s at %d\n", rec.Key, rec.RV)
	}

	page, _ := s.GetList(ctx, pods, storage.ListOptions{Namespace: "default", Limit: 2})
	fmt.Printf("page 1 at %d: %v, %d more, continue token: %v\n", page.RV, keys(page.Items), *page.Remaining, page.Continue != "")

	rec, typ, _ := s.GuaranteedUpdate(ctx, pods, "default/b", nil, func(_ *storage.Tx, cur *storage.Record) (*api.Unstructured, error) {
		next := cur.Obj.DeepCopy()
		next.SetLabels(map[string]string{"app": "web"})
		return next, nil
	}, storage.UpdateOptions{})
	fmt.Printf("%s %s at %d\n", typ, rec.Key, rec.RV)

	page2, _ := s.GetList(ctx, pods, storage.ListOptions{Namespace: "default", Limit: 2, Continue: page.Continue})
	fmt.Printf("page 2 at %d: %v, continue token: %v\n", page2.RV, keys(page2.Items), page2.Continue != "")

	w, _ := s.Watch(ctx, pods, storage.WatchOptions{Namespace: "default", ResourceVersion: page.RV})
	defer s.Unregister(w)
	for _, ev := range w.Replay {
		fmt.Printf("replayed %s %s at %d, labels %v\n", ev.Type, ev.Obj.Key, ev.RV, ev.Obj.Obj.GetLabels())
	}
	_, _ = s.Delete(ctx, pods, "default/a", nil, storage.DeleteOptions{})
	<-w.Ready() // woken once the event is queued; Take returns every queued event
	ev := w.Take(nil)[0]
	fmt.Printf("live %s %s at %d\n", ev.Type, ev.Obj.Key, ev.RV)

	// Output:
	// created default/c at 1
	// created default/a at 2
	// created default/b at 3
	// page 1 at 3: [default/a default/b], 1 more, continue token: true
	// MODIFIED default/b at 4
	// page 2 at 3: [default/c], continue token: false
	// replayed MODIFIED default/b at 4, labels map[app:web]
	// live DELETED default/a at 5
}

func keys(recs []*storage.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Key
	}
	return out
}

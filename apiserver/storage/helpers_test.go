package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// newTestStore returns a store with a roomy history and watcher buffer unless cfg says
// otherwise.
func newTestStore(cfg Config) *Store {
	if cfg.HistorySize == 0 {
		cfg.HistorySize = 1000
	}
	if cfg.WatchBufferSize == 0 {
		cfg.WatchBufferSize = 100
	}
	return New(cfg)
}

// cm returns a ConfigMap-like object (the store knows no kinds: any tree will do).
func cm(ns, name, value string) *api.Unstructured {
	u := &api.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "uid": "uid-" + name},
		"data":     map[string]any{"k": value},
	}}
	if ns != "" {
		u.SetNamespace(ns)
	}
	return u
}

// mustCreate creates cm(ns, name, value) in c and returns its record.
func mustCreate(t testing.TB, s *Store, c *Collection, ns, name, value string) *Record {
	t.Helper()
	rec, err := s.Create(context.Background(), c, ObjectKey(ns, name), cm(ns, name, value), CreateOptions{})
	require.NoError(t, err)
	return rec
}

// setValue returns an UpdateFunc writing data.k = value.
func setValue(value string) UpdateFunc {
	return func(_ *Tx, cur *Record) (*api.Unstructured, error) {
		next := cur.Obj.DeepCopy()
		next.Object["data"] = map[string]any{"k": value}
		return next, nil
	}
}

// mustUpdate writes data.k = value at key and returns the new record.
func mustUpdate(t testing.TB, s *Store, c *Collection, key, value string) *Record {
	t.Helper()
	rec, typ, err := s.GuaranteedUpdate(context.Background(), c, key, nil, setValue(value), UpdateOptions{})
	require.NoError(t, err)
	require.Equal(t, watch.Modified, typ)
	return rec
}

// mustDelete deletes key and returns the DELETED record.
func mustDelete(t testing.TB, s *Store, c *Collection, key string) *Record {
	t.Helper()
	rec, err := s.Delete(context.Background(), c, key, nil, DeleteOptions{})
	require.NoError(t, err)
	return rec
}

// valueOf returns data.k of a record.
func valueOf(r *Record) string {
	v, _, _ := api.NestedString(r.Obj.Object, "data", "k")
	return v
}

// keysOf lists the keys of records.
func keysOf(recs []*Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Key
	}
	return out
}

// evLine is an event reduced to what tests compare.
type evLine struct {
	Type  watch.EventType
	Key   string
	RV    uint64
	Value string
}

func lineOf(ev *Event) evLine {
	return evLine{Type: ev.Type, Key: ev.Obj.Key, RV: ev.RV, Value: valueOf(ev.Obj)}
}

// linesOf reduces events to lines; none is nil.
func linesOf(evs []*Event) []evLine {
	var out []evLine
	for _, ev := range evs {
		out = append(out, lineOf(ev))
	}
	return out
}

// drain takes every event already queued for w, without blocking.
func drain(w *Watcher) []*Event { return w.Take(nil) }

// statusOf asserts err is an *api.Status and returns it.
func statusOf(t testing.TB, err error) *api.Status {
	t.Helper()
	var st *api.Status
	require.True(t, errors.As(err, &st), "want *api.Status, got %T: %v", err, err)
	return st
}

// countingCodec counts Encode calls per format; fail makes the next calls of a format fail.
type countingCodec struct {
	mu    sync.Mutex
	calls [MaxFormats]int
	fail  [MaxFormats]int // how many of the next calls fail
}

func (c *countingCodec) Encode(obj *api.Unstructured, f Format) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[f]++
	if c.fail[f] > 0 {
		c.fail[f]--
		return nil, fmt.Errorf("format %d: cannot encode", f)
	}
	return fmt.Appendf(nil, "%d:%s@%s", f, obj.GetName(), obj.GetResourceVersion()), nil
}

func (c *countingCodec) count(f Format) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[f]
}

// hookFunc adapts a function to Hooks.
type hookFunc func(ev *Event, watcherID uint64) bool

func (h hookFunc) DropEvent(ev *Event, watcherID uint64) bool { return h(ev, watcherID) }

package informer

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/store"
)

// TestCh06_NewInformer_KeepsStoreAndNotifies: NewInformer returns a store kept in step with the
// source and a controller that calls the handler after each write, under every profile.
func TestCh06_NewInformer_KeepsStoreAndNotifies(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2")
				rec := newRecorder()
				st, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p})
				assert.False(t, ctl.HasSynced())
				r := runInBubble(t, ctl.RunWithContext)
				defer r.stop()
				assert.True(t, ctl.HasSynced())
				assert.Equal(t, "2", ctl.LastSyncResourceVersion())

				mustAdd(t, src, pod("a", ""))
				mustModify(t, src, pod("p1", ""))
				mustDelete(t, src, "p2")
				synctest.Wait()
				assert.Equal(t, []string{"ADD p1@1 init", "ADD p2@2 init", "ADD a@3", "UPD p1@1→p1@4", "DEL p2@5"}, rec.Lines())
				assert.Equal(t, src.State(), cacheState(st))
			})
		})
	}
}

// TestCh06_NewIndexerInformer_ByIndex is block 4.15 of docs/articles.md as a test: an index on the app
// label answers ByIndex from the cache.
func TestCh06_NewIndexerInformer_ByIndex(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t)
		mustAdd(t, src, labelled("web", "", map[string]string{"app": "busy-box"}))
		mustAdd(t, src, labelled("db", "", map[string]string{"app": "postgres"}))
		byApp := func(obj any) ([]string, error) { return []string{obj.(*api.Pod).Labels["app"]}, nil }
		indexer, ctl := NewIndexerInformer(src, &api.Pod{}, 0, newRecorder(), store.Indexers{"app": byApp})
		r := runInBubble(t, ctl.RunWithContext)
		defer r.stop()
		got, err := indexer.ByIndex("app", "busy-box")
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, "web", got[0].(*api.Pod).Name)
	})
}

// TestCh06_NewInformer_RunWithStopChannel: the stopCh form of Run returns when the channel
// closes, and leaves no goroutine behind (the bubble checks).
func TestCh06_NewInformer_RunWithStopChannel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		rec := newRecorder()
		_, ctl := NewInformer(src, &api.Pod{}, 0, rec)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { defer close(done); ctl.Run(stop) }()
		synctest.Wait()
		assert.Equal(t, []string{"ADD p1@1 init"}, rec.Lines())
		close(stop)
		<-done
	})
}

// TestCh06_NewInformer_TransformAndNilHandler: the transform runs before objects are queued
// (K-6); a nil handler is not a panic, the store is still kept.
func TestCh06_NewInformer_TransformAndNilHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := newSource(t, "p1")
		strip := func(obj any) (any, error) {
			p, ok := obj.(*api.Pod)
			if !ok {
				return nil, errors.New("not a pod")
			}
			c := p.DeepCopyObject().(*api.Pod)
			c.Labels = map[string]string{"transformed": "yes"}
			return c, nil
		}
		st, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Transform: strip})
		r := runInBubble(t, ctl.RunWithContext)
		defer r.stop()
		mustAdd(t, src, pod("a", ""))
		synctest.Wait()
		for _, obj := range st.List() {
			assert.Equal(t, "yes", obj.(*api.Pod).Labels["transformed"], show(obj))
		}
		assert.Len(t, st.List(), 2)
	})
}

// TestCh06_NewInformer_C14_SlowHandlerStalls: the non-shared informer calls its handler on the
// processLoop goroutine, so while one call is stuck nothing else is handed to the handler, and
// (apart from a batch already applied, ProfileCurrent, D-9) nothing else reaches the cache (C-14).
func TestCh06_NewInformer_C14_SlowHandlerStalls(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1")
				gate := make(chan struct{})
				rec := newRecorder()
				rec.onCall = func(line string) {
					if strings.HasPrefix(line, "ADD a@") {
						<-gate
					}
				}
				pauser := &Pauser{}
				pauser.Pause()
				st, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: rec, Profile: p, Pauser: pauser})
				r := runInBubble(t, ctl.RunWithContext)
				defer r.stop()
				mustAdd(t, src, pod("a", ""))
				mustAdd(t, src, pod("b", ""))
				synctest.Wait()
				pauser.Resume()
				synctest.Wait() // the handler is stuck in OnAdd(a)

				assert.Equal(t, []string{"ADD p1@1 init", "ADD a@2"}, rec.Lines(), "b waits for a's handler")
				_, bCached, _ := st.GetByKey("ns/b")
				assert.Equal(t, p == ProfileCurrent, bCached, "only a batch applies b before a's handler returns")

				close(gate)
				synctest.Wait()
				assert.Equal(t, []string{"ADD p1@1 init", "ADD a@2", "ADD b@3"}, rec.Lines())
			})
		})
	}
}

// syncBuffer is a goroutine-safe bytes.Buffer for trace output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// lines returns, in order, the lines of the given components.
func (s *syncBuffer) lines(components ...string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for l := range strings.SplitSeq(strings.TrimSpace(s.b.String()), "\n") {
		for _, c := range components {
			if strings.Contains(l, "component="+c+" ") {
				out = append(out, l)
			}
		}
	}
	return out
}

// TestCh06_NewInformer_TraceHandleHop: with a logger, each handler call of the non-shared
// informer logs one "informer handle" hop after the indexer hop of the same write.
func TestCh06_NewInformer_TraceHandleHop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		src := newSource(t, "p1")
		_, ctl := NewInformerWithOptions(InformerOptions{ListerWatcher: src, ObjectType: &api.Pod{}, Handler: newRecorder(),
			Profile: ProfileClassic, Logger: trace.NewPlainLogger(&buf)})
		r := runInBubble(t, ctl.RunWithContext)
		defer r.stop()
		mustModify(t, src, pod("p1", ""))
		mustDelete(t, src, "p1")
		synctest.Wait()
		assert.Equal(t, []string{
			`msg="informer handle" component=informer op=handle key=ns/p1 rv=1 type=add init=true`,
			`msg="informer handle" component=informer op=handle key=ns/p1 rv=2 type=update old_rv=1`,
			`msg="informer handle" component=informer op=handle key=ns/p1 rv=3 type=delete`,
		}, buf.lines("informer"))
		var hops []string
		for _, l := range buf.lines("indexer", "informer") {
			hops = append(hops, l[strings.Index(l, "component="):strings.Index(l, " key=")])
		}
		assert.Equal(t, []string{
			"component=indexer op=add", "component=informer op=handle",
			"component=indexer op=update", "component=informer op=handle",
			"component=indexer op=delete", "component=informer op=handle",
		}, hops, "cache first, then notify")
	})
}

// TestCh06_NewInformer_TraceTombstoneKey: a tombstone's hop names its key and last RV.
func TestCh06_NewInformer_TraceTombstoneKey(t *testing.T) {
	key, rv, _ := store.KeyAndResourceVersion(store.DeletedFinalStateUnknown{Key: "ns/x", Obj: pod("x", "9")})
	assert.Equal(t, "ns/x", key)
	assert.Equal(t, "9", rv)
	key, rv, _ = store.KeyAndResourceVersion(store.DeletedFinalStateUnknown{Key: "ns/y"})
	assert.Equal(t, "ns/y", key)
	assert.Empty(t, rv)
}

package ch05_test

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/store"
)

// TestCh05_Erratum_ReplaceEmitsSyncByDefault pins the fact behind the "Sync" lines of the
// runnable-examples article's Reflector example: a DeltaFIFO built without
// EmitDeltaTypeReplaced (its zero value is false) turns Replace into Sync deltas in v0.37 too.
// Nothing about the article's age explains them; informers set the option and see Replaced.
func TestCh05_Erratum_ReplaceEmitsSyncByDefault(t *testing.T) {
	tests := []struct {
		name string
		opts deltafifo.DeltaFIFOOptions
		want deltafifo.DeltaType
	}{
		{"the article's options: EmitDeltaTypeReplaced unset", deltafifo.DeltaFIFOOptions{}, deltafifo.Sync},
		{"what informers set", deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true}, deltafifo.Replaced},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.KeyFunction = store.MetaNamespaceKeyFunc
			tt.opts.KnownObjects = store.NewStore(store.MetaNamespaceKeyFunc)
			fifo := deltafifo.NewDeltaFIFOWithOptions(tt.opts)
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "web-1", ResourceVersion: "5"}}
			require.NoError(t, fifo.Replace([]any{pod}, "5"))

			var got []deltafifo.DeltaType
			_, err := fifo.Pop(func(obj any, _ bool) error {
				for _, d := range obj.(deltafifo.Deltas) {
					got = append(got, d.Type)
				}
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, []deltafifo.DeltaType{tt.want}, got)
		})
	}
}

// replaceRecorder is a store that remembers the names each Replace brought.
type replaceRecorder struct {
	store.Store
	mu       sync.Mutex
	replaced [][]string
}

func (r *replaceRecorder) Replace(list []any, rv string) error {
	var names []string
	for _, obj := range list {
		names = append(names, obj.(*api.Pod).Name)
	}
	sort.Strings(names)
	r.mu.Lock()
	r.replaced = append(r.replaced, names)
	r.mu.Unlock()
	return r.Store.Replace(list, rv)
}

func (r *replaceRecorder) replaces() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.replaced)
}

// TestCh05_Erratum_RelistStartsOver pins the correction to 《client-go学习》 (section Reflector),
// which says that after an interruption the reflector "continues transferring the unfinished
// part" from the resourceVersion. Only a watch resumes: a watch that ends is reopened at the
// last RV with no LIST. A relist never resumes anything: it is a whole new LIST
// the full state at or after that RV, and Replace swaps the whole cache for it.
func TestCh05_Erratum_RelistStartsOver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newSimServer(t, apiserver.Options{})
		ctx := context.Background()
		for _, n := range []string{"a", "b", "c"} {
			_, err := srv.Create(ctx, "pods", "ns", simPod(n))
			require.NoError(t, err)
		}
		cache := &replaceRecorder{Store: store.NewStore(store.MetaNamespaceKeyFunc)}
		r := reflector.NewReflectorWithOptions(simLW(srv), &api.Pod{}, cache,
			reflector.ReflectorOptions{Name: "pods", UseWatchList: off()})
		rr := run(r)
		defer rr.stop()
		synctest.Wait()
		require.Equal(t, [][]string{{"a", "b", "c"}}, cache.replaces())

		// A watch that ends is picked up where it stopped: no LIST. (It must have lasted a
		// second, or the reflector backs off first: R-16.)
		advance(2 * time.Second)
		srv.ResetRequestCounts()
		srv.CloseAllWatches()
		advance(time.Second)
		lists, watches := counts(srv)
		assert.Equal(t, 0, lists, "a closed watch is reopened, not relisted")
		assert.Equal(t, 1, watches)

		// A relist (the watch's RV compacted away, one delete missed) lists everything again.
		_, err := srv.Create(ctx, "pods", "ns", simPod("d"))
		require.NoError(t, err)
		srv.DropNextEvents(apiserver.DropRule{Count: 1})
		_, err = srv.Delete(ctx, "pods", "ns", "b", &api.DeleteOptions{GracePeriodSeconds: new(int64)})
		require.NoError(t, err)
		srv.CompactAll()
		advance(2 * time.Second)
		srv.ResetRequestCounts()
		srv.CloseAllWatches()
		advance(time.Minute)

		lists, _ = counts(srv)
		assert.Equal(t, 1, lists, "one relist")
		assert.Equal(t, [][]string{{"a", "b", "c"}, {"a", "c", "d"}}, cache.replaces(),
			"the relist brought the whole state, a and c included, not just what was missed")
		assert.Equal(t, serverRVs(t, srv, "a", "b", "c", "d"), storeRVs(cache))
	})
}

// TestCh05_Erratum_ConsistentListHonoursLimit pins what a client can see of the correction to
// 《Informer原理详解》 (section 分块list), which says a LIST with RV "" reads etcd and must be
// paged, unlike RV "0". Since v1.31 kube-apiserver serves the RV "" list from its watch cache
// once the cache has caught up with etcd's current revision (ConsistentListFromCache; GA and
// locked on in v1.34), and it honours limit there too. What a client observes, and what this
// test pins on our server: the RV "" list is consistent (it sees the write just made, L3), it
// is paged by limit with every page at one snapshot (L7), and only RV "0" ignores the limit
// (L9). A reflector's relist after a 410 asks for exactly that: RV "" with a limit.
func TestCh05_Erratum_ConsistentListHonoursLimit(t *testing.T) {
	srv := newSimServer(t, apiserver.Options{})
	ctx := context.Background()
	for _, n := range []string{"a", "b", "c"} {
		_, err := srv.Create(ctx, "pods", "ns", simPod(n))
		require.NoError(t, err)
	}
	latest := srv.ResourceVersion()

	page := func(opts api.ListOptions) *api.PodList {
		t.Helper()
		obj, err := srv.List(ctx, "pods", "ns", opts)
		require.NoError(t, err)
		return obj.(*api.PodList)
	}
	names := func(l *api.PodList) []string {
		var out []string
		for _, p := range l.Items {
			out = append(out, p.Name)
		}
		return out
	}

	tests := []struct {
		name string
		rv   string
		want [][]string // the names on each page
	}{
		{`RV "": consistent, and paged by limit`, "", [][]string{{"a", "b"}, {"c"}}},
		{`RV "0": the watch cache ignores limit`, "0", [][]string{{"a", "b", "c"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pages [][]string
			var rvs []string
			opts := api.ListOptions{ResourceVersion: tt.rv, Limit: 2}
			for {
				l := page(opts)
				pages = append(pages, names(l))
				rvs = append(rvs, l.ResourceVersion)
				if l.Continue == "" {
					break
				}
				opts = api.ListOptions{Limit: 2, Continue: l.Continue}
			}
			assert.Equal(t, tt.want, pages)
			for _, rv := range rvs {
				assert.Equal(t, strconv.FormatUint(latest, 10), rv, "every page at the newest state")
			}
		})
	}
}

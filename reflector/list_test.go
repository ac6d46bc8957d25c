package reflector

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// TestCh05_RelistResourceVersion_R9 is the RV choice as a table.
func TestCh05_RelistResourceVersion_R9(t *testing.T) {
	tests := []struct {
		name        string
		unavailable bool
		last        string
		list, watch string
	}{
		{"(b) nothing seen yet: any state, from a cache", false, "", "0", ""},
		{"(c) seen RV 10: not older than 10", false, "10", "10", "10"},
		{"(a) RV unusable: latest consistent state", true, "10", "", ""},
		{"(a) wins over (b)", true, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReflector(fakesource.New(), nil, newRecStore(), 0)
			r.setLastSyncResourceVersion(tt.last)
			r.setIsLastSyncResourceVersionUnavailable(tt.unavailable)
			assert.Equal(t, tt.list, r.relistResourceVersion(), "LIST")
			assert.Equal(t, tt.watch, r.rewatchResourceVersion(), "watch-list (R-36)")
		})
	}
}

// forceRelist ends the current watch with a 410, the usual cause of a relist.
func forceRelist(src *fakesource.Source) {
	src.SendError(fakesource.NewExpired("too old resource version"))
	synctest.Wait()
	advance(time.Minute) // longer than any early backoff delay
}

// TestCh05_ListRVSequence_T7_R11_R12 is teaching point T7 as in the upstream tests: the first
// LIST asks "0", a relist asks the last RV, and when that RV is gone (410) the reflector
// retries at once with "": LIST RVs ["0","10",""].
func TestCh05_ListRVSequence_T7_R11_R12(t *testing.T) {
	tests := []struct {
		name string
		fail func(rv string) error
	}{
		{"410 Expired", func(string) error { return fakesource.NewExpired("too old") }},
		{"410 Gone (pre-1.18 servers)", func(string) error { return fakesource.NewGone("gone") }},
		{"too large RV", func(string) error { return fakesource.NewTooLargeResourceVersion(10, 9) }},
		{"too large RV, legacy Timeout message", func(string) error {
			s := fakesource.NewTooLargeResourceVersion(10, 9)
			s.Details = nil
			return s
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := fakesource.New()
				for i := range 10 {
					mustAdd(t, src, fmt.Sprint("p", i))
				}
				st := newRecStore()
				h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList}).run()
				require.Equal(t, "10", h.r.LastSyncResourceVersion())

				src.FailListAt("10", tt.fail("10"))
				forceRelist(src)
				assert.Equal(t, []string{"0", "10", ""}, src.ListRVs())
				lists := h.callTimes("LIST")
				assert.Equal(t, lists[1], lists[2], "the retry at \"\" follows at once, without backoff (R-11)")
				assert.Empty(t, h.errs(), "the retry succeeded, so no error reached the handler")
				assert.False(t, h.r.isLastSyncResourceVersionUnavailable, "a successful LIST clears the flag (R-12)")

				// The flag is clear, so the next relist is at the last RV again.
				src.FailListAt("10", nil)
				mustAdd(t, src, "later")
				synctest.Wait()
				forceRelist(src)
				assert.Equal(t, []string{"0", "10", "", "11"}, src.ListRVs())
				h.stop()
			})
		})
	}
}

// TestCh05_ListErrorKeepsUnavailable_R11_R7: when the retry at "" fails too, the error is
// returned as "failed to list <type>: …", reaches the handler, and the next cycle still
// lists at "" because only a successful LIST clears the flag.
func TestCh05_ListErrorKeepsUnavailable_R11_R7(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList, Backoff: zeroJitter()}).run()

		src.FailListAt("1", fakesource.NewExpired("too old"))
		src.FailListAt("", fakesource.NewInternalError("etcd leader changed"))
		src.SendError(fakesource.NewExpired("too old resource version"))
		advance(time.Second) // backoff, then relist at "1" → 410 → at once "" → 500 → handler → backoff
		assert.Equal(t, []string{"0", "1", ""}, src.ListRVs())
		require.Len(t, h.errs(), 1)
		err := h.errs()[0]
		assert.EqualError(t, err, "failed to list *api.Pod: Internal error occurred: etcd leader changed")
		assert.Equal(t, api.StatusReasonInternalError, api.ReasonForError(err), "the Status stays reachable with errors.As")

		src.FailListAt("", nil)
		advance(2 * time.Second) // past the 1.6 s backoff
		assert.Equal(t, []string{"0", "1", "", ""}, src.ListRVs(), "the flag survived the failure: \"\" again")
		assert.Equal(t, 2, src.Count("WATCH"), "the successful relist is followed by a watch")

		forceRelist(src)
		// Success cleared the flag, so the relist tries the last RV first (which still
		// answers 410 here, hence the immediate "" after it).
		assert.Equal(t, []string{"0", "1", "", "", "1", ""}, src.ListRVs())
		h.stop()
	})
}

// TestCh05_ListPageSize_R10 is the page-size rule as a table over the reflector's state.
func TestCh05_ListPageSize_R10(t *testing.T) {
	tests := []struct {
		name      string
		setup     func(r *Reflector)
		rv        string
		wantLimit int64
	}{
		{"first LIST at 0: default 500", nil, "0", 500},
		{"consistent LIST at \"\": default 500", nil, "", 500},
		{"relist at a real RV: no limit, so a cache can answer", nil, "10", 0},
		{"WatchListPageSize wins", func(r *Reflector) { r.WatchListPageSize = 7 }, "10", 7},
		{"an RV=0 LIST came back paged: keep paging", func(r *Reflector) { r.paginatedResult = true }, "10", 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReflector(fakesource.New(), nil, newRecStore(), 0)
			if tt.setup != nil {
				tt.setup(r)
			}
			assert.Equal(t, tt.wantLimit, r.listPageSize(tt.rv))
		})
	}
}

// TestCh05_DisableChunkingIsIgnored_R10: client-go v0.37 declares ListWatch.DisableChunking
// and reads it nowhere; the first LIST of a reflector over such a ListWatch still asks for
// pages of 500.
func TestCh05_DisableChunkingIsIgnored_R10(t *testing.T) {
	src := fakesource.New()
	lw := &listwatch.ListWatch{ListWithContextFunc: src.ListWithContext, WatchFuncWithContext: src.WatchWithContext, DisableChunking: true}
	r := NewReflector(lw, nil, newRecStore(), 0)
	assert.Equal(t, int64(500), r.listPageSize("0"))
	assert.Equal(t, int64(500), r.listPageSize(""))
}

// TestCh05_PagedListsEndToEnd_R10_R12 watches the limits on the wire: 501 pods make the RV=0
// LIST come back in two pages, so the reflector remembers that the server pages and keeps a
// limit on relists. One Replace holds every page, at the first page's RV.
func TestCh05_PagedListsEndToEnd_R10_R12(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		for i := range 501 {
			mustAdd(t, src, fmt.Sprintf("p%03d", i))
		}
		st := newRecStore()
		h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList}).run()
		forceRelist(src)
		h.stop()

		var limits []int64
		var conts []bool
		for _, c := range src.Calls() {
			if c.Verb == "LIST" {
				limits = append(limits, c.Options.Limit)
				conts = append(conts, c.Options.Continue != "")
			}
		}
		assert.Equal(t, []int64{500, 500, 500, 500}, limits, "RV=0 came back paged, so relists page too")
		assert.Equal(t, []bool{false, true, false, true}, conts)
		assert.Equal(t, []string{"0", "", "501", ""}, src.ListRVs(), "continuations carry no RV (PG-4)")
		assert.True(t, h.r.paginatedResult)
		ops := st.Ops()
		require.Len(t, ops, 2)
		assert.Contains(t, ops[0], "p500@501] rv=501", "one Replace with all 501 items")
	})
}

// TestCh05_UnpagedRelist_R10: with a small server the RV=0 LIST is one page, so a relist at
// a real RV asks for everything at once (limit 0).
func TestCh05_UnpagedRelist_R10(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		h := start(t, src, nil, newRecStore(), ReflectorOptions{UseWatchList: noWatchList}).run()
		forceRelist(src)
		h.stop()
		var limits []int64
		for _, c := range src.Calls() {
			if c.Verb == "LIST" {
				limits = append(limits, c.Options.Limit)
			}
		}
		assert.Equal(t, []int64{500, 0}, limits)
	})
}

// TestCh05_ReplaceThenRV_R12: a successful LIST calls Replace with the items and the list RV,
// and only then moves LastSyncResourceVersion.
func TestCh05_ReplaceThenRV_R12(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := fakesource.New()
		mustAdd(t, src, "a")
		mustAdd(t, src, "b")
		st := newRecStore()
		var rvDuringReplace []string
		h := start(t, src, nil, st, ReflectorOptions{UseWatchList: noWatchList})
		st.onReplace = func() { rvDuringReplace = append(rvDuringReplace, h.r.LastSyncResourceVersion()) }
		h.run()
		assert.Equal(t, []string{"Replace [a@1 b@2] rv=2"}, st.Ops())
		assert.Equal(t, []string{""}, rvDuringReplace, "the RV moves after Replace")
		assert.Equal(t, "2", h.r.LastSyncResourceVersion())
		h.stop()
	})
}

// TestCh05_ListCancelledLeavesStore_R12: a context cancelled during the LIST makes
// ListAndWatch return nil and leaves the store untouched.
func TestCh05_ListCancelledLeavesStore_R12(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		entered := make(chan struct{})
		lw := &listwatch.ListWatch{
			ListWithContextFunc: func(ctx context.Context, _ api.ListOptions) (api.Object, error) {
				close(entered)
				<-ctx.Done()
				// A client that returns data despite the cancel must still be ignored.
				return &api.PodList{Items: []api.Pod{*pod("a", "1")}}, nil
			},
			WatchFuncWithContext: func(context.Context, api.ListOptions) (watch.Interface, error) {
				t.Error("no watch after a cancelled LIST")
				return nil, nil
			},
		}
		st := newRecStore()
		r := NewReflectorWithOptions(lw, &api.Pod{}, st, ReflectorOptions{UseWatchList: noWatchList})
		ctx, cancel := context.WithCancel(context.Background())
		result := make(chan error, 1)
		go func() { result <- r.ListAndWatchWithContext(ctx) }()
		<-entered
		cancel()
		require.NoError(t, <-result)
		assert.Empty(t, st.Ops())
		assert.Empty(t, r.LastSyncResourceVersion())
	})
}

// TestCh05_ListBadResults_R7: answers the reflector cannot use are errors, never panics.
func TestCh05_ListBadResults_R7(t *testing.T) {
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"not a list", pod("a", "1"), "failed to list *api.Pod"},
		{"a Table", &api.Table{}, "failed to list *api.Pod"},
		{"an unstructured Table list", func() api.Object {
			l := &api.UnstructuredList{}
			l.SetGroupVersionKind(api.GroupVersionKind{Group: api.MetaGroupName, Version: "v1", Kind: "Table"})
			return l
		}(), "unsupported list gvk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lw := &listwatch.ListWatch{
				ListFunc:  func(api.ListOptions) (api.Object, error) { return tt.obj, nil },
				WatchFunc: func(api.ListOptions) (watch.Interface, error) { return watch.NewEmptyWatch(), nil },
			}
			st := newRecStore()
			r := NewReflectorWithOptions(lw, &api.Pod{}, st, ReflectorOptions{UseWatchList: noWatchList})
			err := r.ListAndWatchWithContext(context.Background())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Empty(t, st.Ops())
		})
	}

	// A reflector without a ListerWatcher or store reports it instead of panicking.
	assert.EqualError(t, NewReflector(nil, nil, newRecStore(), 0).ListAndWatchWithContext(context.Background()), "reflector: no ListerWatcher")
	assert.EqualError(t, NewReflector(fakesource.New(), nil, nil, 0).ListAndWatchWithContext(context.Background()), "reflector: no store")
}

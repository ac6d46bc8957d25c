package fakesource

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

func pod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: name}}
}

func names(t *testing.T, obj api.Object) []string {
	t.Helper()
	items, err := api.ExtractList(obj)
	require.NoError(t, err)
	var out []string
	for _, it := range items {
		m, _ := api.Accessor(it)
		out = append(out, m.GetName()+"@"+m.GetResourceVersion())
	}
	return out
}

// drain reads n events from w.
func drain(t *testing.T, w watch.Interface, n int) []string {
	t.Helper()
	var out []string
	for range n {
		ev, ok := <-w.ResultChan()
		require.True(t, ok, "stream ended early")
		m, _ := api.Accessor(ev.Object)
		s := string(ev.Type) + " " + m.GetName() + "@" + m.GetResourceVersion()
		if ev.Type == watch.Bookmark && m.GetAnnotations()[api.InitialEventsAnnotationKey] == "true" {
			s += " end"
		}
		out = append(out, s)
	}
	return out
}

// TestCh05_FakeSourceWritesAndLists_H1_H2_H8: one RV counter; lists carry it; a list at a
// future RV is a too-large error; objects are copies.
func TestCh05_FakeSourceWritesAndLists_H1_H2_H8(t *testing.T) {
	s := New()
	in := pod("a")
	rv, err := s.Add(in)
	require.NoError(t, err)
	assert.Equal(t, "1", rv)
	assert.Empty(t, in.ResourceVersion, "the caller's object is not touched")
	_, err = s.Add(pod("b"))
	require.NoError(t, err)
	_, err = s.Modify(pod("a"))
	require.NoError(t, err)

	for _, rv := range []string{"", "0", "2", "3"} {
		l, err := s.List(api.ListOptions{ResourceVersion: rv})
		require.NoError(t, err, rv)
		assert.Equal(t, []string{"a@3", "b@2"}, names(t, l))
		assert.Equal(t, "3", l.(api.ListObject).GetResourceVersion())
	}
	_, err = s.List(api.ListOptions{ResourceVersion: "9"})
	assert.True(t, api.IsTooLargeResourceVersion(err), "%v", err)
	_, err = s.List(api.ListOptions{ResourceVersion: "x"})
	assert.True(t, api.IsBadRequest(err))

	l, _ := s.List(api.ListOptions{})
	l.(*api.PodList).Items[0].Name = "mutated"
	l2, _ := s.List(api.ListOptions{})
	assert.Equal(t, []string{"a@3", "b@2"}, names(t, l2), "lists are deep copies (H-8)")

	// Injected errors.
	s.FailNextLists(NewInternalError("once"))
	_, err = s.List(api.ListOptions{})
	assert.True(t, api.IsInternalError(err))
	_, err = s.List(api.ListOptions{})
	assert.NoError(t, err)
	s.FailListAt("2", NewExpired("gone"))
	_, err = s.List(api.ListOptions{ResourceVersion: "2"})
	assert.True(t, api.IsResourceExpired(err))
	assert.Equal(t, map[string]string{"ns/a": "3", "ns/b": "2"}, s.State())
	assert.Equal(t, []string{"", "0", "2", "3", "9", "x", "", "", "", "", "2"}, s.ListRVs())

	// Bad writes are errors.
	_, err = s.Add(pod("a"))
	assert.Error(t, err)
	_, err = s.Modify(pod("zz"))
	assert.Error(t, err)
	_, err = s.Delete(pod("zz"))
	assert.Error(t, err)
	_, err = s.Add(nil)
	assert.Error(t, err)
	_, err = s.Add(&api.Pod{})
	assert.Error(t, err)
	_, err = s.Add(&api.PodList{})
	assert.Error(t, err)
}

// TestCh05_FakeSourcePaging_H3: limit and continue page the list; a token from before a
// compaction is 410 Expired; a malformed token is 400.
func TestCh05_FakeSourcePaging_H3(t *testing.T) {
	s := New()
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		_, _ = s.Add(pod(n))
	}
	var got []string
	opts := api.ListOptions{Limit: 2}
	for {
		l, err := s.List(opts)
		require.NoError(t, err)
		got = append(got, names(t, l)...)
		lo := l.(api.ListObject)
		assert.Equal(t, "5", lo.GetResourceVersion())
		if lo.GetContinue() == "" {
			break
		}
		opts.Continue = lo.GetContinue()
	}
	assert.Equal(t, []string{"a@1", "b@2", "c@3", "d@4", "e@5"}, got)

	l, _ := s.List(api.ListOptions{Limit: 2})
	tok := l.(api.ListObject).GetContinue()
	_, _ = s.Add(pod("f"))
	s.Compact()
	_, err := s.List(api.ListOptions{Limit: 2, Continue: tok})
	assert.True(t, api.IsResourceExpired(err))
	_, err = s.List(api.ListOptions{Continue: "garbage"})
	assert.True(t, api.IsBadRequest(err))
}

// TestCh05_FakeSourceWatch_H4_H6_H7: a watch from N replays after N; from "" or "0" starts with
// synthetic ADDED; a compacted N gets ERROR 410; bookmarks only when allowed; timeouts close.
func TestCh05_FakeSourceWatch_H4_H6_H7(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New()
		for _, n := range []string{"a", "b"} {
			_, _ = s.Add(pod(n))
		}
		_, _ = s.Modify(pod("a")) // RV 3

		w, err := s.Watch(api.ListOptions{ResourceVersion: "1", AllowWatchBookmarks: true})
		require.NoError(t, err)
		assert.Equal(t, []string{"ADDED b@2", "MODIFIED a@3"}, drain(t, w, 2))
		_, _ = s.Delete(pod("b"))
		s.Bookmark()
		assert.Equal(t, []string{"DELETED b@4", "BOOKMARK @4"}, drain(t, w, 2))
		w.Stop()
		_, ok := <-w.ResultChan()
		assert.False(t, ok)

		w0, _ := s.Watch(api.ListOptions{ResourceVersion: "0"}) // no bookmarks allowed
		assert.Equal(t, []string{"ADDED a@3"}, drain(t, w0, 1))
		s.Bookmark()
		_, _ = s.Add(pod("c"))
		assert.Equal(t, []string{"ADDED c@5"}, drain(t, w0, 1), "no bookmark for this watcher")

		s.Compact()
		old, err := s.Watch(api.ListOptions{ResourceVersion: "2"})
		require.NoError(t, err)
		ev := <-old.ResultChan()
		assert.Equal(t, watch.Error, ev.Type)
		assert.True(t, api.IsResourceExpired(api.FromObject(ev.Object)))
		_, ok = <-old.ResultChan()
		assert.False(t, ok, "the stream ends after the ERROR")
		s.SetExpiredOnOpen(true)
		_, err = s.Watch(api.ListOptions{ResourceVersion: "2"})
		assert.True(t, api.IsResourceExpired(err))

		timeout := int64(10)
		tw, _ := s.Watch(api.ListOptions{ResourceVersion: "5", TimeoutSeconds: &timeout})
		start := time.Now()
		_, ok = <-tw.ResultChan()
		assert.False(t, ok)
		assert.Equal(t, 10*time.Second, time.Since(start))

		s.CloseNextWatches(1)
		sw, _ := s.Watch(api.ListOptions{ResourceVersion: "5"})
		_, ok = <-sw.ResultChan()
		assert.False(t, ok, "closed at once")

		s.FailNextWatches(ErrConnectionRefused)
		_, err = s.Watch(api.ListOptions{})
		assert.True(t, errors.Is(err, syscall.ECONNREFUSED))

		s.DropNextEvents(1)
		_, _ = s.Modify(pod("a")) // dropped for w0
		_, _ = s.Modify(pod("a"))
		assert.Equal(t, []string{"MODIFIED a@7"}, drain(t, w0, 1))
		s.SendError(NewInternalError("x"))
		ev = <-w0.ResultChan()
		assert.Equal(t, watch.Error, ev.Type)

		ctx, cancel := context.WithCancel(context.Background())
		cw, _ := s.WatchWithContext(ctx, api.ListOptions{ResourceVersion: "7"})
		cancel()
		_, ok = <-cw.ResultChan()
		assert.False(t, ok, "a cancelled context ends the watch")
		synctest.Wait()
		now, most := s.OpenWatches()
		assert.Equal(t, 0, now)
		assert.Equal(t, 2, most)
		s.Close()
	})
}

// TestCh05_FakeSourceWatchList_H5: sendInitialEvents streams the state, then the annotated
// bookmark, then live events; a source without watch-list rejects it with 422.
func TestCh05_FakeSourceWatchList_H5(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New()
		_, _ = s.Add(pod("b"))
		_, _ = s.Add(pod("a"))
		yes := true
		opts := api.ListOptions{SendInitialEvents: &yes, ResourceVersionMatch: api.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true}
		w, err := s.Watch(opts)
		require.NoError(t, err)
		_, _ = s.Add(pod("c"))
		assert.Equal(t, []string{"ADDED a@2", "ADDED b@1", "BOOKMARK @2 end", "ADDED c@3"}, drain(t, w, 4))
		w.Stop()
		assert.True(t, s.Calls()[0].IsWatchList())

		bad := opts
		bad.ResourceVersionMatch = ""
		_, err = s.Watch(bad)
		assert.True(t, api.IsInvalid(err))
		future := opts
		future.ResourceVersion = "99"
		fw, err := s.Watch(future)
		require.NoError(t, err)
		ev := <-fw.ResultChan()
		assert.True(t, api.IsTooLargeResourceVersion(api.FromObject(ev.Object)))

		s.SetWatchListUnsupported(true)
		_, err = s.Watch(opts)
		assert.True(t, api.IsInvalid(err))
		assert.True(t, NoWatchList{Source: s}.IsWatchListSemanticsUnSupported())
		s.Close()
	})
}

package ch01_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

// event is one decoded watch line.
type event struct {
	Type   string  `json:"type"`
	Object api.Pod `json:"object"`
}

func startLab(t *testing.T, opts apiserver.Options) (*apiserver.Server, *http.Client) {
	t.Helper()
	s := apiserver.NewTestServer(t, opts)
	hc := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(hc.CloseIdleConnections)
	return s, hc
}

func getJSON(t *testing.T, hc *http.Client, u string, into any) int {
	t.Helper()
	resp, err := hc.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.NoError(t, json.NewDecoder(resp.Body).Decode(into))
	return resp.StatusCode
}

// openWatch returns a channel of decoded events; it closes when the stream ends.
func openWatch(t *testing.T, hc *http.Client, u string) <-chan event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	out := make(chan event, 1000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			var raw struct {
				Type   string          `json:"type"`
				Object json.RawMessage `json:"object"`
			}
			if json.Unmarshal(sc.Bytes(), &raw) != nil {
				continue
			}
			ev := event{Type: raw.Type}
			_ = json.Unmarshal(raw.Object, &ev.Object) // an ERROR's Status leaves the pod empty
			out <- ev
		}
	}()
	t.Cleanup(func() { cancel(); resp.Body.Close(); <-done })
	return out
}

func recv(t *testing.T, ch <-chan event) event {
	t.Helper()
	select {
	case ev, ok := <-ch:
		require.True(t, ok, "stream ended")
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
		return event{}
	}
}

// newPod is the least valid pod: the server refuses one without spec.containers (422), as
// kube-apiserver does.
func newPod(name string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
}

// TestCh01_ResourceVersionIsOneCounter (0.1, 0.4): writes to different kinds share one
// counter, and a list's RV is the store's.
func TestCh01_ResourceVersionIsOneCounter(t *testing.T) {
	s, hc := startLab(t, apiserver.Options{})
	ctx := context.Background()
	var rvs []string
	for i := range 3 {
		p, err := s.Create(ctx, "pods", "default", newPod(fmt.Sprint("p", i)))
		require.NoError(t, err)
		cm, err := s.Create(ctx, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("c", i)}})
		require.NoError(t, err)
		rvs = append(rvs, p.(*api.Pod).ResourceVersion, cm.(*api.ConfigMap).ResourceVersion)
	}
	assert.Equal(t, []string{"4", "5", "6", "7", "8", "9"}, rvs)
	var list api.PodList
	getJSON(t, hc, s.URL()+"/api/v1/namespaces/default/pods", &list)
	assert.Equal(t, "9", list.ResourceVersion, "the newest pod is at 8, the store at 9")
}

// TestCh01_ListThenWatchHasNoGap (W11): writes race with the list and the watch; the watch
// from the list's RV must continue exactly where the list stopped.
func TestCh01_ListThenWatchHasNoGap(t *testing.T) {
	s, hc := startLab(t, apiserver.Options{})
	ctx := context.Background()
	const total = 200
	writer := make(chan error, 1)
	go func() {
		for i := range total {
			if _, err := s.Create(ctx, "pods", "default", newPod(fmt.Sprintf("p%03d", i))); err != nil {
				writer <- err
				return
			}
		}
		writer <- nil
	}()
	var list api.PodList
	getJSON(t, hc, s.URL()+"/api/v1/namespaces/default/pods", &list)
	seen := map[string]bool{}
	for _, p := range list.Items {
		seen[p.Name] = true
	}
	events := openWatch(t, hc, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+list.ResourceVersion)
	last, _ := strconv.Atoi(list.ResourceVersion)
	for len(seen) < total {
		ev := recv(t, events)
		require.Equal(t, "ADDED", ev.Type)
		require.False(t, seen[ev.Object.Name], "duplicate %s", ev.Object.Name)
		seen[ev.Object.Name] = true
		rv, _ := strconv.Atoi(ev.Object.ResourceVersion)
		require.Equal(t, last+1, rv, "gap before %s", ev.Object.Name)
		last = rv
	}
	require.NoError(t, <-writer)
}

// TestCh01_PagingSnapshot (L7): pages keep the first page's RV while writes happen between
// them; the union of the pages is the store as of that RV.
func TestCh01_PagingSnapshot(t *testing.T) {
	s, hc := startLab(t, apiserver.Options{})
	ctx := context.Background()
	for i := range 10 {
		_, err := s.Create(ctx, "pods", "default", newPod(fmt.Sprintf("p%02d", i)))
		require.NoError(t, err)
	}
	var names []string
	var rvs []string
	cont := ""
	for i := 0; ; i++ {
		var page api.PodList
		getJSON(t, hc, s.URL()+"/api/v1/namespaces/default/pods?limit=3&continue="+url.QueryEscape(cont), &page)
		rvs = append(rvs, page.ResourceVersion)
		for _, p := range page.Items {
			names = append(names, p.Name)
		}
		// Churn between pages: delete one pod not yet listed and add one.
		_, _ = s.Delete(ctx, "pods", "default", fmt.Sprintf("p%02d", 9-i), nil)
		_, _ = s.Create(ctx, "pods", "default", newPod(fmt.Sprintf("new%d", i)))
		if cont = page.Continue; cont == "" {
			break
		}
	}
	assert.Equal(t, []string{"p00", "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09"}, names)
	assert.Equal(t, []string{"13", "13", "13", "13"}, rvs)
}

// TestCh01_CompactionGives410 (W12, L12, T10, T11).
func TestCh01_CompactionGives410(t *testing.T) {
	s, hc := startLab(t, apiserver.Options{})
	ctx := context.Background()
	for _, n := range []string{"a", "b"} {
		_, err := s.Create(ctx, "pods", "default", newPod(n))
		require.NoError(t, err)
	}
	var first api.PodList
	getJSON(t, hc, s.URL()+"/api/v1/pods?limit=1", &first)
	_, err := s.Create(ctx, "pods", "default", newPod("c")) // the snapshot at 5 now needs history
	require.NoError(t, err)
	s.CompactAll()

	events := openWatch(t, hc, s.URL()+"/api/v1/pods?watch=1&resourceVersion=3")
	ev := recv(t, events)
	assert.Equal(t, "ERROR", ev.Type)
	_, ok := <-events
	assert.False(t, ok, "the stream ends after the ERROR")

	var st api.Status
	code := getJSON(t, hc, s.URL()+"/api/v1/pods?limit=1&continue="+url.QueryEscape(first.Continue), &st)
	assert.Equal(t, 410, code)
	assert.Equal(t, api.StatusReasonExpired, st.Reason)
}

// TestCh01_Bookmarks (W16, T15): only with allowWatchBookmarks, with increasing RVs.
func TestCh01_Bookmarks(t *testing.T) {
	s, hc := startLab(t, apiserver.Options{BookmarkPeriod: 50 * time.Millisecond})
	ctx := context.Background()
	with := openWatch(t, hc, s.URL()+"/api/v1/pods?watch=1&resourceVersion=3&allowWatchBookmarks=true")
	without := openWatch(t, hc, s.URL()+"/api/v1/pods?watch=1&resourceVersion=3")
	var last int
	for i := range 3 {
		_, err := s.Create(ctx, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("c", i)}})
		require.NoError(t, err)
		ev := recv(t, with)
		require.Equal(t, "BOOKMARK", ev.Type)
		rv, _ := strconv.Atoi(ev.Object.ResourceVersion)
		require.GreaterOrEqual(t, rv, last)
		last = rv
	}
	_, err := s.Create(ctx, "pods", "default", newPod("a"))
	require.NoError(t, err)
	assert.Equal(t, "ADDED", recv(t, without).Type, "the first thing the other watch sees: no bookmark")
}

// TestCh01_WatchList (W7, H-5).
func TestCh01_WatchList(t *testing.T) {
	s, hc := startLab(t, apiserver.Options{})
	ctx := context.Background()
	for _, n := range []string{"a", "b"} {
		_, err := s.Create(ctx, "pods", "default", newPod(n))
		require.NoError(t, err)
	}
	events := openWatch(t, hc, s.URL()+"/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
	assert.Equal(t, "a", recv(t, events).Object.Name)
	assert.Equal(t, "b", recv(t, events).Object.Name)
	bm := recv(t, events)
	assert.Equal(t, "BOOKMARK", bm.Type)
	assert.Equal(t, "5", bm.Object.ResourceVersion)
	assert.Equal(t, "true", bm.Object.Annotations[api.InitialEventsAnnotationKey])
}

// TestCh01_WatchListRejected: the option that makes clients fall back to LIST+WATCH (T9).
func TestCh01_WatchListRejected(t *testing.T) {
	s, hc := startLab(t, apiserver.Options{RejectWatchList: true})
	var st api.Status
	code := getJSON(t, hc, s.URL()+"/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan", &st)
	assert.Equal(t, 422, code)
	assert.Equal(t, api.StatusReasonInvalid, st.Reason)
}

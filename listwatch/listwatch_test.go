package listwatch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/resttest"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/rest"
)

// LW-1: the WithContext functions win when both forms are set; the legacy ones are used
// otherwise.
func TestCh02_LW1_PrefersWithContext(t *testing.T) {
	var calls []string
	legacy := &ListWatch{
		ListFunc: func(api.ListOptions) (api.Object, error) { calls = append(calls, "list"); return &api.PodList{}, nil },
		WatchFunc: func(api.ListOptions) (watch.Interface, error) {
			calls = append(calls, "watch")
			return watch.NewEmptyWatch(), nil
		},
	}
	both := &ListWatch{
		ListFunc:  legacy.ListFunc,
		WatchFunc: legacy.WatchFunc,
		ListWithContextFunc: func(context.Context, api.ListOptions) (api.Object, error) {
			calls = append(calls, "list-ctx")
			return &api.PodList{}, nil
		},
		WatchFuncWithContext: func(context.Context, api.ListOptions) (watch.Interface, error) {
			calls = append(calls, "watch-ctx")
			return watch.NewEmptyWatch(), nil
		},
	}
	for _, lw := range []*ListWatch{legacy, both} {
		_, err := lw.List(api.ListOptions{})
		require.NoError(t, err)
		_, err = lw.WatchWithContext(context.Background(), api.ListOptions{})
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"list", "watch", "list-ctx", "watch-ctx"}, calls)
}

type optOut struct {
	ListerWatcher
	unsupported bool
}

func (o optOut) IsWatchListSemanticsUnSupported() bool { return o.unsupported }

// LW-2: the opt-out survives ToListerWatcherWithContext.
func TestCh02_LW2_WatchListOptOut(t *testing.T) {
	plain := struct{ ListerWatcher }{&ListWatch{}}
	for _, tc := range []struct {
		lw   ListerWatcher
		want bool
	}{{optOut{plain, true}, true}, {optOut{plain, false}, false}, {plain, false}} {
		u, ok := ToListerWatcherWithContext(tc.lw).(WatchListSemanticsUnsupported)
		require.True(t, ok)
		assert.Equal(t, tc.want, u.IsWatchListSemanticsUnSupported())
	}
	lw := &ListWatch{}
	assert.Same(t, lw, ToListerWatcherWithContext(lw), "already has the context form")
}

// pagedServer serves n pods in pages over HTTP, honouring limit and continue like the real
// server (L7), and records each query.
type pagedServer struct {
	mu      sync.Mutex
	n       int
	queries []url.Values
}

func (s *pagedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.queries = append(s.queries, q)
	s.mu.Unlock()
	start, _ := strconv.Atoi(q.Get("continue"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	end := s.n
	if limit > 0 && start+limit < end {
		end = start + limit
	}
	l := api.PodList{TypeMeta: api.TypeMeta{Kind: "PodList", APIVersion: "v1"}, ListMeta: api.ListMeta{ResourceVersion: "77"}, Items: []api.Pod{}}
	if end < s.n {
		l.Continue = strconv.Itoa(end)
	}
	for i := start; i < end; i++ {
		l.Items = append(l.Items, api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "demo", ResourceVersion: strconv.Itoa(i + 1)}})
	}
	b, _ := api.DefaultScheme.Encode(&l)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// NewListWatchFromClient lists with the field selector and pages through the pager.
func TestCh02_NewListWatchFromClient(t *testing.T) {
	ps := &pagedServer{n: 5}
	srv := httptest.NewServer(ps)
	defer srv.Close()
	c := newTestClient(t, srv.URL)
	lw := NewListWatchFromClient(c, "pods", "demo", fields.OneTermEqualSelector("spec.nodeName", "n1"))
	p := NewListPager(ListPageFunc(lw.ListWithContextFunc))
	p.PageSize = 2
	obj, paginated, err := p.List(context.Background(), api.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	assert.True(t, paginated)
	l := obj.(*api.PodList)
	assert.Len(t, l.Items, 5)
	assert.Equal(t, "77", l.ResourceVersion)
	require.Len(t, ps.queries, 3)
	assert.Equal(t, url.Values{"fieldSelector": {"spec.nodeName=n1"}, "limit": {"2"}, "resourceVersion": {"0"}}, ps.queries[0])
	assert.Equal(t, url.Values{"fieldSelector": {"spec.nodeName=n1"}, "limit": {"2"}, "continue": {"2"}}, ps.queries[1])

	// The legacy function and a nil selector work too.
	obj, err = NewListWatchFromClient(c, "pods", "", nil).List(api.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, obj.(*api.PodList).Items, 5)
	assert.Equal(t, url.Values{}, ps.queries[len(ps.queries)-1])

	// The modifier of the filtered form runs on every call.
	lw = NewFilteredListWatchFromClient(c, "pods", "demo", func(o *api.ListOptions) { o.LabelSelector = "app=web" })
	_, err = lw.List(api.ListOptions{Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, url.Values{"labelSelector": {"app=web"}, "limit": {"1"}}, ps.queries[len(ps.queries)-1])
	_, err = NewFilteredListWatchFromClient(c, "pods", "demo", nil).List(api.ListOptions{})
	require.NoError(t, err)
}

// rest contract item 5 and rest/watch contract item 4: the trace of one list and one watch.
func TestCh02_Trace(t *testing.T) {
	checkNoLeak(t)
	mux := http.NewServeMux()
	mux.Handle("/api/v1/namespaces/demo/pods", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("watch") != "true" {
			(&pagedServer{n: 2}).ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, resttest.PodEvent(watch.Added, "c", "78")+"\n"+resttest.PodEvent(watch.Deleted, "c", "79")+"\n")
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var buf bytes.Buffer
	c, err := rest.RESTClientFor(&rest.Config{Host: srv.URL, Logger: trace.NewPlainLogger(&buf)})
	require.NoError(t, err)
	lw := NewListWatchFromClient(c, "pods", "demo", fields.Everything())
	_, err = lw.List(api.ListOptions{})
	require.NoError(t, err)
	w, err := lw.Watch(api.ListOptions{ResourceVersion: "77"})
	require.NoError(t, err)
	assert.Len(t, resttest.Collect(t, w), 2)
	want := `msg="listwatch list" component=listwatch op=list key=/api/v1/namespaces/demo/pods rv=77 items=2
msg="listwatch watch-open" component=listwatch op=watch-open key=/api/v1/namespaces/demo/pods rv=77
msg="listwatch watch-event" component=listwatch op=watch-event key=demo/c rv=78 type=ADDED
msg="listwatch watch-event" component=listwatch op=watch-event key=demo/c rv=79 type=DELETED
msg="listwatch watch-close" component=listwatch op=watch-close key=/api/v1/namespaces/demo/pods rv=79 reason=eof
`
	assert.Equal(t, want, buf.String())
	assert.False(t, strings.Contains(buf.String(), "level="))
}

// W3, W4, W12: a watch over HTTP with a chunked, flushed body; an ERROR 410 in the stream;
// errors before the stream are API errors.
func TestCh02_WatchOverHTTP(t *testing.T) {
	checkNoLeak(t)
	var gotQuery url.Values
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotQuery = r.URL.Query()
		mu.Unlock()
		switch r.URL.Query().Get("resourceVersion") {
		case "bad":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(422)
			_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \"\" is invalid","reason":"Invalid","code":422}`)
			return
		case "yaml":
			w.Header().Set("Content-Type", "application/yaml;stream=watch")
			w.WriteHeader(200)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		f := w.(http.Flusher)
		f.Flush()
		for _, line := range []string{resttest.PodEvent(watch.Added, "a", "1044"), resttest.PodEvent(watch.Modified, "a", "1045"), resttest.ExpiredEvent} {
			_, _ = io.WriteString(w, line+"\n")
			f.Flush()
		}
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL)
	lw := NewListWatchFromClient(c, "pods", "demo", fields.Everything())

	w, err := lw.WatchWithContext(context.Background(), api.ListOptions{ResourceVersion: "1043", AllowWatchBookmarks: true})
	require.NoError(t, err)
	events := resttest.Collect(t, w)
	got := make([]string, len(events))
	for i, ev := range events {
		got[i] = resttest.Summary(ev)
	}
	assert.Equal(t, []string{"ADDED demo/a@1044 *api.Pod", "MODIFIED demo/a@1045 *api.Pod", "ERROR 410 Expired"}, got)
	mu.Lock()
	assert.Equal(t, url.Values{"watch": {"true"}, "resourceVersion": {"1043"}, "allowWatchBookmarks": {"true"}}, gotQuery)
	mu.Unlock()

	_, err = lw.Watch(api.ListOptions{ResourceVersion: "bad"})
	require.Error(t, err)
	assert.Equal(t, api.StatusReasonInvalid, api.ReasonForError(err))

	_, err = lw.Watch(api.ListOptions{ResourceVersion: "yaml"})
	require.ErrorContains(t, err, "only application/json and application/vnd.kubernetes.protobuf are supported")
}

// newTestClient is a REST client for a test server.
func newTestClient(t *testing.T, host string) *rest.RESTClient {
	t.Helper()
	c, err := rest.RESTClientFor(&rest.Config{Host: host})
	require.NoError(t, err)
	return c
}

package listwatch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// pageSource serves a fixed set of pod names in pages, like a server at one snapshot. It
// records every request. failAt makes the request with that index (0-based) fail with err.
type pageSource struct {
	mu       sync.Mutex
	names    []string
	listRV   string // RV of every page's ListMeta
	fullRV   string // RV of an unpaged (Limit 0) list, to tell the fallback apart
	failAt   int
	failErr  error
	requests []api.ListOptions
	// unstructured makes pages *api.UnstructuredList instead of *api.PodList.
	unstructured bool
	// onRequest runs before each answer (e.g. to cancel a context).
	onRequest func(n int)
}

func (s *pageSource) page(_ context.Context, opts api.ListOptions) (api.Object, error) {
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, opts)
	hook := s.onRequest
	s.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	if s.failErr != nil && n == s.failAt {
		return nil, s.failErr
	}
	start := 0
	if opts.Continue != "" {
		var err error
		if start, err = strconv.Atoi(opts.Continue); err != nil {
			return nil, fmt.Errorf("bad continue %q", opts.Continue)
		}
	}
	end := len(s.names)
	if opts.Limit > 0 && start+int(opts.Limit) < end {
		end = start + int(opts.Limit)
	}
	next := ""
	if end < len(s.names) {
		next = strconv.Itoa(end)
	}
	rv := s.listRV
	if opts.Limit == 0 && s.fullRV != "" {
		rv = s.fullRV
	}
	if s.unstructured {
		l := &api.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "PodList"}}
		l.SetResourceVersion(rv)
		l.SetContinue(next)
		for _, name := range s.names[start:end] {
			l.Items = append(l.Items, api.Unstructured{Object: map[string]any{
				"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name}}})
		}
		return l, nil
	}
	l := &api.PodList{TypeMeta: api.TypeMeta{Kind: "PodList", APIVersion: "v1"}}
	l.ResourceVersion, l.Continue = rv, next
	if next != "" {
		left := int64(len(s.names) - end)
		l.RemainingItemCount = &left
	}
	for _, name := range s.names[start:end] {
		l.Items = append(l.Items, api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns"}})
	}
	return l, nil
}

func podNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%03d", i)
	}
	return out
}

func itemNames(t *testing.T, obj api.Object) []string {
	t.Helper()
	items, err := api.ExtractList(obj)
	require.NoError(t, err)
	names := make([]string, 0, len(items))
	for _, it := range items {
		m, err := api.Accessor(it)
		require.NoError(t, err)
		names = append(names, m.GetName())
	}
	return names
}

func expired() *api.Status {
	return &api.Status{Status: api.StatusFailure, Code: http.StatusGone, Reason: api.StatusReasonExpired,
		Message: "The provided continue parameter is too old to display a consistent list result."}
}

// PG-1: an unset limit becomes PageSize; PageSize 0 means no limit; a caller's limit wins.
func TestCh02_PG1_PageSizeDefault(t *testing.T) {
	tests := []struct {
		name      string
		pageSize  int64
		optsLimit int64
		wantLimit int64
	}{
		{name: "default page size", pageSize: defaultPageSize, wantLimit: 500},
		{name: "page size 0 means no limit", pageSize: 0, wantLimit: 0},
		{name: "caller's limit kept", pageSize: 500, optsLimit: 7, wantLimit: 7},
		{name: "custom page size", pageSize: 3, wantLimit: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := &pageSource{names: podNames(2), listRV: "10"}
			p := NewListPager(src.page)
			p.PageSize = tc.pageSize
			_, _, err := p.List(context.Background(), api.ListOptions{Limit: tc.optsLimit})
			require.NoError(t, err)
			require.Len(t, src.requests, 1)
			assert.Equal(t, tc.wantLimit, src.requests[0].Limit)
		})
	}
	p := NewListPager(nil)
	assert.Equal(t, ListPager{PageSize: 500, FullListIfExpired: true, PageBufferSize: 10}, *p, "NewListPager defaults")
}

// PG-2: one page without a continue token comes back as the same object, not paginated.
func TestCh02_PG2_SinglePageUnchanged(t *testing.T) {
	var served api.Object
	p := NewListPager(func(ctx context.Context, opts api.ListOptions) (api.Object, error) {
		l := &api.PodList{ListMeta: api.ListMeta{ResourceVersion: "42"}, Items: []api.Pod{{}}}
		served = l
		return l, nil
	})
	got, paginated, err := p.List(context.Background(), api.ListOptions{})
	require.NoError(t, err)
	assert.False(t, paginated)
	assert.Same(t, served, got)
}

// PG-3: pages are concatenated into one list of the first page's type, at the first page's
// RV, with no continue token; this works for typed and unstructured lists.
func TestCh02_PG3_Concatenate(t *testing.T) {
	for _, unstructured := range []bool{false, true} {
		t.Run(fmt.Sprintf("unstructured=%v", unstructured), func(t *testing.T) {
			src := &pageSource{names: podNames(7), listRV: "100", unstructured: unstructured}
			p := NewListPager(src.page)
			p.PageSize = 3
			got, paginated, err := p.List(context.Background(), api.ListOptions{ResourceVersion: "0"})
			require.NoError(t, err)
			assert.True(t, paginated)
			assert.Len(t, src.requests, 3)
			if diff := cmp.Diff(podNames(7), itemNames(t, got)); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			l, err := api.ListAccessor(got)
			require.NoError(t, err)
			assert.Equal(t, "100", l.GetResourceVersion())
			assert.Empty(t, l.GetContinue())
			assert.Nil(t, l.GetRemainingItemCount())
			if unstructured {
				assert.IsType(t, &api.UnstructuredList{}, got)
			} else {
				assert.IsType(t, &api.PodList{}, got)
			}
		})
	}
}

// PG-3: the first page fixes the RV even when later pages report another one.
func TestCh02_PG3_FirstPageRV(t *testing.T) {
	rvs := []string{"5", "9"}
	p := NewListPager(func(_ context.Context, opts api.ListOptions) (api.Object, error) {
		i := 0
		if opts.Continue != "" {
			i = 1
		}
		l := &api.PodList{ListMeta: api.ListMeta{ResourceVersion: rvs[i]}, Items: []api.Pod{{}}}
		if i == 0 {
			l.Continue = "more"
		}
		return l, nil
	})
	got, _, err := p.List(context.Background(), api.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, "5", got.(*api.PodList).ResourceVersion)
	assert.Len(t, got.(*api.PodList).Items, 2)
}

// PG-4: continuation requests carry Continue and clear ResourceVersion and its match.
func TestCh02_PG4_ContinuationOptions(t *testing.T) {
	src := &pageSource{names: podNames(5), listRV: "100"}
	p := NewListPager(src.page)
	p.PageSize = 2
	opts := api.ListOptions{ResourceVersion: "90", ResourceVersionMatch: api.ResourceVersionMatchNotOlderThan,
		LabelSelector: "app=web", FieldSelector: "spec.nodeName=n1"}
	_, _, err := p.List(context.Background(), opts)
	require.NoError(t, err)
	want := []api.ListOptions{
		{ResourceVersion: "90", ResourceVersionMatch: "NotOlderThan", Limit: 2, LabelSelector: "app=web", FieldSelector: "spec.nodeName=n1"},
		{Continue: "2", Limit: 2, LabelSelector: "app=web", FieldSelector: "spec.nodeName=n1"},
		{Continue: "4", Limit: 2, LabelSelector: "app=web", FieldSelector: "spec.nodeName=n1"},
	}
	if diff := cmp.Diff(want, src.requests); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// PG-5: an Expired continuation falls back to exactly one full list at the caller's RV;
// an Expired first page, a Gone continuation or FullListIfExpired=false return the error.
func TestCh02_PG5_ExpiredFallback(t *testing.T) {
	gone := &api.Status{Status: api.StatusFailure, Code: http.StatusGone, Reason: api.StatusReasonGone, Message: "gone"}
	tests := []struct {
		name          string
		failAt        int
		failErr       error
		noFallback    bool
		wantErr       error
		wantRequests  int
		wantPaginated bool
	}{
		{name: "expired continuation falls back", failAt: 1, failErr: expired(), wantRequests: 3, wantPaginated: true},
		{name: "expired on a later page falls back", failAt: 2, failErr: expired(), wantRequests: 4, wantPaginated: true},
		{name: "expired first page is returned", failAt: 0, failErr: expired(), wantErr: expired(), wantRequests: 1},
		{name: "reason Gone does not fall back", failAt: 1, failErr: gone, wantErr: gone, wantRequests: 2, wantPaginated: true},
		{name: "fallback disabled", failAt: 1, failErr: expired(), noFallback: true, wantErr: expired(), wantRequests: 2, wantPaginated: true},
		{name: "wrapped expired still falls back", failAt: 1, failErr: fmt.Errorf("page: %w", expired()), wantRequests: 3, wantPaginated: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := &pageSource{names: podNames(7), listRV: "100", fullRV: "250", failAt: tc.failAt, failErr: tc.failErr}
			p := NewListPager(src.page)
			p.PageSize = 3
			p.FullListIfExpired = !tc.noFallback
			opts := api.ListOptions{ResourceVersion: "90", ResourceVersionMatch: "NotOlderThan", LabelSelector: "a=b"}
			got, paginated, err := p.List(context.Background(), opts)
			assert.Len(t, src.requests, tc.wantRequests)
			assert.Equal(t, tc.wantPaginated, paginated)
			if tc.wantErr != nil {
				require.Error(t, err)
				assert.Equal(t, tc.wantErr.Error(), err.Error())
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			last := src.requests[len(src.requests)-1]
			assert.Equal(t, api.ListOptions{ResourceVersion: "90", ResourceVersionMatch: "NotOlderThan", LabelSelector: "a=b"}, last,
				"the fallback has no limit and no continue, and the original RV and match")
			assert.Equal(t, podNames(7), itemNames(t, got))
			assert.Equal(t, "250", got.(*api.PodList).ResourceVersion, "the fallback's own result is returned")
		})
	}
}

// PG-6: a context cancelled between pages stops the pager with ctx.Err().
func TestCh02_PG6_ContextCancelledBetweenPages(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &pageSource{names: podNames(9), listRV: "1"}
	src.onRequest = func(n int) {
		if n == 1 {
			cancel() // during page 2: page 3 must not be asked for
		}
	}
	p := NewListPager(src.page)
	p.PageSize = 3
	got, paginated, err := p.List(ctx, api.ListOptions{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, got)
	assert.True(t, paginated)
	assert.Len(t, src.requests, 2)

	// Cancelled before the first page: no request at all.
	src2 := &pageSource{names: podNames(2)}
	_, _, err = NewListPager(src2.page).List(ctx, api.ListOptions{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, src2.requests)
}

// Bad input: non-list pages, nil pages, mixed list types and a missing PageFn are errors.
func TestCh02_PagerBadInput(t *testing.T) {
	tests := []struct {
		name    string
		pages   []api.Object
		wantErr string
	}{
		{name: "not a list", pages: []api.Object{&api.Pod{}}, wantErr: "a page must be a list"},
		{name: "nil list pointer", pages: []api.Object{(*api.PodList)(nil)}, wantErr: "a page must be a list"},
		{name: "nil object", pages: []api.Object{nil}, wantErr: "a page must be a list"},
		{name: "status is not an item list", pages: []api.Object{&api.Status{}}, wantErr: "a page must be a list with items"},
		{name: "mixed list types", pages: []api.Object{
			&api.PodList{ListMeta: api.ListMeta{Continue: "x"}, Items: []api.Pod{{}}},
			&api.ConfigMapList{Items: []api.ConfigMap{{}}},
		}, wantErr: "pages of different list types"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := 0
			p := NewListPager(func(context.Context, api.ListOptions) (api.Object, error) {
				obj := tc.pages[i]
				i++
				return obj, nil
			})
			_, _, err := p.List(context.Background(), api.ListOptions{})
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
	_, _, err := (&ListPager{}).List(context.Background(), api.ListOptions{})
	require.ErrorContains(t, err, "no PageFn")
	require.ErrorContains(t, (&ListPager{}).EachListItem(context.Background(), api.ListOptions{}, nil), "no PageFn")
}

func TestCh02_SimplePageFunc(t *testing.T) {
	var seen api.ListOptions
	fn := SimplePageFunc(func(opts api.ListOptions) (api.Object, error) {
		seen = opts
		return &api.PodList{}, nil
	})
	_, err := fn(context.Background(), api.ListOptions{Limit: 4})
	require.NoError(t, err)
	assert.Equal(t, int64(4), seen.Limit)
}

// EachListItem visits every item in order, stops at the first error of fn or of a page,
// and leaves no goroutine behind.
func TestCh02_EachListItem(t *testing.T) {
	checkNoLeak(t)
	t.Run("all items in order", func(t *testing.T) {
		src := &pageSource{names: podNames(10), listRV: "1"}
		p := NewListPager(src.page)
		p.PageSize, p.PageBufferSize = 3, 1
		var got []string
		require.NoError(t, p.EachListItem(context.Background(), api.ListOptions{}, func(obj api.Object) error {
			got = append(got, obj.(*api.Pod).Name)
			return nil
		}))
		assert.Equal(t, podNames(10), got)
		assert.Len(t, src.requests, 4)
	})
	t.Run("fn error stops", func(t *testing.T) {
		src := &pageSource{names: podNames(10), listRV: "1"}
		p := NewListPager(src.page)
		p.PageSize, p.PageBufferSize = 2, 0
		stop := errors.New("stop")
		n := 0
		err := p.EachListItem(context.Background(), api.ListOptions{}, func(api.Object) error {
			n++
			if n == 3 {
				return stop
			}
			return nil
		})
		require.ErrorIs(t, err, stop)
		assert.Equal(t, 3, n)
	})
	t.Run("page error returned", func(t *testing.T) {
		src := &pageSource{names: podNames(10), listRV: "1", failAt: 1, failErr: expired()}
		p := NewListPager(src.page)
		p.PageSize = 4
		n := 0
		err := p.EachListItem(context.Background(), api.ListOptions{}, func(api.Object) error { n++; return nil })
		require.Error(t, err)
		assert.Equal(t, api.StatusReasonExpired, api.ReasonForError(err), "no full-list fallback here, as upstream")
		assert.Equal(t, 4, n)
	})
	t.Run("negative buffer", func(t *testing.T) {
		p := NewListPager((&pageSource{}).page)
		p.PageBufferSize = -1
		require.ErrorContains(t, p.EachListItem(context.Background(), api.ListOptions{}, nil), "PageBufferSize")
	})
}

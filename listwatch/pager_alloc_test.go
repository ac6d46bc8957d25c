package listwatch

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// sharesArray reports whether item points at one of the elements of items.
func sharesArray[T any](item api.Object, items []T) bool {
	for i := range items {
		if any(&items[i]) == any(item) {
			return true
		}
	}
	return false
}

// ExtractListWithAlloc returns the same items as api.ExtractList, but each a shallow copy of
// its own instead of a pointer into the list, for typed and unstructured lists alike.
func TestCh02_ExtractListWithAlloc(t *testing.T) {
	t.Run("typed", func(t *testing.T) {
		list := &api.PodList{Items: []api.Pod{
			{ObjectMeta: api.ObjectMeta{Name: "a", Labels: map[string]string{"app": "web"}}},
			{ObjectMeta: api.ObjectMeta{Name: "b"}},
		}}
		shared, err := api.ExtractList(list)
		require.NoError(t, err)
		apart, err := ExtractListWithAlloc(list)
		require.NoError(t, err)

		assert.Empty(t, cmp.Diff(shared, apart))
		for i, item := range apart {
			assert.True(t, sharesArray(shared[i], list.Items), "api.ExtractList points into the list")
			assert.False(t, sharesArray(item, list.Items), "item %d still points into the list", i)
		}
		apart[0].(*api.Pod).Name = "renamed"
		assert.Equal(t, "a", list.Items[0].Name, "the copy is a copy")
		assert.Equal(t, "web", apart[0].(*api.Pod).Labels["app"], "shallow: what the item points to is shared")
	})
	t.Run("unstructured", func(t *testing.T) {
		list := &api.UnstructuredList{Items: []api.Unstructured{
			{Object: map[string]any{"metadata": map[string]any{"name": "a"}}},
		}}
		apart, err := ExtractListWithAlloc(list)
		require.NoError(t, err)
		require.Len(t, apart, 1)
		assert.False(t, sharesArray(apart[0], list.Items))
		assert.Equal(t, "a", apart[0].(*api.Unstructured).GetName())
	})
	t.Run("empty and not a list", func(t *testing.T) {
		apart, err := ExtractListWithAlloc(&api.PodList{})
		require.NoError(t, err)
		assert.Empty(t, apart)
		_, err = ExtractListWithAlloc(&api.Pod{})
		require.ErrorContains(t, err, "not a list")
		_, err = ExtractListWithAlloc((*api.PodList)(nil))
		require.ErrorContains(t, err, "not a list")
	})
}

// recordingPager is a pager over src that remembers every page it was given, so a test can
// ask whether an item still points into one of them.
type recordingPager struct {
	*ListPager
	mu    sync.Mutex
	pages []api.Object
}

func newRecordingPager(src *pageSource, pageSize int64) *recordingPager {
	rp := &recordingPager{}
	rp.ListPager = NewListPager(func(ctx context.Context, opts api.ListOptions) (api.Object, error) {
		obj, err := src.page(ctx, opts)
		if err == nil {
			rp.mu.Lock()
			rp.pages = append(rp.pages, obj)
			rp.mu.Unlock()
		}
		return obj, err
	})
	rp.PageSize, rp.PageBufferSize = pageSize, 1
	return rp
}

// inPage reports whether item points into the items array of a page served so far.
func (rp *recordingPager) inPage(item api.Object) bool {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	for _, page := range rp.pages {
		switch l := page.(type) {
		case *api.PodList:
			if sharesArray(item, l.Items) {
				return true
			}
		case *api.UnstructuredList:
			if sharesArray(item, l.Items) {
				return true
			}
		}
	}
	return false
}

// ListWithAlloc returns what List returns, but a paged result is an *ObjectList of items
// copied out of the pages, which ExtractListWithAlloc then passes through without a second
// copy. An unpaged result, and the full list after an expired continuation, are returned
// as they came.
func TestCh02_ListWithAlloc(t *testing.T) {
	t.Run("paged", func(t *testing.T) {
		for _, unstructured := range []bool{false, true} {
			src := &pageSource{names: podNames(7), listRV: "100", unstructured: unstructured}
			rp := newRecordingPager(src, 3)
			got, paginated, err := rp.ListWithAlloc(context.Background(), api.ListOptions{ResourceVersion: "0"})
			require.NoError(t, err)
			assert.True(t, paginated)
			require.IsType(t, &ObjectList{}, got)
			l := got.(*ObjectList)
			assert.Equal(t, api.ListMeta{ResourceVersion: "100"}, l.ListMeta, "the first page's RV, no continue")
			assert.Equal(t, api.GroupVersionKind{Version: "v1", Kind: "PodList"}, l.GroupVersionKind())
			assert.Equal(t, podNames(7), itemNames(t, got))
			for _, item := range l.Items {
				assert.False(t, rp.inPage(item), "an item still points into its page")
			}

			items, err := ExtractListWithAlloc(got)
			require.NoError(t, err)
			require.Len(t, items, len(l.Items))
			for i := range items {
				assert.Same(t, l.Items[i], items[i], "already apart: not copied again")
			}

			want, _, err := NewListPager(src.page).List(context.Background(), api.ListOptions{})
			require.NoError(t, err)
			assert.Equal(t, itemNames(t, want), itemNames(t, got), "the same items as List")
		}
	})
	t.Run("unpaged", func(t *testing.T) {
		rp := newRecordingPager(&pageSource{names: podNames(3), listRV: "5"}, 10)
		got, paginated, err := rp.ListWithAlloc(context.Background(), api.ListOptions{})
		require.NoError(t, err)
		assert.False(t, paginated)
		require.Len(t, rp.pages, 1)
		assert.Same(t, rp.pages[0], got, "the page itself")
		items, err := ExtractListWithAlloc(got)
		require.NoError(t, err)
		for _, item := range items {
			assert.False(t, rp.inPage(item), "ExtractListWithAlloc copies the page's items apart")
		}
	})
	t.Run("expired continuation", func(t *testing.T) {
		src := &pageSource{names: podNames(7), listRV: "100", fullRV: "250", failAt: 1, failErr: expired()}
		got, paginated, err := newRecordingPager(src, 3).ListWithAlloc(context.Background(), api.ListOptions{})
		require.NoError(t, err)
		assert.True(t, paginated)
		assert.Equal(t, "250", got.(*api.PodList).ResourceVersion, "the full list, as it came")
	})
	t.Run("bad page", func(t *testing.T) {
		p := NewListPager(func(_ context.Context, opts api.ListOptions) (api.Object, error) {
			if opts.Continue == "" {
				return &api.PodList{ListMeta: api.ListMeta{Continue: "x"}}, nil
			}
			return &api.Pod{}, nil
		})
		_, _, err := p.ListWithAlloc(context.Background(), api.ListOptions{})
		require.ErrorContains(t, err, "must be a list")
	})
}

// ObjectList holds its items as the objects they are: GetItems and SetItems neither copy
// the objects nor share the slice, and DeepCopyObject copies the items too.
func TestCh02_ObjectList(t *testing.T) {
	a, b := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a"}}, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "b"}}
	l := &ObjectList{ListMeta: api.ListMeta{ResourceVersion: "3"}}
	require.NoError(t, api.SetList(l, []api.Object{a, b}))
	assert.Same(t, a, l.Items[0])

	items, err := api.ExtractList(l)
	require.NoError(t, err)
	items[0] = b
	assert.Same(t, a, l.Items[0], "GetItems returns a slice of its own")

	acc, err := api.ListAccessor(l)
	require.NoError(t, err)
	assert.Equal(t, "3", acc.GetResourceVersion())

	c := l.DeepCopyObject().(*ObjectList)
	assert.Empty(t, cmp.Diff(l, c))
	assert.NotSame(t, a, c.Items[0])
	c.Items[0].(*api.Pod).Name = "changed"
	assert.Equal(t, "a", a.Name)
	assert.Nil(t, (*ObjectList)(nil).DeepCopyObject())
}

// EachListItemWithAlloc visits the items EachListItem visits, in the same order, but none of
// them points into its page, so keeping one does not keep the page.
func TestCh02_EachListItemWithAlloc(t *testing.T) {
	checkNoLeak(t)
	rp := newRecordingPager(&pageSource{names: podNames(10), listRV: "1"}, 3)
	for _, tc := range []struct {
		name    string
		each    func(context.Context, api.ListOptions, func(api.Object) error) error
		inPages bool
	}{
		{"EachListItem", rp.EachListItem, true},
		{"EachListItemWithAlloc", rp.EachListItemWithAlloc, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			require.NoError(t, tc.each(context.Background(), api.ListOptions{}, func(obj api.Object) error {
				got = append(got, obj.(*api.Pod).Name)
				assert.Equal(t, tc.inPages, rp.inPage(obj), obj.(*api.Pod).Name)
				return nil
			}))
			assert.Equal(t, podNames(10), got)
		})
	}
}

package reflector

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/listwatch"
)

// TestCh05_ListPagedTableList_R7: a Table list is refused even when it comes in pages, which
// the pager's ListWithAlloc turns into a listwatch.ObjectList of the pages' kind.
func TestCh05_ListPagedTableList_R7(t *testing.T) {
	tableGVK := api.GroupVersionKind{Group: api.MetaGroupName, Version: "v1", Kind: "Table"}
	lw := &listwatch.ListWatch{
		ListFunc: func(opts api.ListOptions) (api.Object, error) {
			l := &api.UnstructuredList{}
			l.SetGroupVersionKind(tableGVK)
			l.Items = []api.Unstructured{{Object: map[string]any{"metadata": map[string]any{"name": "row"}}}}
			if opts.Continue == "" {
				l.SetContinue("more")
			}
			return l, nil
		},
		WatchFunc: func(api.ListOptions) (watch.Interface, error) { return watch.NewEmptyWatch(), nil },
	}
	st := newRecStore()
	r := NewReflectorWithOptions(lw, &api.Pod{}, st, ReflectorOptions{UseWatchList: noWatchList})
	err := r.ListAndWatchWithContext(context.Background())
	require.ErrorContains(t, err, "unsupported list gvk")
	assert.Empty(t, st.Ops())
}

package listwatch

import (
	"context"
	"strconv"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/resttest"
)

// BenchmarkPagerConcat10k: the pager joining 20 pages of 500 pods into one PodList.
func BenchmarkPagerConcat10k(b *testing.B) {
	const total, size = 10_000, 500
	pages := make([]*api.PodList, 0, total/size)
	for start := 0; start < total; start += size {
		l := &api.PodList{ListMeta: api.ListMeta{ResourceVersion: "9"}, Items: make([]api.Pod, size)}
		for i := range l.Items {
			l.Items[i] = *resttest.BenchPod(start + i)
		}
		if start+size < total {
			l.Continue = strconv.Itoa(len(pages) + 1)
		}
		pages = append(pages, l)
	}
	p := NewListPager(func(_ context.Context, opts api.ListOptions) (api.Object, error) {
		i, _ := strconv.Atoi(opts.Continue)
		page := *pages[i] // the pager owns what it is given: hand out a shallow copy
		return &page, nil
	})
	b.ReportAllocs()
	for b.Loop() {
		obj, _, err := p.List(context.Background(), api.ListOptions{})
		if err != nil || len(obj.(*api.PodList).Items) != total {
			b.Fatalf("got %v, %v", obj, err)
		}
	}
}

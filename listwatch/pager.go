package listwatch

import (
	"context"
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// Defaults of NewListPager, as in client-go tools/pager.
const (
	defaultPageSize       = 500
	defaultPageBufferSize = 10
)

// ListPageFunc mirrors pager.ListPageFunc in client-go tools/pager/pager.go: it fetches one
// page of a list, whose ListMeta.Continue says whether more pages follow.
type ListPageFunc func(ctx context.Context, opts api.ListOptions) (api.Object, error)

// SimplePageFunc mirrors pager.SimplePageFunc: it adapts a function without a context.
func SimplePageFunc(fn func(opts api.ListOptions) (api.Object, error)) ListPageFunc {
	return func(_ context.Context, opts api.ListOptions) (api.Object, error) {
		return fn(opts)
	}
}

// ListPager mirrors pager.ListPager in client-go tools/pager/pager.go: it turns a paged LIST
// into one list (PG-1 … PG-6).
type ListPager struct {
	// PageFn fetches one page.
	PageFn ListPageFunc
	// PageSize is the limit set on requests that carry none; 0 asks for everything at once.
	PageSize int64
	// FullListIfExpired makes an expired continue token fall back to one unpaged LIST (PG-5).
	FullListIfExpired bool
	// PageBufferSize is how many pages EachListItem fetches ahead of its callback.
	PageBufferSize int32
}

// NewListPager mirrors pager.New: PageSize 500, FullListIfExpired true, PageBufferSize 10.
func NewListPager(fn ListPageFunc) *ListPager {
	return &ListPager{
		PageFn:            fn,
		PageSize:          defaultPageSize,
		FullListIfExpired: true,
		PageBufferSize:    defaultPageBufferSize,
	}
}

// List mirrors ListPager.List. It returns the first page unchanged when the server did not
// page (paginated false, PG-2); otherwise one list of the first page's type holding every
// page's items, at the first page's resourceVersion (PG-3). The returned list owns its
// items; the pages are not kept.
func (p *ListPager) List(ctx context.Context, opts api.ListOptions) (api.Object, bool, error) {
	if p.PageFn == nil {
		return nil, false, errors.New("listwatch: ListPager has no PageFn")
	}
	if opts.Limit == 0 {
		opts.Limit = p.PageSize // PG-1
	}
	wantRV, wantMatch := opts.ResourceVersion, opts.ResourceVersionMatch

	var (
		first     api.ListObject // the page whose type and RV the result keeps
		items     []api.Object
		paginated bool
	)
	for {
		if err := ctx.Err(); err != nil {
			return nil, paginated, err // PG-6
		}
		obj, err := p.PageFn(ctx, opts)
		if err != nil {
			// An expired token mid-way: the pages so far are useless, because the data they
			// came from no longer exists. One full list at the caller's RV replaces them. Only
			// reason Expired counts; Gone does not, as upstream (PG-5).
			if opts.Continue == "" || !p.FullListIfExpired || !api.IsResourceExpired(err) {
				return nil, paginated, err
			}
			opts.Limit, opts.Continue = 0, ""
			opts.ResourceVersion, opts.ResourceVersionMatch = wantRV, wantMatch
			full, err := p.PageFn(ctx, opts) // PG-5
			return full, paginated, err
		}
		page, err := asListPage(obj)
		if err != nil {
			return nil, paginated, err
		}
		next := page.GetContinue()
		pageItems := page.GetItems()
		if first == nil {
			if next == "" {
				return obj, false, nil // PG-2
			}
			first = page
			items = make([]api.Object, 0, 2*len(pageItems))
		}
		items = append(items, pageItems...)
		if next == "" {
			break
		}
		opts.Continue = next // PG-4
		opts.ResourceVersion, opts.ResourceVersionMatch = "", ""
		paginated = true
	}

	// The first page becomes the result: its RV is the snapshot every page was read at.
	if err := first.SetItems(items); err != nil {
		return nil, paginated, fmt.Errorf("listwatch: pages of different list types: %w", err)
	}
	first.SetContinue("")
	first.SetRemainingItemCount(nil)
	return first, paginated, nil
}

// EachListItem mirrors ListPager.EachListItem: it calls fn for every item of every page, in
// order, while up to PageBufferSize pages are fetched ahead. An error from fn or from a page
// stops it; the fetching goroutine always ends before EachListItem returns. Unlike List it
// does not fall back to a full list on an expired token, as upstream.
func (p *ListPager) EachListItem(ctx context.Context, opts api.ListOptions, fn func(obj api.Object) error) error {
	if p.PageFn == nil {
		return errors.New("listwatch: ListPager has no PageFn")
	}
	if p.PageBufferSize < 0 {
		return fmt.Errorf("listwatch: ListPager.PageBufferSize must be >= 0, got %d", p.PageBufferSize)
	}
	if opts.Limit == 0 {
		opts.Limit = p.PageSize
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	pages := make(chan api.ListObject, p.PageBufferSize)
	fetchErr := make(chan error, 1)
	go func() {
		defer close(pages)
		fetchErr <- p.fetchPages(ctx, opts, pages)
	}()

	for page := range pages {
		for _, item := range page.GetItems() {
			if err := fn(item); err != nil {
				cancel()
				for range pages { // let the fetcher see the cancel and finish
				}
				<-fetchErr
				return err
			}
		}
	}
	return <-fetchErr
}

// fetchPages sends pages to out until the last one, an error, or ctx ends.
func (p *ListPager) fetchPages(ctx context.Context, opts api.ListOptions, out chan<- api.ListObject) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		obj, err := p.PageFn(ctx, opts)
		if err != nil {
			return err
		}
		page, err := asListPage(obj)
		if err != nil {
			return err
		}
		select {
		case out <- page:
		case <-ctx.Done():
			return ctx.Err()
		}
		next := page.GetContinue()
		if next == "" {
			return nil
		}
		opts.Continue = next
		opts.ResourceVersion, opts.ResourceVersionMatch = "", ""
	}
}

// asListPage checks that a page is a list with item access, and not a nil pointer.
func asListPage(obj api.Object) (api.ListObject, error) {
	if _, err := api.ListAccessor(obj); err != nil {
		return nil, fmt.Errorf("listwatch: a page must be a list: %w", err)
	}
	page, ok := obj.(api.ListObject)
	if !ok {
		return nil, fmt.Errorf("listwatch: a page must be a list with items, got %T", obj)
	}
	return page, nil
}

package listwatch

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

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
// items; the pages are not kept. Its items share one array, so a caller that keeps them for
// different lifetimes should use ListWithAlloc and ExtractListWithAlloc instead.
func (p *ListPager) List(ctx context.Context, opts api.ListOptions) (api.Object, bool, error) {
	return p.list(ctx, opts, false)
}

// ListWithAlloc mirrors ListPager.ListWithAlloc: List, but a paged result is an *ObjectList
// whose items are shallow copies of the pages' items, each in an allocation of its own, as
// upstream's ListWithAlloc returns a metainternalversion.List. An unpaged result is still
// the page itself; ExtractListWithAlloc then copies its items apart, and passes those of an
// *ObjectList through, so either way every item is copied exactly once.
func (p *ListPager) ListWithAlloc(ctx context.Context, opts api.ListOptions) (api.Object, bool, error) {
	return p.list(ctx, opts, true)
}

func (p *ListPager) list(ctx context.Context, opts api.ListOptions, allocNew bool) (api.Object, bool, error) {
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
		if first == nil && next == "" {
			return obj, false, nil // PG-2
		}
		pageItems, err := extractList(page, allocNew)
		if err != nil {
			return nil, paginated, err
		}
		if first == nil {
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

	if allocNew {
		l := &ObjectList{Items: items}
		l.SetGroupVersionKind(first.GetObjectKind().GroupVersionKind())
		l.ResourceVersion = first.GetResourceVersion()
		return l, paginated, nil
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
// does not fall back to a full list on an expired token, as upstream. The items point into
// their page, so an fn that keeps some of them should use EachListItemWithAlloc.
func (p *ListPager) EachListItem(ctx context.Context, opts api.ListOptions, fn func(obj api.Object) error) error {
	return p.eachListItem(ctx, opts, fn, false)
}

// EachListItemWithAlloc mirrors ListPager.EachListItemWithAlloc: EachListItem, but fn gets a
// shallow copy of each item in an allocation of its own, so an item fn keeps does not keep
// its whole page alive.
func (p *ListPager) EachListItemWithAlloc(ctx context.Context, opts api.ListOptions, fn func(obj api.Object) error) error {
	return p.eachListItem(ctx, opts, fn, true)
}

func (p *ListPager) eachListItem(ctx context.Context, opts api.ListOptions, fn func(obj api.Object) error, allocNew bool) error {
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
		if err := eachItem(page, allocNew, fn); err != nil {
			cancel()
			for range pages { // let the fetcher see the cancel and finish
			}
			<-fetchErr
			return err
		}
	}
	return <-fetchErr
}

// eachItem calls fn for every item of page until fn fails.
func eachItem(page api.ListObject, allocNew bool, fn func(obj api.Object) error) error {
	items, err := extractList(page, allocNew)
	if err != nil {
		return err
	}
	for _, item := range items {
		if err := fn(item); err != nil {
			return err
		}
	}
	return nil
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

// ExtractListWithAlloc mirrors meta.ExtractListWithAlloc in apimachinery
// pkg/api/meta/help.go: the items of a list as Objects, none pointing into the list. Each
// item of a typed or unstructured list is shallow-copied into an allocation of its own;
// those of an *ObjectList are separate objects already and come back as they are.
// api.ExtractList returns pointers into the list's items array instead, and one such
// pointer keeps the whole array alive: a cache that holds the items of one LIST for
// different lifetimes needs this form, at the cost of one allocation per item. A shallow
// copy is enough, since what an item points to (maps, slices, strings) was allocated for
// that item alone.
func ExtractListWithAlloc(obj api.Object) ([]api.Object, error) {
	return extractList(obj, true)
}

// extractList is api.ExtractList, with each item copied apart when allocNew is set, unless
// the list holds separate objects already (an *ObjectList), as upstream leaves items that
// are themselves Objects alone.
func extractList(obj api.Object, allocNew bool) ([]api.Object, error) {
	items, err := api.ExtractList(obj)
	if _, apart := obj.(*ObjectList); err != nil || !allocNew || apart {
		return items, err
	}
	for i, item := range items {
		if items[i], err = allocApart(item); err != nil {
			return nil, fmt.Errorf("listwatch: item %d of %T: %w", i, obj, err)
		}
	}
	return items, nil
}

// allocApart returns a shallow copy of *item in a new allocation. Reflection keeps it
// independent of the list types, as meta's reflect.New does upstream.
func allocApart(item api.Object) (api.Object, error) {
	v := reflect.ValueOf(item)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("%T is not a non-nil pointer", item)
	}
	c := reflect.New(v.Type().Elem())
	c.Elem().Set(v.Elem())
	return c.Interface().(api.Object), nil // c has item's own type
}

// ObjectList mirrors List in apimachinery pkg/apis/meta/internalversion/types.go, the list
// a paged ListWithAlloc returns: its items are separate Objects instead of the elements of
// one typed array. Unlike upstream's, it keeps the kind of the pages it was built from, so
// a paged Table list can still be told apart.
type ObjectList struct {
	api.TypeMeta
	api.ListMeta
	Items []api.Object
}

// DeepCopyObject mirrors the generated List.DeepCopyObject: every item is deep-copied.
func (l *ObjectList) DeepCopyObject() api.Object {
	if l == nil {
		return nil
	}
	out := &ObjectList{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	if l.Items != nil {
		out.Items = make([]api.Object, len(l.Items))
		for i, item := range l.Items {
			if item != nil {
				out.Items[i] = item.DeepCopyObject()
			}
		}
	}
	return out
}

// GetItems mirrors meta.ExtractList for a List: the items themselves, in a new slice.
func (l *ObjectList) GetItems() []api.Object { return slices.Clone(l.Items) }

// SetItems mirrors meta.SetList for a List: it keeps the given objects, not copies, since
// each is an object of its own already.
func (l *ObjectList) SetItems(objs []api.Object) error {
	l.Items = append(make([]api.Object, 0, len(objs)), objs...)
	return nil
}

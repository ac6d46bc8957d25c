package reflector

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/listwatch"
)

// list mirrors Reflector.list (R-9 … R-12): LIST through the pager at relistResourceVersion,
// retry once at RV "" when that RV is gone or too new, then Replace the store. Like upstream
// it lists with ListWithAlloc and extracts with ExtractListWithAlloc, so every object gets
// an allocation of its own.
//
// Unlike upstream, which abandons an in-flight LIST in a goroutine when ctx ends, this one
// passes ctx down and waits for the LIST to return, so no goroutine outlives Run.
//
//lab:05.1
func (r *Reflector) list(ctx context.Context) error {
	opts := api.ListOptions{ResourceVersion: r.relistResourceVersion()}
	pager := listwatch.NewListPager(func(ctx context.Context, o api.ListOptions) (api.Object, error) {
		return r.listerWatcher.ListWithContext(ctx, o)
	})
	pager.PageSize = r.listPageSize(opts.ResourceVersion)

	r.traceList(opts.ResourceVersion)
	list, paginated, err := pager.ListWithAlloc(ctx, opts)
	if err != nil && ctx.Err() == nil && (IsExpiredError(err) || IsTooLargeResourceVersionError(err)) {
		// the RV is unusable, so ask for the latest consistent state instead.
		r.setIsLastSyncResourceVersionUnavailable(true)
		opts = api.ListOptions{ResourceVersion: r.relistResourceVersion()}
		r.traceList(opts.ResourceVersion)
		list, paginated, err = pager.ListWithAlloc(ctx, opts)
	}
	if ctx.Err() != nil {
		return nil // stopped while listing; leave the store alone
	}
	if err == nil && isUnsupportedTableList(list) {
		err = fmt.Errorf("unsupported list gvk: %v", list.GetObjectKind().GroupVersionKind())
	}
	if err != nil {
		return fmt.Errorf("failed to list %v: %w", r.typeDescription, err)
	}
	if opts.ResourceVersion == "0" && paginated {
		r.paginatedResult = true
	}
	r.setIsLastSyncResourceVersionUnavailable(false)

	listMeta, err := api.ListAccessor(list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %T: %w", list, err)
	}
	resourceVersion := listMeta.GetResourceVersion()
	// The store keeps each object for its own lifetime. A pointer into a list's items array
	// would keep every object of this LIST alive for as long as any one of them is cached.
	items, err := listwatch.ExtractListWithAlloc(list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %T: %w", list, err)
	}
	if err := r.syncWith(items, resourceVersion); err != nil {
		return fmt.Errorf("unable to sync list result: %w", err)
	}
	r.setLastSyncResourceVersion(resourceVersion)
	return nil
}

// listPageSize mirrors the page-size switch in Reflector.list.
func (r *Reflector) listPageSize(rv string) int64 {
	switch {
	case r.WatchListPageSize != 0:
		return r.WatchListPageSize
	case r.paginatedResult:
		return listwatch.NewListPager(nil).PageSize
	case rv != "" && rv != "0":
		// Unpaged, so a real apiserver may answer from its watch cache instead of etcd.
		return 0
	default:
		return listwatch.NewListPager(nil).PageSize
	}
}

// traceList logs a LIST request: "list" for the very first (RV "0"), "relist" afterwards.
func (r *Reflector) traceList(rv string) {
	if !trace.Enabled(r.logger) {
		return
	}
	op := "relist"
	if rv == "0" {
		op = "list"
	}
	trace.Hop(r.logger, traceComponent, op, "", rv)
}

// syncWith mirrors Reflector.syncWith: one Replace with the listed items.
func (r *Reflector) syncWith(items []api.Object, resourceVersion string) error {
	found := make([]any, len(items))
	for i, item := range items {
		found[i] = item
	}
	if trace.Enabled(r.logger) {
		trace.Hop(r.logger, traceComponent, "replace", "", resourceVersion, slog.Int("items", len(found)))
	}
	return r.store.Replace(found, resourceVersion)
}

// isUnsupportedTableList mirrors isUnsupportedTableListObject: a reflector cannot store rows.
// A paged unstructured Table list arrives as a *listwatch.ObjectList of the pages' kind.
func isUnsupportedTableList(obj api.Object) bool {
	switch l := obj.(type) {
	case *api.Table:
		return true
	case *api.UnstructuredList:
		return l != nil && isTableGVK(l.GroupVersionKind())
	case *listwatch.ObjectList:
		return l != nil && isTableGVK(l.GroupVersionKind())
	}
	return false
}

// isUnsupportedTableObject mirrors isUnsupportedTableObject.
func isUnsupportedTableObject(obj api.Object) bool {
	u, ok := obj.(*api.Unstructured)
	return ok && u != nil && isTableGVK(u.GroupVersionKind())
}

func isTableGVK(gvk api.GroupVersionKind) bool {
	return gvk.Kind == "Table" && gvk.Group == api.MetaGroupName && (gvk.Version == "v1" || gvk.Version == "v1beta1")
}

package listwatch

import (
	"context"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/rest"
)

// Getter mirrors cache.Getter in client-go tools/cache/listwatch.go: anything that starts
// a GET request, such as *rest.RESTClient.
type Getter interface {
	Get() *rest.Request
}

// NewListWatchFromClient mirrors cache.NewListWatchFromClient: a ListWatch over one
// resource of c's group-version, in namespace ("" for all), filtered by fieldSelector.
func NewListWatchFromClient(c Getter, resource, namespace string, fieldSelector fields.Selector) *ListWatch {
	if fieldSelector == nil {
		fieldSelector = fields.Everything()
	}
	return NewFilteredListWatchFromClient(c, resource, namespace, func(opts *api.ListOptions) {
		opts.FieldSelector = fieldSelector.String()
	})
}

// NewFilteredListWatchFromClient mirrors cache.NewFilteredListWatchFromClient: every LIST and
// WATCH passes its options through optionsModifier first (to set selectors); a WATCH also
// carries watch=true. All four function fields are set; the WithContext ones win (LW-1).
func NewFilteredListWatchFromClient(c Getter, resource, namespace string, optionsModifier func(opts *api.ListOptions)) *ListWatch {
	if optionsModifier == nil {
		optionsModifier = func(*api.ListOptions) {}
	}
	list := func(ctx context.Context, opts api.ListOptions) (api.Object, error) {
		optionsModifier(&opts)
		return c.Get().Namespace(namespace).Resource(resource).VersionedParams(&opts).Do(ctx).Get()
	}
	watchFn := func(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
		opts.Watch = true
		optionsModifier(&opts)
		return c.Get().Namespace(namespace).Resource(resource).VersionedParams(&opts).Watch(ctx)
	}
	return &ListWatch{
		ListFunc: func(opts api.ListOptions) (api.Object, error) {
			return list(context.Background(), opts)
		},
		WatchFunc: func(opts api.ListOptions) (watch.Interface, error) {
			return watchFn(context.Background(), opts)
		},
		ListWithContextFunc:  list,
		WatchFuncWithContext: watchFn,
	}
}

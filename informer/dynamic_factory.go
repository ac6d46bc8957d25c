package informer

import "time"

// NewDynamicSharedInformerFactory mirrors dynamicinformer.NewDynamicSharedInformerFactory of
// client-go: ForResource gives every resource, built-in or custom, one shared informer of
// *api.Unstructured objects, as a dynamic client's lists decode. The cluster's controllers
// use it, so a controller reads every field the server stores, not only what a typed view
// declares. Core() still builds typed informers; do not mix them with a dynamic source.
func NewDynamicSharedInformerFactory(source ListWatchSource, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory {
	f := NewSharedInformerFactoryWithOptions(source, defaultResync, options...).(*sharedInformerFactory)
	f.dynamic = true
	return f
}

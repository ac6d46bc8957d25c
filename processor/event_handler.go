package processor

// ResourceEventHandler mirrors cache.ResourceEventHandler in client-go tools/cache/controller.go.
// The objects are the informer's cached pointers: a handler must never modify them. OnDelete
// may receive a DeletedFinalStateUnknown tombstone instead of the object. isInInitialList is
// true for adds that belong to the informer's first list, or to the synthetic adds a late
// handler receives (SI-19).
type ResourceEventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs mirrors cache.ResourceEventHandlerFuncs: set any of the three
// functions; nil ones are skipped. AddFunc cannot see isInInitialList, which is why
// ResourceEventHandlerDetailedFuncs exists.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

// OnAdd mirrors ResourceEventHandlerFuncs.OnAdd: AddFunc(obj) if set; isInInitialList is dropped.
func (r ResourceEventHandlerFuncs) OnAdd(obj any, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate mirrors ResourceEventHandlerFuncs.OnUpdate: UpdateFunc if set.
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete mirrors ResourceEventHandlerFuncs.OnDelete: DeleteFunc if set.
func (r ResourceEventHandlerFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// ResourceEventHandlerDetailedFuncs mirrors cache.ResourceEventHandlerDetailedFuncs: like
// ResourceEventHandlerFuncs, but AddFunc also receives isInInitialList.
type ResourceEventHandlerDetailedFuncs struct {
	AddFunc    func(obj any, isInInitialList bool)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

// OnAdd mirrors ResourceEventHandlerDetailedFuncs.OnAdd: AddFunc(obj, isInInitialList) if set.
func (r ResourceEventHandlerDetailedFuncs) OnAdd(obj any, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate mirrors ResourceEventHandlerDetailedFuncs.OnUpdate: UpdateFunc if set.
func (r ResourceEventHandlerDetailedFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete mirrors ResourceEventHandlerDetailedFuncs.OnDelete: DeleteFunc if set.
func (r ResourceEventHandlerDetailedFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// FilteringResourceEventHandler mirrors cache.FilteringResourceEventHandler: events reach
// Handler only for objects FilterFunc accepts, and an update that moves an object across the
// filter becomes an add or a delete (C-12). Unlike client-go, a nil FilterFunc accepts
// everything and a nil Handler drops everything, instead of panicking at the first event.
type FilteringResourceEventHandler struct {
	FilterFunc func(obj any) bool
	Handler    ResourceEventHandler
}

func (r FilteringResourceEventHandler) accepts(obj any) bool {
	return r.Handler != nil && (r.FilterFunc == nil || r.FilterFunc(obj))
}

// OnAdd mirrors FilteringResourceEventHandler.OnAdd: forward only if the filter accepts obj.
func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if r.accepts(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate mirrors FilteringResourceEventHandler.OnUpdate: forward an update when both objects pass; when only the new one passes, the object
// has entered the filtered view, an OnAdd that is never part of the initial list; when only
// the old one passes, it has left the view, an OnDelete of the old object.
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj any) {
	newer, older := r.accepts(newObj), r.accepts(oldObj)
	switch {
	case newer && older:
		r.Handler.OnUpdate(oldObj, newObj)
	case newer:
		r.Handler.OnAdd(newObj, false)
	case older:
		r.Handler.OnDelete(oldObj)
	}
}

// OnDelete mirrors FilteringResourceEventHandler.OnDelete: forward only if the filter accepts obj. A tombstone is given to the
// filter as it is: the filter must unwrap it, as handlers must.
func (r FilteringResourceEventHandler) OnDelete(obj any) {
	if r.accepts(obj) {
		r.Handler.OnDelete(obj)
	}
}

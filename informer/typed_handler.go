package informer

import (
	"strings"

	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// TypedObject mirrors the Object constraint of client-go v0.37's typed handlers
// (tools/cache/controller.go): a comparable object with a name and a namespace, such as
// *api.Pod.
type TypedObject interface {
	comparable
	GetNamespace() string
	GetName() string
}

// TypedResourceEventHandler mirrors cache.TypedResourceEventHandler in client-go
// tools/cache/controller.go (v0.37): ResourceEventHandler with typed objects, and a delete that
// says whether the final state is known (C-13).
type TypedResourceEventHandler[T TypedObject] interface {
	OnAdd(obj T, isInInitialList bool)
	OnUpdate(oldObj, newObj T)
	OnDelete(obj DeletedObject[T])
}

// DeletedObject mirrors cache.DeletedObject in client-go tools/cache/controller.go: what a
// typed OnDelete receives. For a delete the watch delivered, OptionalObj is the object and
// FinalStateUnknown is nil; for a tombstone, FinalStateUnknown is set and OptionalObj is the
// tombstone's last known object, or the zero value of T when it has none (C-13).
type DeletedObject[T TypedObject] struct {
	OptionalObj       T
	FinalStateUnknown *store.DeletedFinalStateUnknown
}

// GetObjectName mirrors DeletedObject.GetObjectName: the tombstone's key split at its first
// "/" (a key without one is a name), else the namespace and name of OptionalObj, else empty.
func (d DeletedObject[T]) GetObjectName() store.ObjectName {
	if d.FinalStateUnknown != nil {
		ns, name, found := strings.Cut(d.FinalStateUnknown.Key, "/")
		if !found {
			return store.ObjectName{Name: ns}
		}
		return store.ObjectName{Namespace: ns, Name: name}
	}
	var zero T
	if d.OptionalObj == zero {
		return store.ObjectName{}
	}
	return store.ObjectName{Namespace: d.OptionalObj.GetNamespace(), Name: d.OptionalObj.GetName()}
}

// GetName mirrors DeletedObject.GetName: the name without the namespace.
func (d DeletedObject[T]) GetName() string { return d.GetObjectName().Name }

// GetNamespace mirrors DeletedObject.GetNamespace: the namespace, or "".
func (d DeletedObject[T]) GetNamespace() string { return d.GetObjectName().Namespace }

// GetKey mirrors DeletedObject.GetKey: the tombstone's key if there is one, else
// "namespace/name" (or "name") of OptionalObj, else "" (C-13).
func (d DeletedObject[T]) GetKey() string {
	if d.FinalStateUnknown != nil {
		return d.FinalStateUnknown.Key
	}
	var zero T
	if d.OptionalObj == zero {
		return ""
	}
	return d.GetObjectName().String()
}

// TypedResourceEventHandlerFuncs mirrors cache.TypedResourceEventHandlerFuncs: a typed handler
// from optional functions; AddFunc does not see isInInitialList.
type TypedResourceEventHandlerFuncs[T TypedObject] struct {
	AddFunc    func(obj T)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
}

// OnAdd mirrors TypedResourceEventHandlerFuncs.OnAdd.
func (f TypedResourceEventHandlerFuncs[T]) OnAdd(obj T, _ bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj)
	}
}

// OnUpdate mirrors TypedResourceEventHandlerFuncs.OnUpdate.
func (f TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete mirrors TypedResourceEventHandlerFuncs.OnDelete.
func (f TypedResourceEventHandlerFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}

// typedResourceEventHandler mirrors the adapter of the same name in client-go
// tools/cache/shared_informer.go: an untyped handler that calls a typed one.
type typedResourceEventHandler[T TypedObject] struct {
	handler TypedResourceEventHandler[T]
}

// NewTypedResourceEventHandler is ours: it exposes client-go's typedResourceEventHandler, the
// untyped ResourceEventHandler that AddTypedEventHandler registers for a typed one. Objects
// that are not a T make it panic, as client-go's type assertions do.
func NewTypedResourceEventHandler[T TypedObject](h TypedResourceEventHandler[T]) processor.ResourceEventHandler {
	return &typedResourceEventHandler[T]{handler: h}
}

func (h *typedResourceEventHandler[T]) OnAdd(obj any, isInInitialList bool) {
	h.handler.OnAdd(obj.(T), isInInitialList)
}

func (h *typedResourceEventHandler[T]) OnUpdate(oldObj, newObj any) {
	h.handler.OnUpdate(oldObj.(T), newObj.(T))
}

// OnDelete turns a tombstone into DeletedObject{OptionalObj: its object or the zero T,
// FinalStateUnknown: &tombstone} and a real object into DeletedObject{OptionalObj: obj} (C-13).
func (h *typedResourceEventHandler[T]) OnDelete(obj any) {
	if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
		d := DeletedObject[T]{FinalStateUnknown: &tomb}
		if tomb.Obj != nil {
			d.OptionalObj = tomb.Obj.(T)
		}
		h.handler.OnDelete(d)
		return
	}
	h.handler.OnDelete(DeletedObject[T]{OptionalObj: obj.(T)})
}

// AddTypedEventHandler mirrors TypedSharedIndexInformer.AddTypedEventHandler in client-go
// tools/cache/shared_informer.go, as a function: it registers h, wrapped, on informer with the
// informer's default resync period.
func AddTypedEventHandler[T TypedObject](informer SharedInformer, h TypedResourceEventHandler[T]) (processor.ResourceEventHandlerRegistration, error) {
	return informer.AddEventHandler(NewTypedResourceEventHandler(h))
}

package api

import (
	"fmt"
	"reflect"
)

// Accessor mirrors meta.Accessor in apimachinery: it returns the metadata accessors of obj,
// or an error when obj has no metadata (a list, a Status, a non-pointer struct, nil). Typed
// objects qualify through their embedded ObjectMeta, *Unstructured through its own methods.
// Key functions call this for every event, so it avoids reflection except for the nil check.
func Accessor(obj any) (MetaObject, error) {
	m, ok := obj.(MetaObject)
	if !ok || isNilPointer(obj) {
		return nil, fmt.Errorf("object of type %T has no metadata accessors", obj)
	}
	return m, nil
}

// ListAccessor mirrors meta.ListAccessor: the list metadata accessors of obj, or an error
// when obj is not a list. Status and Table qualify too, because they carry a ListMeta.
func ListAccessor(obj any) (ListInterface, error) {
	l, ok := obj.(ListInterface)
	if !ok || isNilPointer(obj) {
		return nil, fmt.Errorf("object of type %T is not a list", obj)
	}
	return l, nil
}

// isNilPointer reports whether v is an interface holding a nil pointer, such as a (*Pod)(nil).
// Calling a promoted ObjectMeta method on one would panic.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

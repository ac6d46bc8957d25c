package api

import "fmt"

// ListObject mirrors meta.List (a runtime.Object with list metadata) plus the item access
// that meta.ExtractList and meta.SetList perform by reflection upstream. Here every list
// type implements it by hand, which keeps the reflector and the apiserver free of reflection.
type ListObject interface {
	Object
	ListInterface
	// GetItems returns pointers into the list's own items: no copies, as meta.ExtractList.
	GetItems() []Object
	// SetItems replaces the items with copies of *item; it fails if an item is not a pointer
	// to the list's element type.
	SetItems([]Object) error
}

// ExtractList mirrors meta.ExtractList: the items of a list as Objects. They point into the
// list, so DeepCopy one before changing it.
func ExtractList(obj Object) ([]Object, error) {
	l, ok := obj.(ListObject)
	if !ok || isNilPointer(obj) {
		return nil, fmt.Errorf("object of type %T is not a list", obj)
	}
	return l.GetItems(), nil
}

// SetList mirrors meta.SetList: it replaces the items of list by items.
func SetList(list Object, items []Object) error {
	l, ok := list.(ListObject)
	if !ok || isNilPointer(list) {
		return fmt.Errorf("object of type %T is not a list", list)
	}
	return l.SetItems(items)
}

// itemsOf returns a pointer to each element of items.
func itemsOf[T any, PT interface {
	*T
	Object
}](items []T) []Object {
	out := make([]Object, len(items))
	for i := range items {
		out[i] = PT(&items[i])
	}
	return out
}

// GetItems mirrors meta.ExtractList for a PodList.
func (in *PodList) GetItems() []Object { return itemsOf(in.Items) }

// SetItems mirrors meta.SetList for a PodList.
func (in *PodList) SetItems(objs []Object) (err error) {
	in.Items, err = setItems(in.Items, objs)
	return err
}

// GetItems mirrors meta.ExtractList for a ConfigMapList.
func (in *ConfigMapList) GetItems() []Object { return itemsOf(in.Items) }

// SetItems mirrors meta.SetList for a ConfigMapList.
func (in *ConfigMapList) SetItems(objs []Object) (err error) {
	in.Items, err = setItems(in.Items, objs)
	return err
}

// GetItems mirrors meta.ExtractList for a NamespaceList.
func (in *NamespaceList) GetItems() []Object { return itemsOf(in.Items) }

// SetItems mirrors meta.SetList for a NamespaceList.
func (in *NamespaceList) SetItems(objs []Object) (err error) {
	in.Items, err = setItems(in.Items, objs)
	return err
}

// GetItems mirrors meta.ExtractList for a PartialObjectMetadataList.
func (in *PartialObjectMetadataList) GetItems() []Object { return itemsOf(in.Items) }

// SetItems mirrors meta.SetList for a PartialObjectMetadataList.
func (in *PartialObjectMetadataList) SetItems(objs []Object) (err error) {
	in.Items, err = setItems(in.Items, objs)
	return err
}

// GetItems mirrors meta.ExtractList for a UnstructuredList.
func (l *UnstructuredList) GetItems() []Object { return itemsOf(l.Items) }

// SetItems mirrors meta.SetList for a UnstructuredList.
func (l *UnstructuredList) SetItems(objs []Object) (err error) {
	l.Items, err = setItems(l.Items, objs)
	return err
}

// setItems turns []Object back into []T. On error it returns old, so a failed SetItems
// leaves the list as it was. The result is never nil, so an emptied list still encodes
// "items":[].
func setItems[T any, PT interface {
	*T
	Object
}](old []T, objs []Object) ([]T, error) {
	out := make([]T, len(objs))
	for i, o := range objs {
		p, ok := o.(PT)
		if !ok || p == nil {
			return old, fmt.Errorf("item %d is %T, want %T", i, o, PT(nil))
		}
		out[i] = *p
	}
	return out, nil
}

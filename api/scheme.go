package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Scheme mirrors runtime.Scheme in apimachinery, much reduced: it maps each
// GroupVersionKind to a Go type and back, and decodes and encodes JSON. There is one version
// per kind, so no conversion and no defaulting. Register every kind before first use; after
// that a Scheme is read-only and safe for concurrent use.
type Scheme struct {
	newFuncs map[GroupVersionKind]func() Object
	kinds    map[reflect.Type]GroupVersionKind
}

// ErrMissingKind mirrors the error that runtime.IsMissingKind detects: the JSON has no
// "kind" member, so nothing says what it is (docs/behaviour/wire.md N6).
var ErrMissingKind = errors.New("object 'Kind' is missing")

// ErrMissingVersion mirrors the error that runtime.IsMissingVersion detects: the JSON has a
// kind but no "apiVersion".
var ErrMissingVersion = errors.New("object 'apiVersion' is missing")

// ErrNotRegistered mirrors the error that runtime.IsNotRegisteredError detects: the kind or
// Go type is unknown to the Scheme.
var ErrNotRegistered = errors.New("not registered in the scheme")

// NewScheme mirrors runtime.NewScheme: an empty Scheme.
func NewScheme() *Scheme {
	return &Scheme{
		newFuncs: map[GroupVersionKind]func() Object{},
		kinds:    map[reflect.Type]GroupVersionKind{},
	}
}

// AddKnownType mirrors Scheme.AddKnownTypeWithName: newFn builds an empty object of kind gvk.
// When newListFn is not nil it builds the list kind, registered as gvk.Kind+"List" (PodList
// for Pod), which NewList returns. Registering a kind twice with different Go types is a
// programming error and panics, as upstream.
func (s *Scheme) AddKnownType(gvk GroupVersionKind, newFn func() Object, newListFn func() ListObject) {
	s.add(gvk, newFn)
	if newListFn != nil {
		listGVK := gvk
		listGVK.Kind += "List"
		s.add(listGVK, func() Object { return newListFn() })
	}
}

func (s *Scheme) add(gvk GroupVersionKind, newFn func() Object) {
	if gvk.Kind == "" || gvk.Version == "" {
		panic(fmt.Sprintf("api: cannot register %v: kind and version are required", gvk))
	}
	t := reflect.TypeOf(newFn())
	if t == nil || t.Kind() != reflect.Pointer {
		panic(fmt.Sprintf("api: the constructor of %v must return a pointer, got %v", gvk, t))
	}
	if old, ok := s.newFuncs[gvk]; ok && reflect.TypeOf(old()) != t {
		panic(fmt.Sprintf("api: %v is already registered as %v", gvk, reflect.TypeOf(old())))
	}
	s.newFuncs[gvk] = newFn
	// A Go type registered under several kinds reports the first one, as upstream's
	// ObjectKinds lists it first.
	if _, ok := s.kinds[t]; !ok {
		s.kinds[t] = gvk
	}
}

// Recognizes mirrors Scheme.Recognizes: whether gvk is registered.
func (s *Scheme) Recognizes(gvk GroupVersionKind) bool {
	_, ok := s.newFuncs[gvk]
	return ok
}

// New mirrors Scheme.New: an empty object of kind gvk. Its TypeMeta is left empty, as
// upstream; Encode fills it in.
func (s *Scheme) New(gvk GroupVersionKind) (Object, error) {
	newFn, ok := s.newFuncs[gvk]
	if !ok {
		return nil, fmt.Errorf("no kind %q is registered for version %q: %w", gvk.Kind, gvk.APIVersion(), ErrNotRegistered)
	}
	return newFn(), nil
}

// NewList mirrors Scheme.New called with the list kind gvk.Kind+"List", the naming rule
// client-go relies on: it returns an empty *PodList for Pod.
func (s *Scheme) NewList(gvk GroupVersionKind) (ListObject, error) {
	listGVK := gvk
	listGVK.Kind += "List"
	obj, err := s.New(listGVK)
	if err != nil {
		return nil, err
	}
	list, ok := obj.(ListObject)
	if !ok {
		return nil, fmt.Errorf("%v is %T, not a list", listGVK, obj)
	}
	return list, nil
}

// ObjectKind mirrors Scheme.ObjectKinds, returning one kind: the kind obj's Go type was
// registered with. Unstructured objects report the kind they carry.
func (s *Scheme) ObjectKind(obj Object) (GroupVersionKind, error) {
	if obj == nil || isNilPointer(obj) {
		return GroupVersionKind{}, errors.New("ObjectKind of a nil object")
	}
	switch obj.(type) {
	case *Unstructured, *UnstructuredList:
		gvk := obj.GetObjectKind().GroupVersionKind()
		if gvk.Kind == "" {
			return GroupVersionKind{}, ErrMissingKind
		}
		if gvk.Version == "" {
			return GroupVersionKind{}, ErrMissingVersion
		}
		return gvk, nil
	}
	gvk, ok := s.kinds[reflect.TypeOf(obj)]
	if !ok {
		return GroupVersionKind{}, fmt.Errorf("type %T: %w", obj, ErrNotRegistered)
	}
	return gvk, nil
}

// typeMeta is what Decode peeks at before choosing a Go type.
type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// peekKind reads apiVersion and kind. Any JSON that is not an object with string members
// there fails here, before a Go type is chosen.
func peekKind(data []byte) (GroupVersionKind, error) {
	var tm typeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return GroupVersionKind{}, fmt.Errorf("couldn't get version/kind; json parse error: %w", err)
	}
	g, v := ParseAPIVersion(tm.APIVersion)
	return GroupVersionKind{Group: g, Version: v, Kind: tm.Kind}, nil
}

// snippet quotes the start of data for error messages.
func snippet(data []byte) string {
	const limit = 64
	if len(data) > limit {
		return fmt.Sprintf("%q...", data[:limit])
	}
	return fmt.Sprintf("%q", data)
}

// Decode mirrors runtime.Decode with the scheme's universal deserializer, JSON only. A
// registered kind decodes into its Go type (a *Pod, with TypeMeta filled from the data). An
// unknown kind decodes into *UnstructuredList when the kind ends in "List", otherwise
// into *Unstructured. A missing kind or apiVersion is an error (docs/behaviour/wire.md N6). Decode never
// panics: garbage input gives an error.
func (s *Scheme) Decode(data []byte) (Object, error) {
	gvk, err := peekKind(data)
	if err != nil {
		return nil, err
	}
	if gvk.Kind == "" {
		return nil, fmt.Errorf("%w in %s", ErrMissingKind, snippet(data))
	}
	if gvk.Version == "" {
		return nil, fmt.Errorf("%w in %s", ErrMissingVersion, snippet(data))
	}
	var obj Object
	switch {
	case s.Recognizes(gvk):
		obj = s.newFuncs[gvk]()
	case strings.HasSuffix(gvk.Kind, "List"):
		obj = &UnstructuredList{}
	default:
		obj = &Unstructured{}
	}
	if err := json.Unmarshal(data, obj); err != nil {
		return nil, fmt.Errorf("%s in version %q cannot be handled as a %s: %w", gvk.Kind, gvk.APIVersion(), gvk.Kind, err)
	}
	return obj, nil
}

// DecodeInto mirrors runtime.DecodeInto: it decodes data into the caller's object, which is
// reset first. For a typed object, kind and apiVersion may be missing from the data (a
// create body may omit them, docs/behaviour/wire.md C1) and are then set from the Scheme; when present
// they must match. Unstructured targets take whatever kind the data has, but need one.
func (s *Scheme) DecodeInto(data []byte, into Object) error {
	if into == nil || isNilPointer(into) {
		return errors.New("DecodeInto needs a non-nil object")
	}
	found, err := peekKind(data)
	if err != nil {
		return err
	}
	switch into.(type) {
	case *Unstructured, *UnstructuredList:
		if found.Kind == "" {
			return fmt.Errorf("%w in %s", ErrMissingKind, snippet(data))
		}
		return json.Unmarshal(data, into) // their UnmarshalJSON replaces the content
	}

	want, err := s.ObjectKind(into)
	if err != nil {
		return err
	}
	if found.Kind != "" && found.Kind != want.Kind {
		return fmt.Errorf("%s in version %q cannot be handled as a %s", found.Kind, found.APIVersion(), want.Kind)
	}
	if found.Version != "" && found.APIVersion() != want.APIVersion() {
		return fmt.Errorf("the API version in the data (%s) does not match the expected API version (%s)", found.APIVersion(), want.APIVersion())
	}
	// json.Unmarshal merges into what is there; zeroing first makes the result depend on
	// data alone.
	reflect.ValueOf(into).Elem().SetZero()
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s in version %q cannot be handled as a %s: %w", want.Kind, want.APIVersion(), want.Kind, err)
	}
	into.GetObjectKind().SetGroupVersionKind(want)
	return nil
}

// Encode mirrors runtime.Encode with a JSON serializer. When obj's kind or apiVersion is
// empty they are taken from the Scheme and set on a copy: the caller's object, which may
// live in an informer cache, is never changed.
func (s *Scheme) Encode(obj Object) ([]byte, error) {
	if obj == nil || isNilPointer(obj) {
		return nil, errors.New("cannot encode a nil object")
	}
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind == "" || gvk.Version == "" {
		want, err := s.ObjectKind(obj)
		if err != nil {
			return nil, err
		}
		obj = obj.DeepCopyObject()
		obj.GetObjectKind().SetGroupVersionKind(want)
	}
	return json.Marshal(obj)
}

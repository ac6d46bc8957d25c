package processor

import (
	"log/slog"
	"reflect"

	"github.com/informer-lab/informer-lab/api"
)

// AddNotification mirrors addNotification in client-go tools/cache/shared_informer.go: the
// informer's OnAdd, distributed as a value. IsInInitialList marks adds the listener's sync
// tracker counts (PL-1, PL-4).
type AddNotification struct {
	NewObj          any
	IsInInitialList bool
}

// UpdateNotification mirrors updateNotification: the informer's OnUpdate. The informer
// distributes it as a sync notification when both objects have the same resourceVersion (SI-10).
type UpdateNotification struct {
	OldObj any
	NewObj any
}

// DeleteNotification mirrors deleteNotification: the informer's OnDelete. OldObj may be a
// DeletedFinalStateUnknown tombstone.
type DeleteNotification struct {
	OldObj any
}

// Notification kinds, used as the trace attribute "type".
const (
	kindAdd     = "add"
	kindUpdate  = "update"
	kindDelete  = "delete"
	kindUnknown = "unknown"
)

// describe returns what a trace line says about a notification: its kind, the key and the
// resourceVersion of the object it carries (the new one for an update). Only called when
// tracing is enabled, so it may allocate.
func describe(n any) (kind, key, rv string, extra []slog.Attr) {
	switch n := n.(type) {
	case AddNotification:
		key, rv = objectKeyRV(n.NewObj)
		if n.IsInInitialList {
			extra = []slog.Attr{slog.Bool("init", true)}
		}
		return kindAdd, key, rv, extra
	case UpdateNotification:
		key, rv = objectKeyRV(n.NewObj)
		_, oldRV := objectKeyRV(n.OldObj)
		return kindUpdate, key, rv, []slog.Attr{slog.String("old_rv", oldRV)}
	case DeleteNotification:
		key, rv = objectKeyRV(n.OldObj)
		return kindDelete, key, rv, nil
	default:
		return kindUnknown, "", "", nil
	}
}

// objectKeyRV is "namespace/name" (or "name") and the resourceVersion of obj, or empty strings
// when obj has no metadata. A tombstone is recognised by shape (a struct with a string Key and
// an Obj field): the processor must not import the store package that defines it, and this
// code only runs when tracing is on.
func objectKeyRV(obj any) (key, rv string) {
	if m, err := api.Accessor(obj); err == nil {
		key = m.GetName()
		if ns := m.GetNamespace(); ns != "" {
			key = ns + "/" + key
		}
		return key, m.GetResourceVersion()
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Struct {
		return "", ""
	}
	k, o := v.FieldByName("Key"), v.FieldByName("Obj")
	if !k.IsValid() || k.Kind() != reflect.String || !o.IsValid() || !o.CanInterface() {
		return "", ""
	}
	_, rv = objectKeyRV(o.Interface())
	return k.String(), rv
}

package processor

import (
	"log/slog"

	"github.com/informer-lab/informer-lab/store"
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
// resourceVersion of the object it carries (the new one for an update; for a
// DeletedFinalStateUnknown, its Key and the RV of the state it carries). Only called when
// tracing is enabled, so it may allocate.
func describe(n any) (kind, key, rv string, extra []slog.Attr) {
	switch n := n.(type) {
	case AddNotification:
		key, rv, _ = store.KeyAndResourceVersion(n.NewObj)
		if n.IsInInitialList {
			extra = []slog.Attr{slog.Bool("init", true)}
		}
		return kindAdd, key, rv, extra
	case UpdateNotification:
		key, rv, _ = store.KeyAndResourceVersion(n.NewObj)
		_, oldRV, _ := store.KeyAndResourceVersion(n.OldObj)
		return kindUpdate, key, rv, []slog.Attr{slog.String("old_rv", oldRV)}
	case DeleteNotification:
		key, rv, _ = store.KeyAndResourceVersion(n.OldObj)
		return kindDelete, key, rv, nil
	default:
		return kindUnknown, "", "", nil
	}
}

package informer

import (
	"log/slog"

	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/store"
)

// Profile chooses which client-go era's queue sits between the Reflector and the informer
// (docs/behaviour/client-go.md §0.2). client-go decides this with feature gates; we make it an explicit option
// (docs/behaviour/client-go.md N-3). The zero value is ProfileCurrent, client-go v0.37's default.
type Profile int

const (
	// ProfileCurrent is client-go v0.36/v0.37: RealFIFO in atomic mode (one ReplacedAll per
	// relist, one SyncAll per resync, Bookmark deltas), the lock released while processing,
	// batched pops with transactional cache writes, and watch-list.
	ProfileCurrent Profile = iota
	// ProfileInOrder is client-go v0.33–v0.34: RealFIFO, one delta per event in arrival
	// order, tombstones computed at Replace time; LIST then WATCH. No profile models v0.35
	// (the same queue with batched pops and watch-list); ProfileInOrder with UseWatchList
	// comes closest, as batching changes nothing a handler sees.
	ProfileInOrder
	// ProfileClassic is client-go up to v0.32, the informer the articles describe: DeltaFIFO
	// with KnownObjects, Replaced deltas and tombstones; LIST then WATCH.
	ProfileClassic
)

// String names the profile as the chapters do.
func (p Profile) String() string {
	switch p {
	case ProfileCurrent:
		return "current"
	case ProfileInOrder:
		return "inorder"
	case ProfileClassic:
		return "classic"
	}
	return "unknown"
}

// ParseProfile turns "classic", "inorder" or "current" (also "v037") into a Profile.
func ParseProfile(s string) (Profile, bool) {
	switch s {
	case "current", "v037", "":
		return ProfileCurrent, true
	case "inorder":
		return ProfileInOrder, true
	case "classic":
		return ProfileClassic, true
	}
	return 0, false
}

// usesWatchList reports the profile's default for the WatchListClient gate.
func (p Profile) usesWatchList() bool { return p == ProfileCurrent }

// batches reports whether processLoop uses PopBatch (InOrderInformersBatchProcess).
func (p Profile) batches() bool { return p == ProfileCurrent }

// storeOptions are the options of the informer's cache: its logger, and whether it reports
// LastStoreSyncResourceVersion, which client-go gates on AtomicFIFO (TS-14, D-8).
func (p Profile) storeOptions(logger *slog.Logger) []store.StoreOption {
	return []store.StoreOption{
		store.WithLogger(logger),
		store.WithResourceVersionTracking(p == ProfileCurrent),
	}
}

// newQueue mirrors newQueueFIFO in client-go tools/cache/controller.go: the queue each
// profile puts in front of clientState.
func (p Profile) newQueue(clientState store.Store, transform store.TransformFunc, logger *slog.Logger) deltafifo.Queue {
	switch p {
	case ProfileClassic:
		return deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
			KeyFunction:           store.MetaNamespaceKeyFunc,
			KnownObjects:          clientState,
			EmitDeltaTypeReplaced: true,
			Transformer:           transform,
			Logger:                logger,
		})
	case ProfileInOrder:
		return deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
			KeyFunction:  store.MetaNamespaceKeyFunc,
			KnownObjects: clientState,
			Transformer:  transform,
			Logger:       logger,
		})
	default:
		return deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
			KeyFunction:           store.MetaNamespaceKeyFunc,
			Transformer:           transform,
			AtomicEvents:          true,
			UnlockWhileProcessing: true,
			EmitDeltaTypeBookmark: true,
			Logger:                logger,
		})
	}
}

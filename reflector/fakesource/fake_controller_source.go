package fakesource

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// Call is one request the source answered: Verb is "LIST" or "WATCH".
type Call struct {
	Verb    string
	Options api.ListOptions
	At      time.Time
}

// IsWatchList reports whether the call was a watch-list request (sendInitialEvents=true).
func (c Call) IsWatchList() bool {
	return c.Verb == "WATCH" && c.Options.SendInitialEvents != nil && *c.Options.SendInitialEvents
}

type historyEvent struct {
	rv    int64
	event watch.Event
}

// Source mirrors framework.FakeControllerSource: a ListerWatcher backed by memory. The zero
// value is not usable; call New.
type Source struct {
	mu sync.Mutex

	rv          int64
	objects     map[string]api.Object
	history     []historyEvent
	compactedRV int64
	watchers    map[*fakeWatcher]struct{}
	sortedKeys  []string // cache of the keys in order; nil after a create or delete
	newObject   func() api.Object
	newList     func() api.ListObject

	// Faults and switches, set through methods.
	watchListUnsupported bool
	expiredOnOpen        bool
	listErrs             []error
	listErrAt            map[string]error
	watchErrs            []error
	closeNextWatches     int
	dropNext             int

	calls          []Call
	openWatches    int
	maxOpenWatches int
}

// New returns an empty source of pods; NewForKind serves another kind.
// It mirrors framework.NewFakeControllerSource.
func New() *Source {
	return NewForKind(
		func() api.Object { return &api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}} },
		func() api.ListObject { return &api.PodList{TypeMeta: api.TypeMeta{Kind: "PodList", APIVersion: "v1"}} })
}

// NewForKind returns an empty source whose bookmarks are built by newObject and whose LIST
// answers are built by newList, which must accept the objects added to the source.
func NewForKind(newObject func() api.Object, newList func() api.ListObject) *Source {
	return &Source{
		objects:   map[string]api.Object{},
		watchers:  map[*fakeWatcher]struct{}{},
		listErrAt: map[string]error{},
		newObject: newObject,
		newList:   newList,
	}
}

func keyOf(m api.MetaObject) string {
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}

// ---- writes (H-1) ----

// Add mirrors FakeControllerSource.Add: it stores a copy of obj at a new RV and returns that
// RV. Adding an existing key, or an object without metadata or name, is an error.
func (s *Source) Add(obj api.Object) (string, error) {
	return s.write(watch.Added, obj)
}

// Modify mirrors FakeControllerSource.Modify: it replaces the stored copy of an existing key.
func (s *Source) Modify(obj api.Object) (string, error) {
	return s.write(watch.Modified, obj)
}

// Delete mirrors FakeControllerSource.Delete: it removes the key. The DELETED event carries
// the last state with the delete's RV (docs/behaviour/wire.md W10).
func (s *Source) Delete(obj api.Object) (string, error) {
	return s.write(watch.Deleted, obj)
}

func (s *Source) write(t watch.EventType, obj api.Object) (string, error) {
	if obj == nil {
		return "", errors.New("fakesource: nil object")
	}
	m, err := api.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("fakesource: %w", err)
	}
	if m.GetName() == "" {
		return "", errors.New("fakesource: object has no name")
	}
	key := keyOf(m)

	s.mu.Lock()
	defer s.mu.Unlock()
	old, exists := s.objects[key]
	switch {
	case t == watch.Added && exists:
		return "", fmt.Errorf("fakesource: %s already exists", key)
	case t != watch.Added && !exists:
		return "", fmt.Errorf("fakesource: %s not found", key)
	}
	s.rv++
	rv := strconv.FormatInt(s.rv, 10)
	var stored api.Object
	if t == watch.Deleted {
		stored = old.DeepCopyObject()
		delete(s.objects, key)
	} else {
		stored = obj.DeepCopyObject()
		s.objects[key] = stored
	}
	if t != watch.Modified {
		s.sortedKeys = nil
	}
	mustMeta(stored).SetResourceVersion(rv)
	s.publishLocked(watch.Event{Type: t, Object: stored})
	return rv, nil
}

// publishLocked records ev in the history and hands a copy to every live watcher.
func (s *Source) publishLocked(ev watch.Event) {
	s.history = append(s.history, historyEvent{rv: s.rv, event: ev})
	if s.dropNext > 0 {
		s.dropNext--
		return
	}
	for w := range s.watchers {
		w.send(copyEvent(ev))
	}
}

func copyEvent(ev watch.Event) watch.Event {
	return watch.Event{Type: ev.Type, Object: ev.Object.DeepCopyObject()}
}

func mustMeta(obj api.Object) api.MetaObject {
	m, err := api.Accessor(obj)
	if err != nil {
		panic(err) // only objects that passed Accessor are ever stored
	}
	return m
}

// ---- state and faults ----

// AdvanceResourceVersion bumps the RV counter by n without an event, as writes to other
// resources do on a real server: the counter is global, so only a bookmark tells a watcher.
func (s *Source) AdvanceResourceVersion(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv += int64(max(n, 0))
}

// ResourceVersion returns the current RV.
func (s *Source) ResourceVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strconv.FormatInt(s.rv, 10)
}

// State returns key → RV of every stored object, for comparing with a client's cache (INV-1).
func (s *Source) State() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.objects))
	for k, o := range s.objects {
		out[k] = mustMeta(o).GetResourceVersion()
	}
	return out
}

// Compact forgets the history: a watch or a continue token from an older RV now gets 410.
func (s *Source) Compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compactedRV = s.rv
	s.history = nil
}

// SetWatchListUnsupported makes watch-list requests fail with 422, like a server whose
// WatchList gate is off (CG5).
func (s *Source) SetWatchListUnsupported(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchListUnsupported = v
}

// SetExpiredOnOpen makes a watch from a compacted RV fail in Watch itself instead of with
// an ERROR event on an open stream.
func (s *Source) SetExpiredOnOpen(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expiredOnOpen = v
}

// FailNextLists queues errors: each LIST takes the first one instead of answering.
func (s *Source) FailNextLists(errs ...error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listErrs = append(s.listErrs, errs...)
}

// FailListAt makes every LIST at resourceVersion rv fail with err (nil clears it).
func (s *Source) FailListAt(rv string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		delete(s.listErrAt, rv)
		return
	}
	s.listErrAt[rv] = err
}

// FailNextWatches queues errors: each WATCH takes the first one instead of opening.
func (s *Source) FailNextWatches(errs ...error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchErrs = append(s.watchErrs, errs...)
}

// CloseNextWatches makes the next n watches close right after they open, with no event: a
// very short watch (CG7).
func (s *Source) CloseNextWatches(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeNextWatches += n
}

// DropNextEvents makes the next n writes reach no live watcher. They stay in the history, so
// a watch opened later from an older RV still replays them.
func (s *Source) DropNextEvents(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropNext += n
}

// Bookmark sends a BOOKMARK at the current RV to every watcher that allowed bookmarks (H-6).
func (s *Source) Bookmark() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		if w.bookmarks {
			w.send(s.bookmarkLocked(false))
		}
	}
}

// bookmarkLocked builds a BOOKMARK: an empty object of the watched kind carrying only the
// current RV and, for the end of a watch-list's initial events, the annotation (W7).
func (s *Source) bookmarkLocked(initialEventsEnd bool) watch.Event {
	obj := s.newObject()
	m := mustMeta(obj)
	m.SetResourceVersion(strconv.FormatInt(s.rv, 10))
	if initialEventsEnd {
		m.SetAnnotations(map[string]string{api.InitialEventsAnnotationKey: "true"})
	}
	return watch.Event{Type: watch.Bookmark, Object: obj}
}

// SendError sends an ERROR event carrying status to every watcher, then closes them, as a
// server does (docs/behaviour/wire.md W13).
func (s *Source) SendError(status *api.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		w.send(watch.Event{Type: watch.Error, Object: status.DeepCopyObject()})
		s.endLocked(w)
	}
}

// ResetWatches closes every watch normally, as a server restart or a timeout would.
func (s *Source) ResetWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		s.endLocked(w)
	}
}

// Close ends every watch; call it when a test is done.
func (s *Source) Close() { s.ResetWatches() }

// ---- recording ----

// Calls returns every request so far, in order.
func (s *Source) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Count returns how many requests of verb ("LIST" or "WATCH") were made.
func (s *Source) Count(verb string) int {
	n := 0
	for _, c := range s.Calls() {
		if c.Verb == verb {
			n++
		}
	}
	return n
}

// ListRVs returns the resourceVersion of every LIST request, in order.
func (s *Source) ListRVs() []string {
	var out []string
	for _, c := range s.Calls() {
		if c.Verb == "LIST" {
			out = append(out, c.Options.ResourceVersion)
		}
	}
	return out
}

// WatchRVs returns the resourceVersion of every WATCH request, in order.
func (s *Source) WatchRVs() []string {
	var out []string
	for _, c := range s.Calls() {
		if c.Verb == "WATCH" {
			out = append(out, c.Options.ResourceVersion)
		}
	}
	return out
}

// OpenWatches returns how many watches are open now, and the most ever open at once (INV-16).
func (s *Source) OpenWatches() (now, most int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.openWatches, s.maxOpenWatches
}

// ---- LIST (H-2, H-3) ----

// List mirrors FakeControllerSource.List.
func (s *Source) List(opts api.ListOptions) (api.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

// ListWithContext answers one LIST request. It mirrors FakeControllerSource.List.
func (s *Source) ListWithContext(ctx context.Context, opts api.ListOptions) (api.Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, Call{Verb: "LIST", Options: opts, At: time.Now()})
	if len(s.listErrs) > 0 {
		err := s.listErrs[0]
		s.listErrs = s.listErrs[1:]
		return nil, err
	}
	if err := s.listErrAt[opts.ResourceVersion]; err != nil {
		return nil, err
	}

	snapshotRV, offset := s.rv, 0
	if opts.Continue != "" {
		var err error
		snapshotRV, offset, err = parseContinue(opts.Continue)
		if err != nil {
			return nil, NewBadRequest("invalid continue token: " + err.Error())
		}
		if snapshotRV < s.compactedRV {
			return nil, NewExpired("The provided continue parameter is too old to display a consistent list result.")
		}
	} else if opts.ResourceVersion != "" {
		n, err := strconv.ParseInt(opts.ResourceVersion, 10, 64)
		if err != nil || n < 0 {
			return nil, NewBadRequest(fmt.Sprintf("invalid resource version %q", opts.ResourceVersion))
		}
		if n > s.rv {
			return nil, NewTooLargeResourceVersion(n, s.rv)
		}
		if opts.ResourceVersionMatch == api.ResourceVersionMatchExact && n < s.compactedRV {
			return nil, NewExpired("The resourceVersion for the provided list is too old.")
		}
	}

	keys := s.keysLocked()
	if offset > len(keys) {
		offset = len(keys)
	}
	end := len(keys)
	if opts.Limit > 0 && int64(end-offset) > opts.Limit {
		end = offset + int(opts.Limit)
	}
	items := make([]api.Object, 0, end-offset)
	for _, k := range keys[offset:end] {
		items = append(items, s.objects[k].DeepCopyObject())
	}
	list := s.newList()
	if err := list.SetItems(items); err != nil {
		return nil, NewInternalError(err.Error())
	}
	list.SetResourceVersion(strconv.FormatInt(snapshotRV, 10))
	if end < len(keys) {
		list.SetContinue(fmt.Sprintf("%d:%d", snapshotRV, end))
	}
	return list, nil
}

// keysLocked returns the stored keys in order; the slice is shared, do not modify it.
func (s *Source) keysLocked() []string {
	if s.sortedKeys == nil {
		s.sortedKeys = make([]string, 0, len(s.objects))
		for k := range s.objects {
			s.sortedKeys = append(s.sortedKeys, k)
		}
		slices.Sort(s.sortedKeys)
	}
	return s.sortedKeys
}

func parseContinue(tok string) (rv int64, offset int, err error) {
	a, b, ok := strings.Cut(tok, ":")
	if !ok {
		return 0, 0, errors.New("malformed token")
	}
	if rv, err = strconv.ParseInt(a, 10, 64); err != nil {
		return 0, 0, err
	}
	if offset, err = strconv.Atoi(b); err != nil || offset < 0 {
		return 0, 0, errors.New("bad offset")
	}
	return rv, offset, nil
}

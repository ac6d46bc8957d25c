package chaos

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/testbed"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// Server and informer settings of every run. The small history and watch buffers make the
// server's own limits part of the chaos: re-watches from an old RV get 410, and a watcher
// that falls behind (OpDelayEvents) is closed with an ERROR event.
const (
	historySize     = 64
	watchBuffer     = 32
	bookmarkPeriod  = 2 * time.Second
	informerResync  = 5 * time.Second
	handlerResync   = 3 * time.Second
	maxViolations   = 40
	quiescenceLimit = 10 * time.Minute
)

// violation is one broken invariant: its ID (INV-n of docs/behaviour/client-go.md §12, HIST for the history check,
// CTRL for the controller's convergence, QUIESCENCE, HARNESS) and what happened.
type violation struct{ inv, msg string }

func (v violation) String() string { return v.inv + " " + v.msg }

type report struct {
	mu   sync.Mutex
	list []violation
	more int
}

func (r *report) add(inv, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.list) >= maxViolations {
		r.more++
		return
	}
	r.list = append(r.list, violation{inv, fmt.Sprintf(format, args...)})
}

func (r *report) violations() []violation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.list)
}

// histEntry is one write of the authoritative history: the server's answer to a write the
// run made (the runner is the only writer, so the answers are the complete history).
type histEntry struct {
	rv  uint64
	typ watch.EventType
	obj *api.Pod
}

// result is what one run reports.
type result struct {
	violations []violation
	more       int
	actions    []string // op index → what it did, for the applied ops
	stats      string
}

// world is one run: the server, one informer of the profile, its handlers and the controller.
type world struct {
	t       *testing.T
	profile informer.Profile
	ctx     context.Context
	rep     report

	tb     *testbed.Testbed
	srv    *apiserver.Server
	inf    informer.SharedIndexInformer
	pauser *informer.Pauser
	ctrl   *controller

	handlers   []*handler // every handler ever registered
	late       []*handler // late handlers still registered, oldest first
	stallH     *handler
	slowH      *handler
	lateJoined int
	stopped    atomic.Bool // set once the informer's Run has returned
	skipRelist bool

	model map[string]*api.Pod    // key → the server's current object, from the write answers
	hist  map[string][]histEntry // key → every write, in RV order
}

func (w *world) ghostsAllowed() bool { return w.profile != informer.ProfileClassic }

// groupIndex files pods under their group label, so INV-2 has an index whose values move.
func groupIndex(obj any) ([]string, error) {
	p, ok := obj.(*api.Pod)
	if !ok {
		return nil, fmt.Errorf("not a pod: %T", obj)
	}
	if g := p.Labels["group"]; g != "" {
		return []string{g}, nil
	}
	return nil, nil
}

// runConfig is one run: a profile, an op list and the indices of the ops to apply (nil:
// all). skipRelist leaves out the relist that repairs dropped events at quiescence; only the
// harness's own tests set it, to see that the checks catch what a missed event breaks.
type runConfig struct {
	profile    informer.Profile
	ops        []Op
	keep       []int
	skipRelist bool
}

// runWorld performs one run inside the current synctest bubble: it applies ops[i] for each
// i in keep (nil: all), reaches quiescence, checks the invariants and stops everything. Any
// goroutine still alive when it returns makes synctest.Test fail the test: that is the leak
// check.
func runWorld(t *testing.T, cfg runConfig) *result {
	profile, ops, keep := cfg.profile, cfg.ops, cfg.keep
	w := &world{
		t: t, profile: profile, ctx: context.Background(), skipRelist: cfg.skipRelist,
		model: map[string]*api.Pod{}, hist: map[string][]histEntry{},
	}
	if keep == nil {
		keep = make([]int, len(ops))
		for i := range keep {
			keep[i] = i
		}
	}
	res := &result{}
	began := time.Now()
	tb, err := testbed.New(testbed.Options{
		Server:     apiserver.Options{HistorySize: historySize, WatchBufferSize: watchBuffer, BookmarkPeriod: bookmarkPeriod},
		Namespaces: []string{"ns2"},
	})
	if err != nil {
		w.rep.add("HARNESS", "starting the server: %v", err)
		res.violations = w.rep.violations()
		return res
	}
	defer tb.Close()
	w.tb, w.srv = tb, tb.Server

	// Prelude writes make up the initial list.
	i := 0
	for ; i < len(keep) && ops[keep[i]].Prelude; i++ {
		res.actions = append(res.actions, w.describe(keep[i], ops[keep[i]], w.apply(ops[keep[i]])))
	}

	w.pauser = &informer.Pauser{}
	if w.inf, err = tb.NewInformer(testbed.InformerOptions{
		Profile: profile, Resync: informerResync,
		Indexers: store.Indexers{"group": groupIndex}, Pauser: w.pauser,
	}); err != nil {
		w.rep.add("HARNESS", "building the informer: %v", err)
		res.violations = w.rep.violations()
		return res
	}
	w.ctrl = newController(w)
	w.register("plain", 0, nil)
	w.register("resync", handlerResync, nil)
	w.stallH = w.register("stall", 0, nil)
	w.slowH = w.register("slow", 0, nil)
	w.register("controller", 0, w.ctrl.enqueue)

	if err := tb.RunInformer(w.ctx); err != nil {
		w.rep.add("HARNESS", "running the informer: %v", err)
	}
	w.ctrl.start()
	synctest.Wait()

	for ; i < len(keep); i++ {
		op := ops[keep[i]]
		res.actions = append(res.actions, w.describe(keep[i], op, w.apply(op)))
	}

	w.quiesce()
	w.checkEnd()

	// Stop: the informer first (INV-26), then the controller and the server.
	tb.StopInformer()
	w.stopped.Store(true)
	if _, err := w.inf.AddEventHandler(newHandler(w, "after-stop")); err == nil {
		w.rep.add("INV-26", "AddEventHandler succeeded after the informer stopped")
	}
	w.ctrl.stop()
	tb.Close()
	synctest.Wait()

	counts := w.srv.RequestCounts()
	lists := counts[apiserver.RequestKey{Verb: "list", Resource: "pods"}]
	watches := counts[apiserver.RequestKey{Verb: "watch", Resource: "pods"}]
	res.stats = fmt.Sprintf("%d writes, RV %d, %d LISTs, %d WATCHes, %d notifications to plain, %d reconciles (%d retries), %v virtual",
		w.writes(), w.srv.ResourceVersion(), lists, watches,
		w.handlers[0].count(), w.ctrl.gets, w.ctrl.retries, time.Since(began).Round(time.Millisecond))
	res.violations = w.rep.violations()
	res.more = w.rep.more
	return res
}

func (w *world) describe(i int, op Op, what string) string {
	return fmt.Sprintf("op %3d: %-42s %s", i, op.String(), what)
}

func (w *world) writes() int {
	n := 0
	for _, h := range w.hist {
		n += len(h)
	}
	return n
}

func (w *world) register(name string, resync time.Duration, onCall func(string)) *handler {
	h := newHandler(w, name)
	h.onCall = onCall
	reg, err := w.tb.AddHandler(name, h, &resync)
	if err != nil {
		w.rep.add("HARNESS", "AddEventHandler %s: %v", name, err)
		return h
	}
	h.reg = reg
	w.handlers = append(w.handlers, h)
	return h
}

// ---------------------------------------------------------------------------------------
// Applying ops.

// apply performs one op and says what it did.
func (w *world) apply(op Op) string {
	if op.Kind.IsWrite() {
		return w.write(op)
	}
	switch op.Kind {
	case OpDrop:
		w.srv.DropNextEvents(apiserver.DropRule{Count: op.N, Type: watch.EventType(op.Type)})
	case OpCloseWatch:
		w.srv.CloseAllWatches()
	case OpShortWatch:
		w.srv.CloseNextWatches(op.N)
		w.srv.CloseAllWatches()
	case OpCompact:
		w.srv.CompactAll()
		if op.Flag {
			w.srv.CloseAllWatches()
		}
	case OpFailList:
		w.failNext(apiserver.FailRule{Verb: "list", Resource: "pods", Count: op.N, Code: op.N2})
	case OpFailWatch:
		w.failNext(apiserver.FailRule{Verb: "watch", Resource: "pods", Count: op.N, Code: op.N2})
	case OpExpire:
		w.expire()
	case OpCut:
		w.srv.CutNextEvent(0)
	case OpDelayEvents:
		w.srv.DelayEvents(op.D)
	case OpStall:
		w.stallH.stall()
	case OpRelease:
		w.stallH.release()
	case OpSlow:
		w.slowH.setSlow(op.D)
	case OpPause:
		w.pauser.Pause()
	case OpResume:
		w.pauser.Resume()
	case OpJoin:
		w.lateJoined++
		h := w.register(fmt.Sprintf("late-%d", w.lateJoined), 0, nil)
		w.late = append(w.late, h)
		return "joined as " + h.name
	case OpLeave:
		if len(w.late) == 0 {
			return "skipped: no late handler"
		}
		h := w.late[len(w.late)-1]
		w.late = w.late[:len(w.late)-1]
		if err := informer.ShutDownEventHandler(w.inf, h.reg); err != nil {
			w.rep.add("HARNESS", "ShutDownEventHandler %s: %v", h.name, err)
		}
		h.removed.Store(true)
		return h.name + " left"
	case OpAdvance:
		time.Sleep(op.D) // virtual time passes while every goroutine is blocked
		synctest.Wait()
	case OpSettle:
		synctest.Wait()
	}
	return ""
}

// expire makes the next watch answer one ERROR 410 event and closes the open ones: the
// reflector re-watches, gets 410 and relists.
func (w *world) expire() {
	w.failNext(apiserver.FailRule{Verb: "watch", Resource: "pods", Count: 1, Code: http.StatusGone, AsWatchEvent: true})
	w.srv.CloseAllWatches()
}

// failNext installs a FailRule on the server: the reflector's next LISTs or WATCHes fail.
func (w *world) failNext(r apiserver.FailRule) { w.srv.FailNext(r) }

var finalizers = []string{"chaos.informer-lab/a", "chaos.informer-lab/b"}

func chaosPod(ns, name string, group int, finalizer bool) *api.Pod {
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"group": strconv.Itoa(group)}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
	if finalizer {
		p.Finalizers = []string{finalizers[0]}
	}
	return p
}

// write resolves a write op against the current state and performs it (sentence 3 of doc.go).
func (w *world) write(op Op) string {
	ns, name, _ := strings.Cut(op.Key, "/")
	cur := w.model[op.Key]
	kind := op.Kind
	switch {
	case cur == nil && (kind == OpUpdate || kind == OpRelabel || kind == OpAddFinalizer):
		kind = OpCreate
	case cur != nil && kind == OpCreate:
		kind = OpRelabel
	}
	var (
		out       api.Object
		err       error
		viaDelete bool
	)
	switch kind {
	case OpCreate:
		out, err = w.srv.Create(w.ctx, "pods", ns, chaosPod(ns, name, op.N%3, op.Flag))
	case OpUpdate:
		p := cur.DeepCopy()
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations["n"] = strconv.Itoa(op.N)
		out, err = w.srv.Update(w.ctx, "pods", ns, p)
	case OpRelabel:
		patch := fmt.Sprintf(`{"metadata":{"labels":{"group":"%d"}}}`, op.N%3)
		out, err = w.srv.Patch(w.ctx, "pods", ns, name, api.MergePatchType, []byte(patch))
	case OpDelete:
		if cur == nil {
			return "skipped: absent"
		}
		viaDelete = true
		out, err = w.srv.Delete(w.ctx, "pods", ns, name, nil)
	case OpAddFinalizer:
		if cur.DeletionTimestamp != nil {
			return "skipped: being deleted"
		}
		p := cur.DeepCopy()
		for _, f := range finalizers {
			if !slices.Contains(p.Finalizers, f) {
				p.Finalizers = append(p.Finalizers, f)
				break
			}
		}
		if len(p.Finalizers) == len(cur.Finalizers) {
			return "skipped: every finalizer is set"
		}
		out, err = w.srv.Update(w.ctx, "pods", ns, p)
	case OpRemoveFinalizer:
		if cur == nil || len(cur.Finalizers) == 0 {
			return "skipped: no finalizer"
		}
		p := cur.DeepCopy()
		p.Finalizers = p.Finalizers[:len(p.Finalizers)-1]
		out, err = w.srv.Update(w.ctx, "pods", ns, p)
	}
	if err != nil {
		w.rep.add("HARNESS", "%s %s: %v", kind, op.Key, err)
		return "error: " + err.Error()
	}
	return kind.String() + " → " + w.record(op.Key, cur, out.(*api.Pod), viaDelete)
}

// record adds the server's answer to a write to the history and the model.
func (w *world) record(key string, prev, got *api.Pod, viaDelete bool) string {
	if prev != nil && got.ResourceVersion == prev.ResourceVersion {
		return "no change"
	}
	rv, _ := strconv.ParseUint(got.ResourceVersion, 10, 64)
	typ := watch.Modified
	switch {
	case prev == nil:
		typ = watch.Added
	case len(got.Finalizers) == 0 && (viaDelete || got.DeletionTimestamp != nil):
		typ = watch.Deleted
	}
	w.hist[key] = append(w.hist[key], histEntry{rv: rv, typ: typ, obj: got})
	if typ == watch.Deleted {
		delete(w.model, key)
	} else {
		w.model[key] = got
	}
	desc := fmt.Sprintf("%s %s@%d", typ, key, rv)
	if len(got.Finalizers) > 0 {
		desc += fmt.Sprintf(" finalizers=%d", len(got.Finalizers))
	}
	if got.DeletionTimestamp != nil && typ != watch.Deleted {
		desc += " deleting"
	}
	return desc
}

// ---------------------------------------------------------------------------------------
// Quiescence and the end-state checks.

// serverState lists every pod on the server.
func (w *world) serverState() map[string]*api.Pod {
	obj, err := w.srv.List(w.ctx, "pods", "", api.ListOptions{})
	if err != nil {
		w.rep.add("HARNESS", "listing pods: %v", err)
		return nil
	}
	out := map[string]*api.Pod{}
	for i := range obj.(*api.PodList).Items {
		p := &obj.(*api.PodList).Items[i]
		out[p.Namespace+"/"+p.Name] = p
	}
	return out
}

func rvState(objs map[string]*api.Pod) map[string]uint64 {
	out := make(map[string]uint64, len(objs))
	for k, p := range objs {
		out[k] = rvOf(p)
	}
	return out
}

func (w *world) cacheState() map[string]uint64 {
	out := map[string]uint64{}
	for _, obj := range w.inf.GetStore().List() {
		out[keyOf(obj)] = rvOf(obj)
	}
	return out
}

func (w *world) active() []*handler {
	var out []*handler
	for _, h := range w.handlers {
		if !h.removed.Load() {
			out = append(out, h)
		}
	}
	return out
}

// quiesce stops the chaos: no more writes, faults cleared, handlers released, processLoop
// resumed; then a 410 forces a relist, which repairs whatever was dropped, and quiesce waits
// (in virtual time, bounded) until the informer has the server's RV and state, every
// listener's buffer is empty and the controller is idle.
func (w *world) quiesce() {
	w.srv.ClearFaults()
	w.stallH.release()
	w.slowH.setSlow(0)
	w.pauser.Resume()
	if !w.skipRelist {
		w.expire()
	}
	want := strconv.FormatUint(w.srv.ResourceVersion(), 10)
	state := rvState(w.serverState())
	settled := func() bool {
		if w.inf.LastSyncResourceVersion() != want || !maps.Equal(state, w.cacheState()) {
			return false
		}
		for _, h := range w.active() {
			if !h.drained() {
				return false
			}
		}
		return w.ctrl.idle()
	}
	start := time.Now()
	for step := 0; ; step++ {
		synctest.Wait()
		if settled() {
			synctest.Wait()
			return
		}
		if time.Since(start) > quiescenceLimit {
			w.rep.add("QUIESCENCE", "not reached after %v of virtual time: informer RV %q, server RV %s, cache %v, server %v, controller idle %v",
				quiescenceLimit, w.inf.LastSyncResourceVersion(), want, w.cacheState(), state, w.ctrl.idle())
			return
		}
		if step < 100 {
			time.Sleep(100 * time.Millisecond)
		} else {
			time.Sleep(time.Second)
		}
	}
}

// ignoreTypeMeta: list items and watch events may differ in apiVersion/kind only.
var ignoreTypeMeta = cmpopts.IgnoreFields(api.Pod{}, "TypeMeta")

// checkEnd checks the end-state invariants (§12.1), the history of every handler's stream and
// the controller.
func (w *world) checkEnd() {
	objs := w.serverState()
	state := rvState(objs)
	wantRV := w.srv.ResourceVersion()

	// The harness's own model must agree with the server, or the history is wrong.
	if !maps.Equal(state, rvState(w.model)) {
		w.rep.add("HARNESS", "model %v != server %v", rvState(w.model), state)
	}

	// INV-1: the indexer equals the server, object for object.
	cache := map[string]any{}
	for _, obj := range w.inf.GetStore().List() {
		cache[keyOf(obj)] = obj
	}
	for k, p := range objs {
		c, ok := cache[k]
		switch {
		case !ok:
			w.rep.add("INV-1", "%s@%s is on the server but not in the cache", k, p.ResourceVersion)
		case rvOf(c) != rvOf(p):
			w.rep.add("INV-1", "cache has %s, server has %s", show(c), show(p))
		default:
			if d := cmp.Diff(p, c, ignoreTypeMeta); d != "" {
				w.rep.add("INV-1", "cached %s differs from the server's (-server +cache):\n%s", k, d)
			}
		}
	}
	for k, c := range cache {
		if _, ok := objs[k]; !ok {
			w.rep.add("INV-1", "cache has %s, which is not on the server", show(c))
		}
	}

	w.checkIndex()

	// INV-4.
	if !w.inf.HasSynced() {
		w.rep.add("INV-4", "informer.HasSynced() is false")
	}
	if got := w.inf.LastSyncResourceVersion(); got != strconv.FormatUint(wantRV, 10) {
		w.rep.add("INV-4", "LastSyncResourceVersion() = %q, the server is at %d", got, wantRV)
	}
	for _, obj := range w.inf.GetStore().List() {
		if rvOf(obj) > wantRV {
			w.rep.add("INV-4", "cached %s is newer than the server's RV %d", show(obj), wantRV)
		}
	}

	for _, h := range w.active() {
		if !h.reg.HasSynced() {
			w.rep.add("INV-4", "handler %s: HasSynced() is false", h.name)
		}
		if l, ok := h.reg.(*processor.ProcessorListener); ok && l.Pending() != 0 {
			w.rep.add("INV-5", "handler %s: %d notifications still buffered", h.name, l.Pending())
		}
		if n := h.busy.Load(); n != 0 {
			w.rep.add("INV-5", "handler %s: %d calls still running at quiescence", h.name, n)
		}
		w.checkLast(h, state)
	}
	for _, h := range w.handlers {
		w.checkHistory(h)
	}
	w.ctrl.check(state)
}

// checkIndex is INV-2: the group index equals a recomputation over the cache.
func (w *world) checkIndex() {
	idx := w.inf.GetIndexer()
	want := map[string][]string{}
	for _, obj := range idx.List() {
		vals, _ := groupIndex(obj)
		for _, v := range vals {
			want[v] = append(want[v], keyOf(obj))
		}
	}
	got := map[string][]string{}
	for _, v := range idx.ListIndexFuncValues("group") {
		keys, err := idx.IndexKeys("group", v)
		if err != nil || len(keys) == 0 {
			w.rep.add("INV-2", "index value %q has an empty set (err %v)", v, err)
			continue
		}
		got[v] = slices.Sorted(slices.Values(keys))
	}
	for v := range want {
		sort.Strings(want[v])
	}
	if d := cmp.Diff(want, got); d != "" {
		w.rep.add("INV-2", "group index (-recomputed +indexer):\n%s", d)
	}
}

// checkLast is INV-3: the handler's last notification per key is the final state.
func (w *world) checkLast(h *handler, state map[string]uint64) {
	for key, rv := range state {
		last, ok := h.last(key)
		switch {
		case !ok:
			w.rep.add("INV-3", "handler %s never heard of %s@%d", h.name, key, rv)
		case last.kind == 'D' || last.rv != rv:
			w.rep.add("INV-3", "handler %s: last notification for %s is %s, the server has @%d", h.name, key, last, rv)
		}
	}
	for key := range h.snapshot() {
		if _, ok := state[key]; ok {
			continue
		}
		if last, _ := h.last(key); last.kind != 'D' {
			w.rep.add("INV-3", "handler %s: %s is gone from the server but its last notification is %s", h.name, key, last)
		}
	}
}

// checkHistory is the subsequence property: every state a handler was told about is one the
// server really wrote for that key, with the same content, and (INV-8, checked live) in RV
// order. The documented exceptions: sync updates repeat a state (old RV == new RV), a
// tombstone carries the last state the client knew (which must have been deleted later),
// and a ghost delete (RealFIFO profiles) is still a real DELETED write.
func (w *world) checkHistory(h *handler) {
	for key, seq := range h.snapshot() {
		hist := w.hist[key]
		find := func(rv uint64) (histEntry, bool) {
			i, ok := slices.BinarySearchFunc(hist, rv, func(e histEntry, rv uint64) int { return cmpU(e.rv, rv) })
			if !ok {
				return histEntry{}, false
			}
			return hist[i], true
		}
		for _, n := range seq {
			if n.tomb {
				if n.rv == 0 {
					continue
				}
				e, ok := find(n.rv)
				if !ok || e.typ == watch.Deleted {
					w.rep.add("HIST", "handler %s: %s carries a state the server never had", h.name, n)
					continue
				}
				if !slices.ContainsFunc(hist, func(e histEntry) bool { return e.typ == watch.Deleted && e.rv > n.rv }) {
					w.rep.add("HIST", "handler %s: %s, but that object was never deleted", h.name, n)
				}
				w.sameObject(h, n, e, n.obj.(store.DeletedFinalStateUnknown).Obj)
				continue
			}
			e, ok := find(n.rv)
			switch {
			case !ok:
				w.rep.add("HIST", "handler %s: %s is not a state the server wrote", h.name, n)
				continue
			case n.kind == 'D' && e.typ != watch.Deleted:
				w.rep.add("HIST", "handler %s: %s, but the server's write @%d was %s", h.name, n, e.rv, e.typ)
			case n.kind != 'D' && e.typ == watch.Deleted:
				w.rep.add("HIST", "handler %s: %s, but the server's write @%d was a delete", h.name, n, e.rv)
			}
			w.sameObject(h, n, e, n.obj)
		}
	}
}

func (w *world) sameObject(h *handler, n note, e histEntry, obj any) {
	if d := cmp.Diff(e.obj, obj, ignoreTypeMeta); d != "" {
		w.rep.add("HIST", "handler %s: %s differs from the server's write @%d (-server +notified):\n%s", h.name, n, e.rv, d)
	}
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

package differential

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/store"
)

// obj is the object both queues carry: a key and a version. Both sides receive the same
// pointers and never mutate them.
type obj struct {
	Name string
	RV   int
}

func (o *obj) String() string { return fmt.Sprintf("%s@%d", o.Name, o.RV) }

// keyOf is the key function of both sides. It also keys both kinds of tombstone, as
// DeletionHandlingMetaNamespaceKeyFunc does.
func keyOf(o any) (string, error) {
	switch v := o.(type) {
	case *obj:
		return v.Name, nil
	case store.DeletedFinalStateUnknown:
		return v.Key, nil
	case cache.DeletedFinalStateUnknown:
		return v.Key, nil
	}
	return "", fmt.Errorf("no key for %T", o)
}

// known is a KeyListerGetter of either side (the method sets are the same): the consumer's
// cache, which the process function updates as an informer would. ListKeys is sorted, so
// that the order in which the queues walk it is the same on both sides.
type known struct {
	mu sync.Mutex
	m  map[string]*obj
}

func newKnown() *known { return &known{m: map[string]*obj{}} }

func (k *known) ListKeys() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	keys := make([]string, 0, len(k.m))
	for key := range k.m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

func (k *known) GetByKey(key string) (any, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	o, ok := k.m[key]
	if !ok {
		return nil, false, nil
	}
	return o, true, nil
}

func (k *known) apply(typ string, o any) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch v := o.(type) {
	case *obj:
		if typ == "Deleted" {
			delete(k.m, v.Name)
		} else {
			k.m[v.Name] = v
		}
	case store.DeletedFinalStateUnknown:
		delete(k.m, v.Key)
	case cache.DeletedFinalStateUnknown:
		delete(k.m, v.Key)
	}
}

func (k *known) snapshot() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]string, 0, len(k.m))
	for _, o := range k.m {
		out = append(out, o.String())
	}
	sort.Strings(out)
	return out
}

// delta is a Delta of either side in comparable form.
type delta struct {
	Type string
	Obj  string // "name@rv", "DFSU{key, name@rv|nil}", or the payload of an atomic delta
}

func normObj(o any) string {
	switch v := o.(type) {
	case nil:
		return "nil"
	case *obj:
		return v.String()
	case store.DeletedFinalStateUnknown:
		return fmt.Sprintf("DFSU{%s, %s}", v.Key, normObj(v.Obj))
	case cache.DeletedFinalStateUnknown:
		return fmt.Sprintf("DFSU{%s, %s}", v.Key, normObj(v.Obj))
	case deltafifo.ReplacedAllInfo:
		return fmt.Sprintf("ReplacedAll{rv=%s %s}", v.ResourceVersion, normList(v.Objects))
	case cache.ReplacedAllInfo:
		return fmt.Sprintf("ReplacedAll{rv=%s %s}", v.ResourceVersion, normList(v.Objects))
	case deltafifo.SyncAllInfo, cache.SyncAllInfo:
		return "SyncAll{}"
	case deltafifo.BookmarkInfo:
		return "Bookmark{" + v.ResourceVersion + "}"
	case cache.BookmarkInfo:
		return "Bookmark{" + v.ResourceVersion + "}"
	}
	return fmt.Sprintf("unexpected %T", o)
}

func normList(objs []any) string {
	s := make([]string, len(objs))
	for i, o := range objs {
		s[i] = normObj(o)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// pop is what one Pop or PopBatch handed to its process function.
type pop struct {
	Deltas          []delta
	IsInInitialList bool
	Batch           bool // PopBatch chose processBatch (more than one delta)
	Err             string
}

// fifoSide adapts one implementation's queue to the script.
type fifoSide struct {
	add, update, del func(any) error
	replace          func([]any, string) error
	resync           func() error
	bookmark         func(string) error
	pop              func(record func(pop)) error // blocks like Pop; calls record from process
	hasSynced        func() bool
	done             func() <-chan struct{}
	close            func()
	known            *known

	// driver state
	results chan pop
	popping bool
}

// fifoObs is what the script observes after each op.
type fifoObs struct {
	Err       string
	Pops      []pop
	HasSynced bool
	Done      bool
	Known     []string
}

type fifoOp struct {
	Kind string // Add Update Delete Replace Resync Pop Bookmark
	Obj  *obj
	List []*obj
	RV   string
}

func (op fifoOp) String() string {
	switch op.Kind {
	case "Replace":
		s := make([]string, len(op.List))
		for i, o := range op.List {
			s[i] = o.String()
		}
		return fmt.Sprintf("Replace([%s], %q)", strings.Join(s, " "), op.RV)
	case "Resync", "Pop":
		return op.Kind + "()"
	case "Bookmark":
		return fmt.Sprintf("Bookmark(%q)", op.RV)
	}
	return fmt.Sprintf("%s(%s)", op.Kind, op.Obj)
}

// genFIFO draws a script over a small key space so that keys collide often.
func genFIFO(r *rand.Rand, withBookmark bool) []fifoOp {
	names := []string{"a", "b", "c", "d", "e"}
	latest := map[string]*obj{}
	rv := 0
	next := func(name string) *obj {
		rv++
		o := &obj{Name: name, RV: rv}
		latest[name] = o
		return o
	}
	n := 20 + r.IntN(40)
	ops := make([]fifoOp, 0, n)
	for range n {
		name := names[r.IntN(len(names))]
		switch p := r.IntN(100); {
		case p < 20:
			ops = append(ops, fifoOp{Kind: "Add", Obj: next(name)})
		case p < 35:
			ops = append(ops, fifoOp{Kind: "Update", Obj: next(name)})
		case p < 47:
			o := latest[name]
			if o == nil || r.IntN(3) == 0 {
				o = next(name)
			}
			ops = append(ops, fifoOp{Kind: "Delete", Obj: o})
		case p < 57:
			var list []*obj
			for _, nm := range names {
				if r.IntN(2) == 0 {
					o := latest[nm]
					if o == nil || r.IntN(2) == 0 {
						o = next(nm)
					}
					list = append(list, o)
				}
			}
			if len(list) > 0 && r.IntN(8) == 0 { // a duplicate key: the later one wins
				list = append(list, next(list[0].Name))
			}
			r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
			rv++
			ops = append(ops, fifoOp{Kind: "Replace", List: list, RV: fmt.Sprint(rv)})
		case p < 63:
			ops = append(ops, fifoOp{Kind: "Resync"})
		case p < 66 && withBookmark:
			rv++
			ops = append(ops, fifoOp{Kind: "Bookmark", RV: fmt.Sprint(rv)})
		default:
			ops = append(ops, fifoOp{Kind: "Pop"})
		}
	}
	return ops
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return "error"
}

// step plays one op on one side and returns what it observes once every goroutine of the
// bubble has settled. A Pop starts a consumer goroutine, which stays blocked (and is
// reported later) while the queue is empty.
func (s *fifoSide) step(op fifoOp) fifoObs {
	var err error
	switch op.Kind {
	case "Add":
		err = s.add(op.Obj)
	case "Update":
		err = s.update(op.Obj)
	case "Delete":
		err = s.del(op.Obj)
	case "Replace":
		list := make([]any, len(op.List))
		for i, o := range op.List {
			list[i] = o
		}
		err = s.replace(list, op.RV)
	case "Resync":
		err = s.resync()
	case "Bookmark":
		err = s.bookmark(op.RV)
	case "Pop":
		if !s.popping {
			s.popping = true
			go func() {
				var got []pop
				err := s.pop(func(p pop) { got = append(got, p) })
				if len(got) == 0 {
					got = []pop{{}}
				}
				got[len(got)-1].Err = errString(err)
				for _, p := range got {
					s.results <- p
				}
			}()
		}
	}
	return s.observe(errString(err))
}

func (s *fifoSide) observe(err string) fifoObs {
	synctest.Wait()
	var pops []pop
	for {
		select {
		case p := <-s.results:
			pops = append(pops, p)
			s.popping = false
			continue
		default:
		}
		break
	}
	obs := fifoObs{Err: err, Pops: pops, HasSynced: s.hasSynced()}
	select {
	case <-s.done():
		obs.Done = true
	default:
	}
	if s.known != nil {
		obs.Known = s.known.snapshot()
	}
	return obs
}

// finish closes the queue and collects a consumer that was still blocked.
func (s *fifoSide) finish() []pop {
	s.close()
	synctest.Wait()
	var pops []pop
	if s.popping {
		pops = append(pops, <-s.results)
		s.popping = false
	}
	return pops
}

// runFIFO plays ops through two sides built fresh inside a synctest bubble.
func runFIFO(t *testing.T, ops []fifoOp, build func() (ours, theirs *fifoSide)) (mm *mismatch) {
	synctest.Test(t, func(t *testing.T) {
		ours, theirs := build()
		ours.results, theirs.results = make(chan pop, 16), make(chan pop, 16)
		defer func() {
			o, th := ours.finish(), theirs.finish()
			if mm == nil {
				if d := cmp.Diff(o, th); d != "" {
					mm = &mismatch{step: len(ops) - 1, diff: "after Close:\n" + d}
				}
			}
		}()
		for i, op := range ops {
			o, th := ours.step(op), theirs.step(op)
			if d := cmp.Diff(o, th); d != "" {
				mm = &mismatch{step: i, diff: d}
				return
			}
		}
	})
	return mm
}

// recordDeltas turns one process call into a pop and applies it to the consumer's cache.
func recordDeltas[D any](k *known, in []D, typ func(D) string, ob func(D) any, initial, batch bool) pop {
	p := pop{IsInInitialList: initial, Batch: batch}
	for _, d := range in {
		p.Deltas = append(p.Deltas, delta{Type: typ(d), Obj: normObj(ob(d))})
		if k != nil {
			k.apply(typ(d), ob(d))
		}
	}
	return p
}

func ourDelta(d deltafifo.Delta) (string, any) { return string(d.Type), d.Object }
func cgDelta(d cache.Delta) (string, any)      { return string(d.Type), d.Object }
func ourType(d deltafifo.Delta) string         { t, _ := ourDelta(d); return t }
func ourObj(d deltafifo.Delta) any             { _, o := ourDelta(d); return o }
func cgType(d cache.Delta) string              { t, _ := cgDelta(d); return t }
func cgObj(d cache.Delta) any                  { _, o := cgDelta(d); return o }
func noBookmark(string) error                  { return errors.New("no Bookmark on DeltaFIFO") }
func withKnown(useKnown bool) (*known, *known) {
	if !useKnown {
		return nil, nil
	}
	return newKnown(), newKnown()
}

// TestDifferential_DeltaFIFO covers §5 (DF-1 … DF-13): every Pop's Deltas, its
// isInInitialList, HasSynced and Done after every op, and the consumer's cache.
func TestDifferential_DeltaFIFO(t *testing.T) {
	for _, mode := range []struct {
		name              string
		known, emitReplac bool
	}{
		{"known+Replaced", true, true},
		{"known+Sync", true, false},
		{"noKnown+Replaced", false, true},
	} {
		t.Run(mode.name, func(t *testing.T) {
			runSeeds(t, scenario[fifoOp]{
				name:   "DeltaFIFO/" + mode.name,
				gen:    func(r *rand.Rand) []fifoOp { return genFIFO(r, false) },
				format: fifoOp.String,
				run: func(t *testing.T, ops []fifoOp) *mismatch {
					return runFIFO(t, ops, func() (*fifoSide, *fifoSide) {
						ko, kt := withKnown(mode.known)
						oo := deltafifo.DeltaFIFOOptions{KeyFunction: keyOf, EmitDeltaTypeReplaced: mode.emitReplac}
						co := cache.DeltaFIFOOptions{KeyFunction: keyOf, EmitDeltaTypeReplaced: mode.emitReplac}
						if ko != nil {
							oo.KnownObjects, co.KnownObjects = ko, kt
						}
						of := deltafifo.NewDeltaFIFOWithOptions(oo)
						cf := cache.NewDeltaFIFOWithOptions(co)
						ours := &fifoSide{
							add: of.Add, update: of.Update, del: of.Delete, replace: of.Replace,
							resync: of.Resync, bookmark: noBookmark, hasSynced: of.HasSynced,
							done: of.Done, close: of.Close, known: ko,
							pop: func(rec func(pop)) error {
								_, err := of.Pop(func(o any, initial bool) error {
									rec(recordDeltas(ko, o.(deltafifo.Deltas), ourType, ourObj, initial, false))
									return nil
								})
								return err
							},
						}
						theirs := &fifoSide{
							add: cf.Add, update: cf.Update, del: cf.Delete, replace: cf.Replace,
							resync: cf.Resync, bookmark: noBookmark, hasSynced: cf.HasSynced,
							done: cf.HasSyncedChecker().Done, close: cf.Close, known: kt,
							pop: func(rec func(pop)) error {
								_, err := cf.Pop(func(o any, initial bool) error {
									rec(recordDeltas(kt, o.(cache.Deltas), cgType, cgObj, initial, false))
									return nil
								})
								return err
							},
						}
						return ours, theirs
					})
				},
			})
		})
	}
}

// TestDifferential_RealFIFO covers §6 (RF-2 … RF-11) in both of client-go's modes: the
// non-atomic queue of v0.33–v0.35 (KnownObjects, Pop) and the atomic queue of v0.36+
// (ReplacedAll, SyncAll, Bookmark, UnlockWhileProcessing, PopBatch).
func TestDifferential_RealFIFO(t *testing.T) {
	for _, mode := range []struct {
		name          string
		atomic, batch bool
	}{
		{"nonAtomic+Pop", false, false},
		{"nonAtomic+PopBatch", false, true},
		{"atomic+Pop", true, false},
		{"atomic+PopBatch", true, true},
	} {
		t.Run(mode.name, func(t *testing.T) {
			runSeeds(t, scenario[fifoOp]{
				name:   "RealFIFO/" + mode.name,
				gen:    func(r *rand.Rand) []fifoOp { return genFIFO(r, mode.atomic) },
				format: fifoOp.String,
				run: func(t *testing.T, ops []fifoOp) *mismatch {
					return runFIFO(t, ops, func() (*fifoSide, *fifoSide) {
						ko, kt := withKnown(!mode.atomic)
						oo := deltafifo.RealFIFOOptions{KeyFunction: keyOf, AtomicEvents: mode.atomic,
							UnlockWhileProcessing: mode.atomic, EmitDeltaTypeBookmark: mode.atomic}
						co := cache.RealFIFOOptions{KeyFunction: keyOf, AtomicEvents: mode.atomic,
							UnlockWhileProcessing: mode.atomic, EmitDeltaTypeBookmark: mode.atomic}
						if ko != nil {
							oo.KnownObjects, co.KnownObjects = ko, kt
						}
						of := deltafifo.NewRealFIFOWithOptions(oo)
						cf := cache.NewRealFIFOWithOptions(co)
						ours := &fifoSide{
							add: of.Add, update: of.Update, del: of.Delete, replace: of.Replace,
							resync: of.Resync, bookmark: of.Bookmark, hasSynced: of.HasSynced,
							done: of.Done, close: of.Close, known: ko,
						}
						theirs := &fifoSide{
							add: cf.Add, update: cf.Update, del: cf.Delete, replace: cf.Replace,
							resync: cf.Resync, bookmark: cf.Bookmark, hasSynced: cf.HasSynced,
							done: cf.HasSyncedChecker().Done, close: cf.Close, known: kt,
						}
						if mode.batch {
							ours.pop = func(rec func(pop)) error {
								return of.PopBatch(func(ds []deltafifo.Delta, initial bool) error {
									rec(recordDeltas(ko, ds, ourType, ourObj, initial, true))
									return nil
								}, func(o any, initial bool) error {
									rec(recordDeltas(ko, o.(deltafifo.Deltas), ourType, ourObj, initial, false))
									return nil
								})
							}
							theirs.pop = func(rec func(pop)) error {
								return cf.PopBatch(func(ds []cache.Delta, initial bool) error {
									rec(recordDeltas(kt, ds, cgType, cgObj, initial, true))
									return nil
								}, func(o any, initial bool) error {
									rec(recordDeltas(kt, o.(cache.Deltas), cgType, cgObj, initial, false))
									return nil
								})
							}
						} else {
							ours.pop = func(rec func(pop)) error {
								_, err := of.Pop(func(o any, initial bool) error {
									rec(recordDeltas(ko, o.(deltafifo.Deltas), ourType, ourObj, initial, false))
									return nil
								})
								return err
							}
							theirs.pop = func(rec func(pop)) error {
								_, err := cf.Pop(func(o any, initial bool) error {
									rec(recordDeltas(kt, o.(cache.Deltas), cgType, cgObj, initial, false))
									return nil
								})
								return err
							}
						}
						return ours, theirs
					})
				},
			})
		})
	}
}

// TestDifferential_HarnessDetectsADifference plants a bug in "ours" (Update queued as Add)
// and requires the harness to find it, shrink it to a short script and name the step.
func TestDifferential_HarnessDetectsADifference(t *testing.T) {
	sc := scenario[fifoOp]{
		name:   "planted",
		gen:    func(r *rand.Rand) []fifoOp { return genFIFO(r, false) },
		format: fifoOp.String,
		run: func(t *testing.T, ops []fifoOp) *mismatch {
			return runFIFO(t, ops, func() (*fifoSide, *fifoSide) {
				ko, kt := newKnown(), newKnown()
				of := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KeyFunction: keyOf, KnownObjects: ko})
				cf := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{KeyFunction: keyOf, KnownObjects: kt})
				ours := &fifoSide{add: of.Add, update: of.Add /* the planted bug */, del: of.Delete,
					replace: of.Replace, resync: of.Resync, hasSynced: of.HasSynced, done: of.Done,
					close: of.Close, known: ko, pop: func(rec func(pop)) error {
						_, err := of.Pop(func(o any, initial bool) error {
							rec(recordDeltas(ko, o.(deltafifo.Deltas), ourType, ourObj, initial, false))
							return nil
						})
						return err
					}}
				theirs := &fifoSide{add: cf.Add, update: cf.Update, del: cf.Delete,
					replace: cf.Replace, resync: cf.Resync, hasSynced: cf.HasSynced,
					done: cf.HasSyncedChecker().Done, close: cf.Close, known: kt, pop: func(rec func(pop)) error {
						_, err := cf.Pop(func(o any, initial bool) error {
							rec(recordDeltas(kt, o.(cache.Deltas), cgType, cgObj, initial, false))
							return nil
						})
						return err
					}}
				return ours, theirs
			})
		},
	}
	var found bool
	for seed := uint64(1); seed <= 10 && !found; seed++ {
		ops := sc.gen(newRand(seed))
		mm := sc.run(t, ops)
		if mm == nil {
			continue
		}
		found = true
		ops, mm = shrink(t, sc, ops, mm)
		require.LessOrEqual(t, len(ops), 3, "shrunk script: %v", ops)
		require.Contains(t, mm.diff, "Updated")
		t.Logf("seed %d shrinks to %v\n%s", seed, ops, mm.diff)
	}
	require.True(t, found, "the planted bug went unnoticed")
}

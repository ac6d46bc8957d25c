package chaos

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kind names one kind of chaos operation.
type Kind uint8

// The operations. Writes change the simulated apiserver's storage; faults use its fault API;
// client faults disturb the informer, its handlers or time.
const (
	// Writes. Each names a key and is resolved against the server's current state when it
	// runs, so that any subset of an op list is still a valid program (sentence 3 of doc.go).
	OpCreate          Kind = iota // create Key in group N, with a finalizer if Flag; an existing Key is relabelled instead
	OpUpdate                      // PUT Key with annotation n=N; an absent Key is created
	OpRelabel                     // merge-PATCH Key's group label to N; an absent Key is created
	OpDelete                      // DELETE Key; with finalizers this only marks it (two-phase delete)
	OpAddFinalizer                // PUT Key with one more finalizer; skipped while Key is being deleted
	OpRemoveFinalizer             // PUT Key without one finalizer; removing the last one of a marked Key deletes it

	// Server faults.
	OpDrop        // drop the next N events (only of Type when set) before any watcher sees them
	OpCloseWatch  // close every open watch cleanly
	OpShortWatch  // the next N watches end at once without an event; open watches are closed
	OpCompact     // compact the whole history; with Flag, close the watches too (410 on re-watch)
	OpFailList    // the next N LISTs of pods fail with code N2 (500 or 429)
	OpFailWatch   // the next N WATCHes of pods fail with code N2 (500 or 429)
	OpExpire      // the next WATCH answers one ERROR 410 event; open watches are closed
	OpCut         // the next event sent to any watcher breaks the stream mid-way
	OpDelayEvents // every watcher waits D before each live event (0: off); with small watch buffers this overflows slow watchers

	// Client faults and time.
	OpStall   // stall the "stall" handler inside its next call until OpRelease
	OpRelease // release the stalled handler
	OpSlow    // the "slow" handler spends D of virtual time in each call (0: off)
	OpPause   // hold the informer's processLoop before its next pop
	OpResume  // let processLoop pop again
	OpJoin    // add a late handler to the running informer
	OpLeave   // ShutDownEventHandler the newest late handler
	OpAdvance // let D of virtual time pass
	OpSettle  // wait until every goroutine is blocked (synctest.Wait)
)

var kindNames = [...]string{
	OpCreate: "create", OpUpdate: "update", OpRelabel: "relabel", OpDelete: "delete",
	OpAddFinalizer: "add-finalizer", OpRemoveFinalizer: "remove-finalizer",
	OpDrop: "drop", OpCloseWatch: "close-watches", OpShortWatch: "short-watches",
	OpCompact: "compact", OpFailList: "fail-list", OpFailWatch: "fail-watch",
	OpExpire: "expire", OpCut: "cut", OpDelayEvents: "delay-events",
	OpStall: "stall", OpRelease: "release", OpSlow: "slow", OpPause: "pause", OpResume: "resume",
	OpJoin: "join", OpLeave: "leave", OpAdvance: "advance", OpSettle: "settle",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsWrite reports whether k changes the server's storage.
func (k Kind) IsWrite() bool { return k <= OpRemoveFinalizer }

// Op is one step of a chaos run. Only the fields its Kind documents are meaningful.
type Op struct {
	Kind Kind
	// Prelude ops run before the informer starts, so they make up its initial list.
	Prelude bool
	// Key is "namespace/name" for writes.
	Key string
	// N is the group label, the annotation value, or a count.
	N int
	// N2 is an HTTP code.
	N2 int
	// Flag is the finalizer of a create, or "close the watches too" for a compaction.
	Flag bool
	// Type restricts a drop to one event type (ADDED, MODIFIED, DELETED); "" drops any.
	Type string
	// D is a duration: how long to advance, delay each event, or spend in each slow call.
	D time.Duration
}

// String renders the op on one line, as a failure report prints it.
func (o Op) String() string {
	var b strings.Builder
	if o.Prelude {
		b.WriteString("(before start) ")
	}
	b.WriteString(o.Kind.String())
	switch o.Kind {
	case OpCreate:
		fmt.Fprintf(&b, " %s group=%d", o.Key, o.N)
		if o.Flag {
			b.WriteString(" +finalizer")
		}
	case OpUpdate:
		fmt.Fprintf(&b, " %s annotation n=%d", o.Key, o.N)
	case OpRelabel:
		fmt.Fprintf(&b, " %s group=%d", o.Key, o.N)
	case OpDelete, OpAddFinalizer, OpRemoveFinalizer:
		fmt.Fprintf(&b, " %s", o.Key)
	case OpDrop:
		fmt.Fprintf(&b, " next %d", o.N)
		if o.Type != "" {
			fmt.Fprintf(&b, " %s", o.Type)
		}
		b.WriteString(" events")
	case OpShortWatch:
		fmt.Fprintf(&b, " next %d", o.N)
	case OpCompact:
		if o.Flag {
			b.WriteString(" and close watches")
		}
	case OpFailList, OpFailWatch:
		fmt.Fprintf(&b, " next %d with %d", o.N, o.N2)
	case OpDelayEvents, OpSlow, OpAdvance:
		fmt.Fprintf(&b, " %v", o.D)
	}
	return b.String()
}

// Keys are the objects a run writes: pods in two namespaces.
var Keys = []string{
	"default/a", "default/b", "default/c", "default/d", "default/e", "default/f",
	"ns2/a", "ns2/b",
}

// weights are the relative frequencies of the kinds in a generated list: about half writes,
// a fifth server faults, a tenth client faults, and the rest lets virtual time pass (the
// reflector backs off for 0.8 s to 30 s after each failure, so time must pass for it to
// make progress between faults).
var weights = []struct {
	kind   Kind
	weight int
}{
	{OpCreate, 120}, {OpUpdate, 100}, {OpRelabel, 90}, {OpDelete, 100},
	{OpAddFinalizer, 40}, {OpRemoveFinalizer, 50},
	{OpDrop, 60}, {OpCloseWatch, 20}, {OpShortWatch, 10}, {OpCompact, 25},
	{OpFailList, 15}, {OpFailWatch, 15}, {OpExpire, 20}, {OpCut, 20}, {OpDelayEvents, 20},
	{OpStall, 20}, {OpRelease, 20}, {OpSlow, 20}, {OpPause, 10}, {OpResume, 20},
	{OpJoin, 10}, {OpLeave, 10},
	{OpAdvance, 140}, {OpSettle, 50},
}

// Generate returns the op list of seed: a few creates before the informer starts, then n
// ops drawn with the frequencies of weights. The same seed always gives the same list,
// whatever the profile.
func Generate(seed uint64, n int) []Op {
	rng := rand.New(rand.NewPCG(seed, 0xc4a05))
	key := func() string { return Keys[rng.IntN(len(Keys))] }
	var ops []Op
	for i := range 2 + rng.IntN(4) {
		ops = append(ops, Op{Kind: OpCreate, Prelude: true, Key: Keys[i], N: rng.IntN(3), Flag: rng.IntN(4) == 0})
	}
	total := 0
	for _, w := range weights {
		total += w.weight
	}
	for range n {
		r := rng.IntN(total)
		k := 0
		for ; r >= weights[k].weight; k++ {
			r -= weights[k].weight
		}
		op := Op{Kind: weights[k].kind}
		switch op.Kind {
		case OpCreate:
			op.Key, op.N, op.Flag = key(), rng.IntN(3), rng.IntN(3) == 0
		case OpUpdate:
			op.Key, op.N = key(), rng.IntN(1000)
		case OpRelabel:
			op.Key, op.N = key(), rng.IntN(3)
		case OpDelete, OpAddFinalizer, OpRemoveFinalizer:
			op.Key = key()
		case OpDrop:
			op.N, op.Type = 1+rng.IntN(3), []string{"", "", "ADDED", "MODIFIED", "DELETED"}[rng.IntN(5)]
		case OpShortWatch:
			op.N = 1 + rng.IntN(2)
		case OpCompact:
			op.Flag = rng.IntN(2) == 0
		case OpFailList, OpFailWatch:
			op.N, op.N2 = 1+rng.IntN(2), []int{500, 429}[rng.IntN(2)]
		case OpDelayEvents:
			op.D = []time.Duration{0, 0, 50 * time.Millisecond, 200 * time.Millisecond}[rng.IntN(4)]
		case OpSlow:
			op.D = []time.Duration{0, 10 * time.Millisecond, 100 * time.Millisecond}[rng.IntN(3)]
		case OpAdvance:
			// Mostly short steps, sometimes long enough for backoffs, resyncs and bookmarks.
			op.D = time.Duration(1+rng.IntN(20)) * 100 * time.Millisecond
			if rng.IntN(4) == 0 {
				op.D = time.Duration(2+rng.IntN(9)) * time.Second
			}
		}
		ops = append(ops, op)
	}
	return ops
}

// FormatKeep renders sorted op indices as ranges: "0-3,7,9-12".
func FormatKeep(keep []int) string {
	var parts []string
	for i := 0; i < len(keep); {
		j := i
		for j+1 < len(keep) && keep[j+1] == keep[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(keep[i]))
		} else {
			parts = append(parts, strconv.Itoa(keep[i])+"-"+strconv.Itoa(keep[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// ParseKeep is the inverse of FormatKeep; the result is sorted and free of duplicates.
func ParseKeep(s string) ([]int, error) {
	var out []int
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("chaos: bad op index %q in %q", lo, s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("chaos: bad op range %q in %q", part, s)
			}
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

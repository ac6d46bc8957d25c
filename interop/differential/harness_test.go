package differential

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

var (
	seedFlag  = flag.Uint64("seed", 0, "run only this seed (0: run seeds 1…-seeds)")
	seedsFlag = flag.Int("seeds", 50, "number of seeds each differential test runs")
)

// TestMain fails the package if any goroutine outlives the tests.
// The informer differential spends its time waiting for the informers' relist backoff, not
// on the CPU, so its seeds run 25 at a time unless -test.parallel is given.
func TestMain(m *testing.M) {
	flag.Parse()
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet {
		_ = flag.Set("test.parallel", "25")
	}
	goleak.VerifyTestMain(m)
}

// seeds lists the seeds to run, from -seed and -seeds.
func seeds() []uint64 {
	if *seedFlag != 0 {
		return []uint64{*seedFlag}
	}
	out := make([]uint64, 0, *seedsFlag)
	for s := 1; s <= *seedsFlag; s++ {
		out = append(out, uint64(s))
	}
	return out
}

// newRand is the generator every script of one seed is drawn from.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x1f0)) }

// mismatch is the first step at which the two implementations were seen to differ.
type mismatch struct {
	step int    // index of the op after which the observations differed
	diff string // go-cmp diff, -ours +client-go
}

// scenario is a differential test: a script generator, a runner that plays a script
// through both implementations and returns the first mismatch (nil when they agree), and a
// printer for one op.
type scenario[Op any] struct {
	name   string
	gen    func(r *rand.Rand) []Op
	run    func(t *testing.T, ops []Op) *mismatch
	format func(Op) string
}

// runSeeds plays the scenario for every seed. On a mismatch it shrinks the script (cut
// after the failing step, then drop ops one by one while the scripts still differ) and
// reports the seed, the minimal script and the diff.
func runSeeds[Op any](t *testing.T, sc scenario[Op]) {
	t.Helper()
	failed := 0
	for _, seed := range seeds() {
		ops := sc.gen(newRand(seed))
		mm := sc.run(t, ops)
		if mm == nil {
			continue
		}
		failed++
		ops, mm = shrink(t, sc, ops, mm)
		var b strings.Builder
		for i, op := range ops {
			fmt.Fprintf(&b, "  %2d. %s\n", i, sc.format(op))
		}
		t.Errorf("%s: seed %d differs from client-go after step %d\nminimal script:\n%sdiff (-ours +client-go):\n%s\nreplay: go test ./differential -run '%s' -seed %d -v",
			sc.name, seed, mm.step, b.String(), mm.diff, t.Name(), seed)
		if failed >= 3 {
			t.Log("stopping after 3 failing seeds")
			return
		}
	}
	t.Logf("%s: %d seeds, %d differ", sc.name, len(seeds()), failed)
}

func shrink[Op any](t *testing.T, sc scenario[Op], ops []Op, mm *mismatch) ([]Op, *mismatch) {
	ops = append([]Op(nil), ops[:mm.step+1]...)
	for changed := true; changed; {
		changed = false
		for i := len(ops) - 1; i >= 0; i-- {
			cand := append(append([]Op(nil), ops[:i]...), ops[i+1:]...)
			if m := sc.run(t, cand); m != nil {
				ops, mm = cand[:m.step+1], m
				changed = true
				if i > len(ops) {
					i = len(ops)
				}
			}
		}
	}
	return ops, mm
}

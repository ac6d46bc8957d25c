package chaos

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/informer-lab/informer-lab/informer"
)

var (
	flagSeeds    = flag.Int("chaos.seeds", 20, "seeds per profile")
	flagSeed     = flag.Uint64("chaos.seed", 0, "first seed")
	flagOps      = flag.Int("chaos.ops", 250, "ops per seed (after the prelude)")
	flagKeep     = flag.String("chaos.keep", "", "replay only these op indices of each seed's list, e.g. 0-2,17,40-41 (as a failure prints)")
	flagProfiles = flag.String("chaos.profiles", "classic,inorder,current", "comma-separated profiles to run")
	flagShrink   = flag.Int("chaos.shrink", 200, "at most this many runs to shrink a failing op list (0: do not shrink)")
	flagVerbose  = flag.Bool("chaos.v", false, "log what every op did, and the run's statistics")
)

// TestChaos_Consistency is the chaos consistency suite: for each profile
// and seed, the seed's op list of random writes, server faults and client faults runs
// against the simulated apiserver and one informer with five handlers and a workqueue
// controller; after quiescence every invariant of docs/behaviour/client-go.md §12 that the run can observe is
// checked (see doc.go). A failure prints the seed, a shrunk op list and the go test line that
// replays it.
func TestChaos_Consistency(t *testing.T) {
	var profiles []informer.Profile
	for name := range strings.SplitSeq(*flagProfiles, ",") {
		p, ok := informer.ParseProfile(strings.TrimSpace(name))
		if !ok {
			t.Fatalf("-chaos.profiles: unknown profile %q", name)
		}
		profiles = append(profiles, p)
	}
	var keep []int
	if *flagKeep != "" {
		var err error
		if keep, err = ParseKeep(*flagKeep); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			for i := range uint64(*flagSeeds) {
				seed := *flagSeed + i
				t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
					t.Parallel()
					chaosSeed(t, p, seed, keep)
				})
			}
		})
	}
}

func chaosSeed(t *testing.T, p informer.Profile, seed uint64, keep []int) {
	ops := Generate(seed, *flagOps)
	if keep == nil {
		keep = all(len(ops))
	}
	cfg := runConfig{profile: p, ops: ops, keep: inRange(keep, len(ops))}
	res := runOnce(t, cfg)
	if *flagVerbose {
		t.Logf("%s\n%s", res.stats, strings.Join(res.actions, "\n"))
	}
	if len(res.violations) == 0 {
		return
	}
	text, shrunk, _ := investigate(t, cfg, res, *flagShrink)
	t.Errorf("chaos: profile %s, seed %d: %s\nreplay:\n  go test -race -count=1 -run 'TestChaos_Consistency/^%s$/^seed=%d$' ./harness/chaos/ -chaos.seed=%d -chaos.seeds=1 -chaos.ops=%d -chaos.profiles=%s -chaos.keep=%s -chaos.v",
		p, seed, text, p, seed, seed, *flagOps, p, FormatKeep(shrunk))
}

// investigate describes a failed run, shrinks its op list (at most budget runs) to a subset
// that still breaks the first invariant reported, and returns the description, the shrunk
// indices and the shrunk run's result.
func investigate(t *testing.T, cfg runConfig, res *result, budget int) (string, []int, *result) {
	var b strings.Builder
	fmt.Fprintf(&b, "%d ops: %s\n", len(cfg.keep), summary(res))
	writeViolations(&b, res)
	shrunk, shrunkRes := cfg.keep, res
	if budget > 0 && len(cfg.keep) > 1 {
		target := res.violations[0].inv
		began := time.Now()
		var runs int
		shrunk, runs = Shrink(cfg.keep, budget, func(cand []int) bool {
			c := cfg
			c.keep = cand
			r := runOnce(t, c)
			if slices.ContainsFunc(r.violations, func(v violation) bool { return v.inv == target }) {
				shrunkRes = r
				return true
			}
			return false
		})
		if len(shrunk) == len(cfg.keep) {
			shrunkRes = res
		}
		fmt.Fprintf(&b, "\nshrunk to %d of %d ops in %d runs (%v), still breaking %s: %s\n",
			len(shrunk), len(cfg.keep), runs, time.Since(began).Round(time.Millisecond), target, summary(shrunkRes))
		writeViolations(&b, shrunkRes)
	}
	fmt.Fprintf(&b, "\nthe ops, and what each did in the last failing run:\n")
	for _, a := range shrunkRes.actions {
		fmt.Fprintf(&b, "  %s\n", a)
	}
	fmt.Fprintf(&b, "keep=%s\n", FormatKeep(shrunk))
	return b.String(), shrunk, shrunkRes
}

func writeViolations(b *strings.Builder, r *result) {
	for _, v := range r.violations {
		fmt.Fprintf(b, "  %s\n", v)
	}
	if r.more > 0 {
		fmt.Fprintf(b, "  … and %d more\n", r.more)
	}
}

// runOnce runs one op list in a fresh synctest bubble. Violations come back as data, so a
// shrinking run does not fail the seed's test by itself; only a goroutine still alive at the
// end of the bubble does (synctest fails the test then: the leak check).
func runOnce(t *testing.T, cfg runConfig) *result {
	var res *result
	synctest.Test(t, func(t *testing.T) { res = runWorld(t, cfg) })
	return res
}

func summary(r *result) string {
	seen := map[string]int{}
	var order []string
	for _, v := range r.violations {
		if seen[v.inv] == 0 {
			order = append(order, v.inv)
		}
		seen[v.inv]++
	}
	parts := make([]string, 0, len(order))
	for _, inv := range order {
		parts = append(parts, fmt.Sprintf("%s×%d", inv, seen[inv]))
	}
	return strings.Join(parts, ", ") + " (" + r.stats + ")"
}

func all(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func inRange(keep []int, n int) []int {
	var out []int
	for _, i := range keep {
		if i < n {
			out = append(out, i)
		}
	}
	return out
}

package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// The tour's narration: the header before the steps, each step's title and result lines, and
// the summary after the last step.

// header says what the tour runs on.
func (t *tour) header() {
	p, pal := t.cfg.pal, t.cfg.pal
	t.j.say("%s", p.paint(p.bold, "informer-lab tour · profile "+t.cfg.profile.String()+" ("+profileBlurb(t.cfg.profile)+")"))
	t.j.say("  apiserver  simulated, served at %s: everything below crosses real HTTP", t.p.url)
	t.j.say("  pipeline   reflector → fifo → indexer → processor ─┬─ listener %q → handler → workqueue → 2 workers → PATCH",
		schedulerName)
	t.j.say("                                                    └─ listener %q     → handler (only logs; resync every %v)",
		auditName, t.cfg.resync)
	t.j.say("  each line  %s", pal.paint(pal.dim, "component  op  key  rv  what happened: one slog trace record, printed as it is logged"))
}

// step starts step n: header, filter, counters.
func (t *tour) step(title, explain string, f filter) error {
	t.n++
	if t.n > 1 {
		t.wait(t.cfg.pause)
	}
	if t.cfg.stepper != nil {
		t.j.say("%s", t.cfg.pal.paint(t.cfg.pal.dim, "  (press Enter for the next step)"))
		if _, err := t.cfg.stepper.ReadString('\n'); err != nil && err != io.EOF {
			return err
		}
	}
	p := t.cfg.pal
	t.j.say("")
	t.j.say("%s", p.paint(p.bold, fmt.Sprintf("━━ Step %d/%d · %s ━━", t.n, tourSteps, title)))
	for _, line := range strings.Split(explain, "\n") {
		t.j.say("   %s", line)
	}
	t.before = t.p.count.snapshot()
	t.beforeR = t.p.requests()
	t.j.setFilter(f)
	return nil
}

// endStep records what the step counted.
func (t *tour) endStep() {
	t.j.setFilter(nil)
	now := t.p.requests()
	req := map[string]int{}
	for k, v := range now {
		if d := v - t.beforeR[k]; d != 0 {
			req[k] = d
		}
	}
	t.res.steps = append(t.res.steps, stepResult{counts: t.p.count.snapshot().since(t.before), requests: req})
}

// diff is what the current step has counted so far.
func (t *tour) diff() tally { return t.p.count.snapshot().since(t.before) }

// ok prints a result line of the step.
func (t *tour) ok(format string, args ...any) {
	p := t.cfg.pal
	t.j.say("  %s %s", p.paint(p.green, "✓"), fmt.Sprintf(format, args...))
}

// you prints an action the tour takes, as a user with kubectl would.
func (t *tour) you(format string, args ...any) {
	p := t.cfg.pal
	t.j.say("  %s %s", p.paint(p.bold, "▶"), fmt.Sprintf(format, args...))
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// summary prints the counts of the whole tour.
func (t *tour) summary() {
	r, c, p := t.res, t.res.total, t.cfg.pal
	row := func(name, value, source string) {
		t.j.say("%s", strings.TrimRight(fmt.Sprintf("  %-17s %s  %s", name, value, p.paint(p.dim, source)), " "))
	}
	join := func(m map[string]int64, order ...string) string {
		keys := slices.Collect(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		})
		sort.Slice(keys, func(i, j int) bool {
			a, b := slices.Index(order, keys[i]), slices.Index(order, keys[j])
			if a < 0 {
				a = len(order)
			}
			if b < 0 {
				b = len(order)
			}
			return a < b || (a == b && keys[i] < keys[j])
		})
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, " · ")
	}
	pick := func(prefix string) map[string]int64 {
		out := map[string]int64{}
		for k, v := range c {
			if rest, ok := strings.CutPrefix(k, prefix); ok && !strings.Contains(rest, "/") && v != 0 {
				out[rest] = v
			}
		}
		return out
	}
	t.j.say("")
	t.j.say("%s", p.paint(p.bold, fmt.Sprintf("━━ Summary · profile %s · %.1fs ━━", r.profile, r.elapsed.Seconds())))
	reqs := map[string]int64{}
	for k, v := range r.requests {
		reqs[k] = int64(v)
	}
	row("API requests", join(reqs, "list", "watch", "get", "create", "update", "patch", "delete"), "(apiserver RequestCounts, by verb)")
	row("watch events", join(pick("reflector/event/"), "ADDED", "MODIFIED", "DELETED"), "(reflector)")
	row("queue deltas", join(pick("fifo/delta/"), "Replaced", "ReplacedAll", "Added", "Updated", "Deleted", "Sync", "SyncAll", "Bookmark"), "(fifo)")
	for _, l := range []string{t.p.sched.name, t.p.audit.name} {
		calls := map[string]int64{}
		for _, op := range []string{"OnAdd", "OnUpdate", "OnDelete"} {
			if v := c["handler/"+l+"/"+op]; v > 0 {
				calls[op] = v
			}
		}
		row("handler "+l, join(calls, "OnAdd", "OnUpdate", "OnDelete"),
			fmt.Sprintf("(%d tombstones, %d resyncs)", c["handler/"+l+"/tombstone"], c["handler/"+l+"/resync"]))
	}
	row("reconciles", fmt.Sprintf("%d for %d scheduler calls", c["worker/reconcile"], c["handler/"+t.p.sched.name]), "(level-triggered: the workqueue collapses keys)")
	row("writes", fmt.Sprintf("%d PATCH by the scheduler", t.p.sched.writes.Load()), "(each came back as an update)")
	row("relists", fmt.Sprintf("%d", max(c["reflector/replace"]-1, 0)), "(after the initial sync: only the 410 of step 5)")
	row("tombstones", fmt.Sprintf("%d", c["handler/tombstone"]), "(OnDelete(DeletedFinalStateUnknown), all handlers)")
	row("retries", fmt.Sprintf("%d, then Forget", c["worker/retry"]), "(AddRateLimited)")
	row("resyncs", fmt.Sprintf("%d (step 7 made %d API requests)", c["reflector/resync"], r.resyncRequests), "")
	row("audit ring", fmt.Sprintf("peak %d pending, capacity %d", r.auditPeak, r.auditCap), "(RingGrowing)")
}

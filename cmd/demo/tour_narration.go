package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// The tour's narration: the header before the steps, each step's title and result lines, and
// the summary after the last step.

// header says what the tour runs on.
func (t *tour) header() {
	p, pal := t.cfg.pal, t.cfg.pal
	t.j.say("%s", p.paint(p.bold, t.tr("tour.header", t.cfg.profile.String(), profileBlurb(t.cfg.lang, t.cfg.profile))))
	t.j.say("%s", t.tr("tour.apiserver", t.p.url))
	t.j.say("%s", t.tr("tour.pipeline", schedulerName))
	t.j.say("%s", t.tr("tour.pipeline.audit", auditName, t.cfg.resync))
	t.j.say("%s", t.tr("tour.eachline", pal.paint(pal.dim, t.tr("tour.eachline.columns"))))
}

// step starts step n: header, filter, counters.
func (t *tour) step(title, explain string, f filter) error {
	t.n++
	if t.n > 1 {
		t.wait(t.cfg.pause)
	}
	if t.cfg.stepper != nil {
		t.j.say("%s", t.cfg.pal.paint(t.cfg.pal.dim, t.tr("tour.enter")))
		if _, err := t.cfg.stepper.ReadString('\n'); err != nil && err != io.EOF {
			return err
		}
	}
	p := t.cfg.pal
	t.j.say("")
	t.j.say("%s", p.paint(p.bold, t.tr("tour.step", t.n, tourSteps, title)))
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

// ok prints a result line of the step: message id of the catalogue, formatted with args.
func (t *tour) ok(id string, args ...any) {
	p := t.cfg.pal
	t.j.say("  %s %s", p.paint(p.green, "✓"), t.tr(id, args...))
}

// you prints an action the tour takes, as a user with kubectl would: message id of the
// catalogue, formatted with args.
func (t *tour) you(id string, args ...any) {
	p := t.cfg.pal
	t.j.say("  %s %s", p.paint(p.bold, "▶"), t.tr(id, args...))
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
		t.j.say("%s", strings.TrimRight("  "+padRight(name, 17)+" "+value+"  "+p.paint(p.dim, source), " "))
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
			return t.tr("sum.none")
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
	t.j.say("%s", p.paint(p.bold, t.tr("sum.title", r.profile, r.elapsed.Seconds())))
	reqs := map[string]int64{}
	for k, v := range r.requests {
		reqs[k] = int64(v)
	}
	row(t.tr("sum.requests"), join(reqs, "list", "watch", "get", "create", "update", "patch", "delete"), t.tr("sum.requests.src"))
	row(t.tr("sum.events"), join(pick("reflector/event/"), "ADDED", "MODIFIED", "DELETED"), t.tr("sum.events.src"))
	row(t.tr("sum.deltas"), join(pick("fifo/delta/"), "Replaced", "ReplacedAll", "Added", "Updated", "Deleted", "Sync", "SyncAll", "Bookmark"), t.tr("sum.deltas.src"))
	for _, l := range []string{t.p.sched.name, t.p.audit.name} {
		calls := map[string]int64{}
		for _, op := range []string{"OnAdd", "OnUpdate", "OnDelete"} {
			if v := c["handler/"+l+"/"+op]; v > 0 {
				calls[op] = v
			}
		}
		row(t.tr("sum.handler", l), join(calls, "OnAdd", "OnUpdate", "OnDelete"),
			t.tr("sum.handler.src", c["handler/"+l+"/tombstone"], c["handler/"+l+"/resync"]))
	}
	row(t.tr("sum.reconciles"), t.tr("sum.reconciles.v", c["worker/reconcile"], c["handler/"+t.p.sched.name]), t.tr("sum.reconciles.src"))
	row(t.tr("sum.writes"), t.tr("sum.writes.v", t.p.sched.writes.Load()), t.tr("sum.writes.src"))
	row(t.tr("sum.relists"), fmt.Sprintf("%d", max(c["reflector/replace"]-1, 0)), t.tr("sum.relists.src"))
	row(t.tr("sum.tombstones"), fmt.Sprintf("%d", c["handler/tombstone"]), t.tr("sum.tombstones.src"))
	row(t.tr("sum.retries"), t.tr("sum.retries.v", c["worker/retry"]), t.tr("sum.retries.src"))
	row(t.tr("sum.resyncs"), t.tr("sum.resyncs.v", c["reflector/resync"], r.resyncRequests), "")
	row(t.tr("sum.ring"), t.tr("sum.ring.v", r.auditPeak, r.auditCap), t.tr("sum.ring.src"))
}

// padRight pads s with spaces to width terminal columns, counting a CJK character or a
// full-width punctuation mark as two: fmt's %-17s counts runes, which misaligns Chinese.
func padRight(s string, width int) string {
	w := 0
	for _, r := range s {
		w++
		if wide(r) {
			w++
		}
	}
	if w >= width {
		return s
	}
	return s + strings.Repeat(" ", width-w)
}

// wide reports whether r takes two columns in a terminal: the CJK ideographs and the
// full-width forms and punctuation the Chinese messages use.
func wide(r rune) bool {
	return unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xff60)
}

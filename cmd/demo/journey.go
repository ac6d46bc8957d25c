package main

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
)

// filter decides which hops the journey prints. resync tells whether the hop only replays
// unchanged state (a resync, or a relist's same-RV update), which most steps hide.
type filter func(h *hop, resync bool) bool

// journey is the sink that prints hops as journey lines, one per hop, in the order the
// components logged them:
//
//	apiserver  update     demo/web-1      rv=12   the write
//	reflector  event      demo/web-1      rv=12   MODIFIED
//	fifo       enqueue    demo/web-1      rv=12   Updated
//
// Narration lines (say) go through the same lock, so they never cut a hop line in two.
type journey struct {
	mu     sync.Mutex
	w      io.Writer
	pal    palette
	show   filter
	hidden int // hops the filter held back since the last resetHidden
	// indexerRV is the RV the indexer last stored per key: an indexer write at the same RV
	// changes nothing, the mark of a resync.
	indexerRV map[string]string
}

func newJourney(w io.Writer, pal palette) *journey {
	return &journey{w: w, pal: pal, indexerRV: map[string]string{}}
}

// setFilter replaces the filter; nil prints no hop at all.
func (j *journey) setFilter(f filter) {
	j.mu.Lock()
	j.show = f
	j.hidden = 0
	j.mu.Unlock()
}

// hiddenCount returns how many hops the filter held back since the last setFilter.
func (j *journey) hiddenCount() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.hidden
}

// observe prints one hop if the filter lets it through; it implements sink.
func (j *journey) observe(h *hop) {
	j.mu.Lock()
	defer j.mu.Unlock()
	resync := j.isResync(h)
	if h.component == "indexer" && h.key != "" {
		if h.op == "delete" || h.op == "txn-Deleted" {
			delete(j.indexerRV, h.key)
		} else {
			j.indexerRV[h.key] = h.rv
		}
	}
	if h.component == "indexer" && h.op == "replace" {
		clear(j.indexerRV) // a replace stores only listed objects; we learn their RVs later
	}
	if j.show == nil {
		return
	}
	if !j.show(h, resync) {
		j.hidden++
		return
	}
	fmt.Fprintln(j.w, j.format(h, resync))
}

// isResync classifies hops that carry no change: the resync machinery itself, and the
// notifications of an update whose old and new objects have the same resourceVersion.
func (j *journey) isResync(h *hop) bool {
	switch h.component {
	case "reflector":
		return h.op == "resync"
	case "fifo":
		return strings.Contains(h.typ, "Sync")
	case "indexer":
		if h.key == "" || h.op == "delete" {
			return false
		}
		old, ok := j.indexerRV[h.key]
		return ok && old == h.rv
	case "processor":
		return h.flag("sync")
	case "listener":
		return h.typ == "update" && h.str("old_rv") == h.rv
	case "handler":
		return h.flag("resync")
	}
	return false
}

// say prints a narration line.
func (j *journey) say(format string, args ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	fmt.Fprintf(j.w, format+"\n", args...)
}

// format renders one hop as a fixed-width journey line.
func (j *journey) format(h *hop, resync bool) string {
	p := j.pal
	if h.component == "" {
		return "  " + p.paint(p.red, "! "+h.level.String()+" "+h.msg+" "+attrText(h))
	}
	key := h.key
	if key == "" {
		key = "-"
	}
	rv := ""
	if h.rv != "" {
		rv = "rv=" + h.rv
	}
	detail := describe(h)
	if resync && h.component != "reflector" && h.component != "handler" {
		detail = strings.TrimSpace(detail + " (no change)")
	}
	line := fmt.Sprintf("  %s %-11s %-15s %-7s %s",
		p.paint(p.component(h.component), fmt.Sprintf("%-9s", h.component)), h.op, key, rv, detail)
	if h.component == "apiserver" && h.op == "fault" {
		line = p.paint(p.red, line)
	}
	return strings.TrimRight(line, " ")
}

// describe is the detail column: what this hop adds to the story.
func describe(h *hop) string {
	switch h.component {
	case "apiserver":
		switch h.op {
		case "fault":
			d := h.str("fault")
			if n, ok := h.num("count"); ok {
				d += " ×" + strconv.FormatInt(n, 10)
			}
			return "FAULT " + d
		case "watch-open", "watch-close":
			return "watcher " + h.str("watcher")
		case "watch-send":
			return h.typ + " → watcher " + h.str("watcher")
		}
	case "listwatch":
		switch h.op {
		case "list":
			return h.str("items") + " items over HTTP"
		case "watch-event":
			return h.typ + " decoded from the stream"
		case "watch-close":
			return h.str("reason")
		}
	case "reflector":
		switch h.op {
		case "event":
			return h.typ
		case "replace":
			return h.str("items") + " items → queue"
		case "bookmark":
			if h.flag("initialEventsEnd") {
				return "initial-events-end: the snapshot is complete"
			}
			return "RV moves, nothing stored"
		case "watch-end":
			return h.str("reason")
		case "backoff":
			if v, ok := h.attr("delay"); ok && v.Kind() == slog.KindDuration {
				return "wait " + v.Duration().Round(time.Millisecond).String() + " before the next ListAndWatch"
			}
			return "wait " + h.str("delay") + " before the next ListAndWatch"
		case "list":
			return `LIST from the watch cache (rv "0")`
		case "relist":
			return "LIST again"
		case "watch-list":
			return "WATCH with sendInitialEvents (watch-list)"
		case "watch-start":
			return "WATCH from here"
		case "resync":
			return "replay the cache: no API call"
		}
	case "fifo":
		switch h.op {
		case "tombstone":
			return "Deleted(DeletedFinalStateUnknown): gone from the list"
		case "pop-batch":
			return h.str("size") + " deltas"
		}
		return h.typ
	case "indexer":
		if n := h.str("items"); n != "" {
			return n + " items"
		}
	case "processor":
		d := h.typ
		if h.flag("init") {
			d += " (initial list)"
		}
		return d + " → " + h.str("listeners") + " listener(s)"
	case "listener":
		d := h.typ + " → " + h.listener
		if p := h.str("pending"); p != "" {
			d += "  ring: " + p + " pending"
		}
		if c := h.str("cap"); c != "" {
			d += ", cap " + c
		}
		return d
	case "handler":
		d := h.listener
		if h.flag("tombstone") {
			d += " got DeletedFinalStateUnknown: unwrap .Obj"
		}
		if n := h.str("note"); n != "" {
			d += ": " + n
		}
		return d
	case "workqueue":
		switch h.op {
		case "requeue":
			return "AddRateLimited: back in " + h.str("delay")
		case "forget":
			return "Forget: " + h.str("requeues") + " requeues cleared"
		case "get":
			return "→ a worker"
		}
		return h.str("result")
	case "worker":
		d := h.str("note")
		if e := h.str("err"); e != "" {
			d = strings.TrimSpace(d + " error: " + e)
		}
		return d
	}
	return attrText(h)
}

// attrText prints the extra attributes as key=value.
func attrText(h *hop) string {
	var b strings.Builder
	for i, a := range h.extra {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Key + "=" + a.Value.String())
	}
	return b.String()
}

// Filters.

// showAll prints every hop: `demo run --trace` and `demo watch --trace`.
func showAll(*hop, bool) bool { return true }

// mainHops is the journey the tour prints: one line per stage, without the wire-level detail
// (listwatch frames, per-watcher sends), the listener's internal hand-over (add, deliver),
// the queue's bookkeeping (done) or resyncs.
func mainHops(h *hop, resync bool) bool {
	if resync {
		return false
	}
	switch h.component {
	case "":
		return h.level >= 4 // slog.LevelWarn
	case "listwatch":
		return false
	case "apiserver":
		return h.op != "watch-send" && h.op != "list" && h.op != "watch-close"
	case "listener":
		return h.op == "pop" || h.op == "buffer"
	case "workqueue":
		if h.op == "forget" {
			n, _ := h.num("requeues")
			return n > 0
		}
		return h.op != "done" || h.str("result") == "requeued"
	case "worker":
		return h.op != "retry"
	case "fifo":
		return h.op != "pop-batch"
	case "indexer":
		return h.op != "bookmark"
	case "reflector":
		return h.op != "bookmark" || h.flag("initialEventsEnd")
	}
	return true
}

// focus narrows f to hops about the given keys (hops without a key, such as a LIST or a
// ReplacedAll, always pass).
func focus(f filter, keys ...string) filter {
	set := map[string]bool{}
	for _, k := range keys {
		set[k] = true
	}
	return func(h *hop, resync bool) bool {
		if h.key != "" && !set[h.key] && !(h.component == "apiserver" && !strings.Contains(h.key, "/")) {
			return false
		}
		return f(h, resync)
	}
}

// only narrows f to the listed components.
func only(f filter, components ...string) filter {
	set := map[string]bool{}
	for _, c := range components {
		set[c] = true
	}
	return func(h *hop, resync bool) bool { return set[h.component] && f(h, resync) }
}

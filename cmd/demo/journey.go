package main

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/internal/msgcat"
	"github.com/informer-lab/informer-lab/internal/trace"
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
	// lang is the language of the detail column and of the narration (--lang).
	lang msgcat.Lang
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
	if h.Component == "indexer" && h.Key != "" {
		if h.Op == "delete" || h.Op == "txn-Deleted" {
			delete(j.indexerRV, h.Key)
		} else {
			j.indexerRV[h.Key] = h.RV
		}
	}
	if h.Component == "indexer" && h.Op == "replace" {
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
	switch h.Component {
	case "reflector":
		return h.Op == "resync"
	case "fifo":
		return strings.Contains(h.Type, "Sync")
	case "indexer":
		if h.Key == "" || h.Op == "delete" {
			return false
		}
		old, ok := j.indexerRV[h.Key]
		return ok && old == h.RV
	case "processor":
		return h.Bool("sync")
	case "listener":
		return h.Type == "update" && h.Text("old_rv") == h.RV
	case "handler":
		return h.Bool("resync")
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
	if h.Component == "" {
		return "  " + p.paint(p.red, "! "+h.Level.String()+" "+h.Message+" "+attrText(h))
	}
	key := h.Key
	if key == "" {
		key = "-"
	}
	rv := ""
	if h.RV != "" {
		rv = "rv=" + h.RV
	}
	detail := describe(j.lang, h)
	if resync && h.Component != "reflector" && h.Component != "handler" {
		detail = strings.TrimSpace(detail + " " + messages.T(j.lang, "hop.no-change"))
	}
	line := fmt.Sprintf("  %s %-11s %-15s %-7s %s",
		p.paint(p.component(h.Component), fmt.Sprintf("%-9s", h.Component)), h.Op, key, rv, detail)
	if h.Component == "apiserver" && h.Op == "fault" {
		line = p.paint(p.red, line)
	}
	return strings.TrimRight(line, " ")
}

// describe is the detail column: what this hop adds to the story, in language l. The values
// the components logged (types, reasons, notes) are printed as they are.
func describe(l msgcat.Lang, h *hop) string {
	tr := func(id string, args ...any) string { return messages.T(l, id, args...) }
	switch h.Component {
	case "apiserver":
		switch h.Op {
		case "fault":
			d := h.Text("fault")
			if n, ok := h.Int("count"); ok {
				d += " ×" + strconv.FormatInt(n, 10)
			}
			return tr("hop.fault", d)
		case "watch-open", "watch-close":
			return "watcher " + h.Text("watcher")
		case "watch-send":
			return h.Type + " → watcher " + h.Text("watcher")
		}
	case "listwatch":
		switch h.Op {
		case "list":
			return tr("hop.list", h.Text("items"))
		case "watch-event":
			return tr("hop.decoded", h.Type)
		case "watch-close":
			return h.Text("reason")
		}
	case "reflector":
		switch h.Op {
		case "event":
			return h.Type
		case "replace":
			return tr("hop.replace", h.Text("items"))
		case "bookmark":
			if h.Bool("initialEventsEnd") {
				return tr("hop.initial-end")
			}
			return tr("hop.bookmark")
		case "watch-end":
			return h.Text("reason")
		case "backoff":
			if v, ok := h.Attr("delay"); ok && v.Kind() == slog.KindDuration {
				return tr("hop.backoff", v.Duration().Round(time.Millisecond).String())
			}
			return tr("hop.backoff", h.Text("delay"))
		case "list":
			return tr("hop.reflector-list")
		case "relist":
			return tr("hop.relist")
		case "watch-list":
			return tr("hop.watch-list")
		case "watch-start":
			return tr("hop.watch-start")
		case "resync":
			return tr("hop.resync")
		}
	case "fifo":
		switch h.Op {
		case "tombstone":
			return tr("hop.tombstone")
		case "pop-batch":
			return tr("hop.pop-batch", h.Text("size"))
		}
		return h.Type
	case "indexer":
		if n := h.Text("items"); n != "" {
			return tr("hop.items", n)
		}
	case "processor":
		if h.Bool("init") {
			return tr("hop.initial", h.Type, h.Text("listeners"))
		}
		return tr("hop.distribute", h.Type, h.Text("listeners"))
	case "listener":
		d := h.Type + " → " + h.Listener
		if p := h.Text("pending"); p != "" {
			d += tr("hop.ring", p)
		}
		if c := h.Text("cap"); c != "" {
			d += tr("hop.cap", c)
		}
		return d
	case "handler":
		d := h.Listener
		if h.Bool("tombstone") {
			d += tr("hop.unwrap")
		}
		if n := h.Text("note"); n != "" {
			d += tr("note.sep", localNote(l, n))
		}
		return d
	case "workqueue":
		switch h.Op {
		case "requeue":
			return tr("hop.requeue", h.Text("delay"))
		case "forget":
			return tr("hop.forget", h.Text("requeues"))
		case "get":
			return tr("hop.get")
		}
		return h.Text("result")
	case "worker":
		d := localNote(l, h.Text("note"))
		if e := h.Text("err"); e != "" {
			d = strings.TrimSpace(d + " " + tr("hop.error", e))
		}
		return d
	}
	return attrText(h)
}

// attrText prints the extra attributes as key=value.
func attrText(h *hop) string {
	var b strings.Builder
	for _, a := range h.Attrs {
		if a.Key == trace.KeyType || a.Key == trace.KeyListener {
			continue // shown, where wanted, from their own fields
		}
		if b.Len() > 0 {
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
	switch h.Component {
	case "":
		return h.Level >= 4 // slog.LevelWarn
	case "listwatch":
		return false
	case "apiserver":
		return h.Op != "watch-send" && h.Op != "list" && h.Op != "watch-close"
	case "listener":
		return h.Op == "pop" || h.Op == "buffer"
	case "workqueue":
		if h.Op == "forget" {
			n, _ := h.Int("requeues")
			return n > 0
		}
		return h.Op != "done" || h.Text("result") == "requeued"
	case "worker":
		return h.Op != "retry"
	case "fifo":
		return h.Op != "pop-batch"
	case "indexer":
		return h.Op != "bookmark"
	case "reflector":
		return h.Op != "bookmark" || h.Bool("initialEventsEnd")
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
		if h.Key != "" && !set[h.Key] && !(h.Component == "apiserver" && !strings.Contains(h.Key, "/")) {
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
	return func(h *hop, resync bool) bool { return set[h.Component] && f(h, resync) }
}

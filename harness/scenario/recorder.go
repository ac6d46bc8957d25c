package scenario

import (
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// lane is one sequence of trace lines whose order is fixed by a single goroutine (or by
// causality). The runner prints lanes in pipeline order and keeps each lane's own order, so
// the goroutine scheduling between lanes never shows in a golden file.
type lane struct {
	rank int    // the pipeline stage (componentRank)
	name string // a listener or handler name; "" otherwise
	sub  int    // the goroutine side within a component (push 0, pop 1, …)
}

// componentRank orders the pipeline stages as an event travels through them.
var componentRank = map[string]int{
	"apiserver": 1,
	"listwatch": 2,
	"reflector": 3,
	"fifo":      4,
	"indexer":   5,
	"informer":  6,
	"processor": 7,
	"listener":  8,
	"handler":   9,
	"workqueue": 10,
	"worker":    10, // one lane with the workqueue: the worker goroutine makes most of its hops
	"runner":    12,
}

// dropAttrs lists attributes whose value depends on scheduling or on random jitter.
var dropAttrs = map[string]map[string]bool{
	"listener":  {"pending": true, "listener": true},
	"reflector": {"delay": true, "reflector": true},
	"":          {"reflector": true},
}

// callSite matches a reflector's default name, the file:line that built it ("controller.go:101"),
// which moves whenever that file is edited.
var callSite = regexp.MustCompile(`\b[\w-]+\.go:\d+\b`)

// entry is one recorded line.
type entry struct {
	lane      lane
	component string
	text      string
}

// recorder turns every record into one normalised line: no time, no level for hops, no
// scheduling-dependent attributes. It also takes the runner's own lines (handler calls,
// worker syncs).
type recorder struct {
	mu      sync.Mutex
	entries []entry
}

// handler is the slog.Handler every component of a world logs to: a trace.Tap, so records
// are decoded as every other reader of the trace decodes them.
func (r *recorder) handler() slog.Handler { return trace.NewTap(r.handle) }

// handle renders a hop as "component op key rv=N k=v…" and any other record as
// "LEVEL msg k=v…".
func (r *recorder) handle(h *trace.Record) {
	text := func(v string) string { return callSite.ReplaceAllString(v, "reflector") }
	component, op, key, rv, name := text(h.Component), text(h.Op), text(h.Key), text(h.RV), text(h.Listener)
	var fault, watcher string
	var extra []string
	for _, a := range h.Attrs {
		v := text(a.Value.String())
		switch a.Key {
		case "fault":
			fault = v
		case "watcher":
			watcher = v
		}
		if !dropAttrs[component][a.Key] {
			extra = append(extra, a.Key+"="+quote(v))
		}
	}
	if component == "" || h.Level > slog.LevelDebug {
		// A log line, not a hop: a warning, an error, an observed panic.
		l := lane{rank: componentRank["runner"], name: name}
		switch {
		case component != "":
			l = laneOf(component, op, name)
		case strings.Contains(h.Message, "reflector") || strings.Contains(h.Message, "watch"):
			l = lane{rank: componentRank["reflector"]}
		case hasPrefix(extra, "listener="):
			l = lane{rank: componentRank["handler"], name: name}
		}
		r.add(entry{lane: l, component: "log", text: join(h.Level.String(), h.Message, extra...)})
		return
	}
	head := []string{component, op}
	if name != "" && component == "listener" {
		head = append(head, name)
	}
	if key != "" {
		head = append(head, key)
	}
	if rv != "" {
		head = append(head, "rv="+rv)
	}
	l := laneOf(component, op, name)
	if component == "apiserver" {
		l = apiserverLane(op, fault, watcher)
	}
	r.add(entry{lane: l, component: component, text: join(strings.Join(head, " "), "", extra...)})
}

// laneOf puts a hop in its lane: the queue's push and pop sides and each listener's three
// goroutine sides are separate lanes. The workqueue and the workers share one lane: with the
// scripts' one event per command, its order is causal.
func laneOf(component, op, name string) lane {
	rank, ok := componentRank[component]
	if !ok {
		rank = componentRank["runner"]
	}
	l := lane{rank: rank}
	switch component {
	case "fifo":
		if strings.HasPrefix(op, "pop") {
			l.sub = 1
		}
	case "listener":
		l.name = name
		switch op {
		case "add":
			l.sub = 0
		case "pop", "buffer":
			l.sub = 1
		default:
			l.sub = 2
		}
	}
	return l
}

// apiserverLane splits the server's hops by goroutine: writes and faults come from the
// script (under the storage lock), requests from the client, and each watcher's stream from
// that watcher's own goroutine.
func apiserverLane(op, fault, watcher string) lane {
	l := lane{rank: componentRank["apiserver"]}
	switch {
	case op == "list" || op == "watch-open" || (op == "fault" && fault == "fail"):
		l.sub = 1
	case op == "watch-send" || op == "watch-close" || (op == "fault" && (fault == "cut" || fault == "slow-watcher")):
		l.sub = 2
		if len(watcher) < 4 {
			watcher = strings.Repeat(" ", 4-len(watcher)) + watcher // sort watcher 10 after 9
		}
		l.name = "watcher" + watcher
	}
	return l
}

// line records a line of the runner's own (a handler call, a worker sync).
func (r *recorder) line(component, name, text string) {
	r.add(entry{lane: lane{rank: componentRank[component], name: name}, component: component, text: text})
}

func (r *recorder) add(e entry) {
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
}

// take returns, in lane order, the lines recorded since the last take whose component passes
// the filter; log lines (warnings, errors, panics) always pass. With sorted, each lane's lines
// are sorted too, for the steps whose order the spec leaves open (a DeltaFIFO resync walks
// a map).
func (r *recorder) take(show func(component string) bool, sorted bool) []string {
	r.mu.Lock()
	es := r.entries
	r.entries = nil
	r.mu.Unlock()
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].lane, es[j].lane
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.name != b.name {
			return a.name < b.name
		}
		if a.sub != b.sub {
			return a.sub < b.sub
		}
		return sorted && es[i].text < es[j].text
	})
	var out []string
	for _, e := range es {
		if e.component == "log" || show(e.component) {
			out = append(out, e.text)
		}
	}
	return out
}

func hasPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func join(head, msg string, extra ...string) string {
	parts := []string{head}
	if msg != "" {
		parts = append(parts, msg)
	}
	return strings.Join(append(parts, extra...), " ")
}

// quote leaves simple values bare and quotes the rest, as slog's text handler does.
func quote(v string) string {
	if v == "" || strings.ContainsAny(v, " \t\n\"=") {
		return fmt.Sprintf("%q", v)
	}
	return v
}

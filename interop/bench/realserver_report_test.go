package bench

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// realRound is one side's figures in one round.
type realRound struct {
	create, sync time.Duration
	// floor and createFloor are the sync and the creates against a server that does no work,
	// replaying what ours answered (ours only; 0 when not measured).
	floor, createFloor time.Duration
	// processFloor and createProcessFloor are the same with the replaying server a process of
	// its own, as both servers are (ours only; 0 when not measured).
	processFloor, createProcessFloor time.Duration
	// requests are those of the round's last informer sync, to show it used watch-list.
	requests []string
}

func (r realRound) String() string {
	s := fmt.Sprintf("create %d ms, sync %d ms (%s", r.create.Milliseconds(), r.sync.Milliseconds(), syncMode(r.requests))
	if _, accept := watchListRequest(r.requests); accept != "" {
		s += ", Accept: " + accept
	}
	s += ")"
	if r.floor > 0 {
		s += fmt.Sprintf("; against a server doing no work: create %d ms, sync %d ms", r.createFloor.Milliseconds(), r.floor.Milliseconds())
	}
	if r.processFloor > 0 {
		s += fmt.Sprintf("; the same as a process: create %d ms, sync %d ms", r.createProcessFloor.Milliseconds(), r.processFloor.Milliseconds())
	}
	return s
}

// syncMode says how an informer's client synced, from its requests: "watch-list" when it
// opened a watch with sendInitialEvents=true and sent no list, else "list+watch".
func syncMode(reqs []string) string {
	watchList, list := false, false
	for _, r := range reqs {
		uri, _, _ := strings.Cut(r[strings.IndexByte(r, ' ')+1:], "\t")
		switch {
		case strings.Contains(uri, "watch=true") && strings.Contains(uri, "sendInitialEvents=true"):
			watchList = true
		case !strings.Contains(uri, "watch=true") && strings.HasPrefix(r, "GET "):
			list = true
		}
	}
	switch {
	case watchList && !list:
		return "watch-list"
	case watchList:
		return "watch-list, then a list"
	case list:
		return "list+watch"
	}
	return "no request"
}

// realResults keeps each side's rounds; the fastest of each figure counts.
type realResults struct {
	n, conc int
	rounds  map[string][]realRound
}

func (r *realResults) add(side string, x realRound) {
	if r.rounds == nil {
		r.rounds = map[string][]realRound{}
	}
	r.rounds[side] = append(r.rounds[side], x)
}

// bestFigures is a side's fastest of each figure over its rounds.
type bestFigures struct {
	create, sync, floor, createFloor, processFloor, createProcessFloor time.Duration
}

// best is the side's fastest create, sync and floors over its rounds (zero without rounds).
func (r *realResults) best(side string) bestFigures {
	var b bestFigures
	for _, x := range r.rounds[side] {
		b.create = minMeasured(b.create, x.create)
		b.sync = minMeasured(b.sync, x.sync)
		b.floor = minMeasured(b.floor, x.floor)
		b.createFloor = minMeasured(b.createFloor, x.createFloor)
		b.processFloor = minMeasured(b.processFloor, x.processFloor)
		b.createProcessFloor = minMeasured(b.createProcessFloor, x.createProcessFloor)
	}
	return b
}

// minMeasured is the smaller of two figures, where 0 means not measured.
func minMeasured(a, b time.Duration) time.Duration {
	if a == 0 || (b > 0 && b < a) {
		return b
	}
	return a
}

// table is the report: one row per workload, ours and the real server's best in ms, the
// ratio ours ÷ real, and the goal.
func (r *realResults) table(load string) string {
	o, ref := r.best("ours"), r.best("real")
	oc, oSync, rc, rSync := o.create, o.sync, ref.create, ref.sync
	var b strings.Builder
	fmt.Fprintf(&b, "%d ConfigMaps, %d creating goroutines, best of %d/%d rounds (ours/real)", r.n, r.conc, len(r.rounds["ours"]), len(r.rounds["real"]))
	if load != "" {
		fmt.Fprintf(&b, ", load average %s", load)
	}
	b.WriteString("\n| workload | ours ms | real server ms | ratio | goal |\n|---|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| create %d ConfigMaps | %s | %s | %s | ≤ 0.10 |\n", r.n, ms(oc), ms(rc), ratio(oc, rc))
	fmt.Fprintf(&b, "| client-go informer sync of those %d (watch-list) | %s | %s | %s | ≤ 0.50 |\n", r.n, ms(oSync), ms(rSync), ratio(oSync, rSync))
	if o.floor > 0 {
		fmt.Fprintf(&b, "| client's floor: the creates against a server doing no work (ours' answer replayed) | %s | %s | %s | |\n", ms(o.createFloor), ms(rc), ratio(o.createFloor, rc))
		fmt.Fprintf(&b, "| client's floor: the sync of ours' stream replayed by a server doing no work | %s | %s | %s | |\n", ms(o.floor), ms(rSync), ratio(o.floor, rSync))
	}
	if o.processFloor > 0 {
		fmt.Fprintf(&b, "| process floor: the creates against the same server run as a process, as both servers are | %s | %s | %s | |\n", ms(o.createProcessFloor), ms(rc), ratio(o.createProcessFloor, rc))
		fmt.Fprintf(&b, "| process floor: the sync from the same server run as a process | %s | %s | %s | |\n", ms(o.processFloor), ms(rSync), ratio(o.processFloor, rSync))
	}
	return b.String()
}

func ms(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprint(d.Milliseconds())
}

func ratio(ours, real time.Duration) string {
	if ours == 0 || real == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(ours)/float64(real))
}

var (
	refReadyLine  = regexp.MustCompile(`^ready (https?://\S+)$`)
	demoReadyLine = regexp.MustCompile(`serving (https?://\S+)$`)
)

// parseRefReady reads the reference's "ready <url>" line.
func parseRefReady(line string) (string, bool) {
	m := refReadyLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// parseDemoReady reads demo serve's first line, "informer-lab apiserver (simulated) serving
// <url>", printed once the kubeconfig is written.
func parseDemoReady(line string) (string, bool) {
	m := demoReadyLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", false
	}
	return m[1], true
}

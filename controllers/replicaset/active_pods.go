package replicaset

import (
	"math"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// podPhaseToOrdinal mirrors controller's podPhaseToOrdinal: Pending before Unknown before
// Running when choosing whom to delete.
var podPhaseToOrdinal = map[string]int{"Pending": 0, "Unknown": 1, "Running": 2}

// podDeletionCost is the annotation of the PodDeletionCost feature.
const podDeletionCost = "controller.kubernetes.io/pod-deletion-cost"

// ActivePodsWithRanks mirrors controller.ActivePodsWithRanks: sorted, the pods best deleted
// first. Rules, in turn:
//
//  1. unscheduled before scheduled;
//  2. Pending before Unknown before Running;
//  3. not ready before ready;
//  4. lower pod-deletion-cost annotation first;
//  5. higher rank (more related pods on the same node) first;
//  6. ready for less time first (on a log2 scale of the age, then by UID);
//  7. more container restarts first;
//  8. created more recently first (log2 scale, then UID).
type ActivePodsWithRanks struct {
	Pods []*api.Unstructured
	Rank []int
	// Now is the time the log2 scale is taken from; zero compares times directly.
	Now time.Time
}

// Len implements sort.Interface.
func (s ActivePodsWithRanks) Len() int { return len(s.Pods) }

// Swap implements sort.Interface.
func (s ActivePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

// Less implements sort.Interface: whether pod i should go before pod j.
func (s ActivePodsWithRanks) Less(i, j int) bool {
	pi, pj := s.Pods[i], s.Pods[j]
	ni, nj := app.NodeName(pi), app.NodeName(pj)
	if ni != nj && (ni == "" || nj == "") {
		return ni == ""
	}
	if oi, oj := podPhaseToOrdinal[app.PodPhase(pi)], podPhaseToOrdinal[app.PodPhase(pj)]; oi != oj {
		return oi < oj
	}
	ri, rj := app.IsPodReady(pi), app.IsPodReady(pj)
	if ri != rj {
		return !ri
	}
	if ci, cj := deletionCost(pi), deletionCost(pj); ci != cj {
		return ci < cj
	}
	if s.Rank[i] != s.Rank[j] {
		return s.Rank[i] > s.Rank[j]
	}
	if ri && rj {
		ti, _ := readyTime(pi)
		tj, _ := readyTime(pj)
		if !ti.Equal(tj) {
			return s.newerFirst(pi, pj, ti, tj)
		}
	}
	if xi, xj := maxRestarts(pi), maxRestarts(pj); xi != xj {
		return xi > xj
	}
	ti, tj := pi.GetCreationTimestamp().Time, pj.GetCreationTimestamp().Time
	if !ti.Equal(tj) {
		return s.newerFirst(pi, pj, ti, tj)
	}
	return false
}

// newerFirst orders by time, the newer first, on the log2 scale of LogarithmicScaleDown.
func (s ActivePodsWithRanks) newerFirst(pi, pj *api.Unstructured, ti, tj time.Time) bool {
	if s.Now.IsZero() || ti.IsZero() || tj.IsZero() {
		return afterOrZero(ti, tj)
	}
	if d := logRank(ti, s.Now) - logRank(tj, s.Now); d != 0 {
		return d < 0
	}
	return pi.GetUID() < pj.GetUID()
}

// afterOrZero mirrors afterOrZero: a zero time counts as the newest.
func afterOrZero(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero()
	}
	return a.After(b)
}

func logRank(t, now time.Time) int64 {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	return int64(math.Log2(float64(d)))
}

func deletionCost(p *api.Unstructured) int64 {
	v, ok := p.GetAnnotations()[podDeletionCost]
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return n
}

func maxRestarts(p *api.Unstructured) int64 {
	v, _ := app.Nested(p.Object, "status", "containerStatuses")
	list, _ := v.([]any)
	var m int64
	for _, c := range list {
		cm, _ := c.(map[string]any)
		if n, ok := app.NestedInt64(cm, "restartCount"); ok && n > m {
			m = n
		}
	}
	return m
}

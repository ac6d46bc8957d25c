package job

import (
	"sort"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// interval is a closed range of completion indexes.
type interval struct{ First, Last int }

// orderedIntervals mirrors orderedIntervals: disjoint, sorted, non-adjacent ranges, as
// status.completedIndexes prints them ("1,3-5,7").
type orderedIntervals []interval

// withOrderedIndexes mirrors withOrderedIndexes: the union with sorted new indexes.
func (oi orderedIntervals) withOrderedIndexes(newIndexes []int) orderedIntervals {
	var add orderedIntervals
	for _, ix := range newIndexes {
		add = append(add, interval{ix, ix})
	}
	return oi.merge(add)
}

// merge mirrors merge: the union of two ordered lists, adjacent ranges joined.
func (oi orderedIntervals) merge(other orderedIntervals) orderedIntervals {
	all := append(append(orderedIntervals{}, oi...), other...)
	sort.Slice(all, func(i, j int) bool { return all[i].First < all[j].First })
	var out orderedIntervals
	for _, v := range all {
		if n := len(out); n > 0 && v.First <= out[n-1].Last+1 {
			out[n-1].Last = max(out[n-1].Last, v.Last)
			continue
		}
		out = append(out, v)
	}
	return out
}

func (oi orderedIntervals) total() int {
	n := 0
	for _, v := range oi {
		n += v.Last - v.First + 1
	}
	return n
}

// String mirrors orderedIntervals.String: two adjacent indexes print as "a,b", longer runs
// as "a-b".
func (oi orderedIntervals) String() string {
	var b strings.Builder
	for _, v := range oi {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v.First))
		switch {
		case v.Last == v.First+1:
			b.WriteString("," + strconv.Itoa(v.Last))
		case v.Last > v.First:
			b.WriteString("-" + strconv.Itoa(v.Last))
		}
	}
	return b.String()
}

func (oi orderedIntervals) has(ix int) bool {
	i := sort.Search(len(oi), func(i int) bool { return oi[i].Last >= ix })
	return i < len(oi) && oi[i].First <= ix
}

// parseIndexesFromString mirrors parseIndexesFromString: what is malformed or outside
// [0, completions) is skipped.
func parseIndexesFromString(s string, completions int) orderedIntervals {
	var out orderedIntervals
	if s == "" {
		return out
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first >= completions {
			continue
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(hi); err != nil {
				continue
			}
			last = min(last, completions-1)
		}
		out = out.merge(orderedIntervals{{first, last}})
	}
	return out
}

// calculateSucceededIndexes mirrors calculateSucceededIndexes: the indexes recorded in the
// status, and those plus the succeeded pods not counted yet.
func calculateSucceededIndexes(j *job, pods []*api.Unstructured) (prev, now orderedIntervals) {
	completions := int(j.completions())
	prev = parseIndexesFromString(j.Status.CompletedIndexes, completions)
	seen := map[int]bool{}
	var add []int
	for _, p := range pods {
		ix := getCompletionIndex(p)
		if phase(p) == "Succeeded" && ix != unknownCompletionIndex && ix < completions && hasJobTrackingFinalizer(p) && !seen[ix] {
			seen[ix] = true
			add = append(add, ix)
		}
	}
	sort.Ints(add)
	return prev, prev.withOrderedIndexes(add)
}

// firstPendingIndexes mirrors firstPendingIndexes: the lowest count indexes that neither
// succeeded nor have an active (or, when only failed pods are replaced, terminating) pod.
func firstPendingIndexes(c *syncJobCtx, count, completions int) []int {
	if count == 0 {
		return nil
	}
	busy := map[int]bool{}
	for _, p := range c.activePods {
		busy[getCompletionIndex(p)] = true
	}
	if c.job.onlyReplaceFailedPods() {
		for _, p := range c.pods {
			if isPodTerminating(p) {
				busy[getCompletionIndex(p)] = true
			}
		}
	}
	var out []int
	for ix := 0; ix < completions && len(out) < count; ix++ {
		if !busy[ix] && !c.succeededIndexes.has(ix) {
			out = append(out, ix)
		}
	}
	return out
}

// appendDuplicatedIndexPodsForRemoval mirrors appendDuplicatedIndexPodsForRemoval: pods
// out of range, and for an index held by several pods all but one (the one kept is the
// best by activePodsLess's order, reversed), go to rm.
func appendDuplicatedIndexPodsForRemoval(pods []*api.Unstructured, completions int) (rm, left []*api.Unstructured) {
	byIndex := map[int][]*api.Unstructured{}
	var order []int
	for _, p := range pods {
		ix := getCompletionIndex(p)
		if ix == unknownCompletionIndex || ix >= completions {
			rm = append(rm, p)
			continue
		}
		if _, ok := byIndex[ix]; !ok {
			order = append(order, ix)
		}
		byIndex[ix] = append(byIndex[ix], p)
	}
	sort.Ints(order)
	for _, ix := range order {
		ps := byIndex[ix]
		if len(ps) > 1 {
			sort.SliceStable(ps, func(a, b int) bool { return activePodsLess(ps[a], ps[b]) })
			rm = append(rm, ps[:len(ps)-1]...)
			ps = ps[len(ps)-1:]
		}
		left = append(left, ps...)
	}
	return rm, left
}

// podGenerateNameWithIndex mirrors podGenerateNameWithIndex: "<job>-<index>-", the job's
// name cut so the generated name still fits.
func podGenerateNameWithIndex(jobName string, index int) string {
	suffix := "-" + strconv.Itoa(index) + "-"
	const maxGeneratedNameLength = 58
	prefix := jobName + suffix
	if len(prefix) > maxGeneratedNameLength {
		prefix = prefix[:maxGeneratedNameLength-len(suffix)] + suffix
	}
	return prefix
}

// addCompletionIndexEnvVariables mirrors addCompletionIndexEnvVariables: every container
// gets JOB_COMPLETION_INDEX from the pod's index label.
func addCompletionIndexEnvVariables(podSpec map[string]any) {
	for _, field := range []string{"initContainers", "containers"} {
		list, _ := podSpec[field].([]any)
		for _, c := range list {
			m, ok := c.(map[string]any)
			if !ok {
				continue
			}
			env, _ := m["env"].([]any)
			has := false
			for _, e := range env {
				if em, _ := e.(map[string]any); em["name"] == completionIndexEnvName {
					has = true
				}
			}
			if !has {
				m["env"] = append(env, map[string]any{
					"name": completionIndexEnvName,
					"valueFrom": map[string]any{"fieldRef": map[string]any{
						"fieldPath": "metadata.labels['" + JobCompletionIndexAnnotation + "']",
					}},
				})
			}
		}
	}
}

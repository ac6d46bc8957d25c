package chaos

import "slices"

// Shrink looks for a small subset of keep (op indices) on which fails still reports true,
// by delta debugging: it tries to drop chunks of the list, halving the chunk size each time
// no chunk can go, down to single ops. It calls fails at most budget times and returns the
// smallest failing subset it found (keep itself if nothing could go) and the number of calls.
// fails must not be called with keep itself: the caller has seen that fail already.
func Shrink(keep []int, budget int, fails func(keep []int) bool) ([]int, int) {
	cur := slices.Clone(keep)
	calls := 0
	chunks := 2
	for len(cur) > 1 && calls < budget {
		size := (len(cur) + chunks - 1) / chunks
		removed := false
		for start := 0; start < len(cur) && calls < budget; start += size {
			end := min(start+size, len(cur))
			cand := slices.Concat(cur[:start], cur[end:])
			if len(cand) == 0 {
				continue
			}
			calls++
			if fails(cand) {
				cur = cand
				removed = true
				chunks = max(chunks-1, 2)
				break
			}
		}
		if removed {
			continue
		}
		if size == 1 {
			break
		}
		chunks = min(chunks*2, len(cur))
	}
	return cur, calls
}

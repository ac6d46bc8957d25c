//go:build !race

package apiserver

// bulkObjects is how many objects the bulk-deletion tests delete at once: 10,000, the size
// the hostile probe used.
const bulkObjects = 10000

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false

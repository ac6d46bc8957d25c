//go:build !race

package informer

// bulkObjects is how many objects the bulk-deletion tests delete at once: 10,000, the size
// the hostile probe used.
const bulkObjects = 10000

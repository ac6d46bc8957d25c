//go:build race

package informer

// bulkObjects is smaller under the race detector, which makes each event about four times
// slower: 2,500 still overflows a 1,000-slot watch queue when a deletion does not wait for
// its watchers. Without -race the tests delete 10,000.
const bulkObjects = 2500

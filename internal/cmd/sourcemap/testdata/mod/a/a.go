// Package a mirrors client-go tools/cache for the test.
package a

// Queue mirrors cache.Queue in client-go tools/cache/fifo.go, trimmed: a queue.
type Queue struct{ embedded }

type embedded struct{}

// Promoted is promoted from embedded and must not be listed.
func (embedded) Promoted() {}

// Pop mirrors Queue.Pop.
func (*Queue) Pop() {}

// Len is ours: the length.
func (*Queue) Len() int { return 0 }

// Close closes it.
func (*Queue) Close() {}

// NewQueue mirrors cache.NewQueue (Classic profile only).
func NewQueue() *Queue { return nil }

// Helper has no client-go counterpart.
func Helper() {}

// The delta types; they mirror cache.DeltaType.
const (
	// Added mirrors cache.Added.
	Added = "Added"
	// Gone is ours.
	Gone  = "Gone"
	Plain = "Plain"
)

// Limits of the queue.
const (
	Max = 10
	Min = 1
)

const Undocumented = 1

func unexported() {}

package processor

// DoneChecker mirrors cache.DoneChecker in client-go tools/cache/shared_informer.go (v0.36+): a
// named activity whose completion is a closed channel, so callers can wait without polling.
type DoneChecker interface {
	// Name describes what is being waited for.
	Name() string
	// Done is closed when the activity has completed, and stays closed.
	Done() <-chan struct{}
}

// IsDone mirrors cache.IsDone: whether checker is done, without blocking.
func IsDone(checker DoneChecker) bool {
	select {
	case <-checker.Done():
		return true
	default:
		return false
	}
}

// NewDoneChecker is ours: a DoneChecker for a channel that some component closes on completion,
// such as a queue's Done(). client-go has no such helper: its queues implement DoneChecker
// themselves, while ours expose only the channel.
func NewDoneChecker(name string, done <-chan struct{}) DoneChecker {
	return chanChecker{name: name, done: done}
}

type chanChecker struct {
	name string
	done <-chan struct{}
}

func (c chanChecker) Name() string          { return c.name }
func (c chanChecker) Done() <-chan struct{} { return c.done }

package fuzztape

// Chooser is what an op-driver needs: *rand.Rand and *Tape both satisfy it.
type Chooser interface{ IntN(n int) int }

// Tape reads choices from a fuzzer's input.
type Tape struct {
	data []byte
	pos  int
}

// New returns a tape over data.
func New(data []byte) *Tape { return &Tape{data: data} }

// IntN returns the next byte modulo n, or 0 once the tape is exhausted. n must be positive.
func (t *Tape) IntN(n int) int {
	if t.pos >= len(t.data) {
		return 0
	}
	b := t.data[t.pos]
	t.pos++
	return int(b) % n
}

// Exhausted reports whether every byte has been read.
func (t *Tape) Exhausted() bool { return t.pos >= len(t.data) }

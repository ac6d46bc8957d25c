package fuzztape_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/internal/fuzztape"
)

var (
	_ fuzztape.Chooser = (*rand.Rand)(nil)
	_ fuzztape.Chooser = (*fuzztape.Tape)(nil)
)

func TestTape(t *testing.T) {
	tape := fuzztape.New([]byte{7, 250, 3})
	assert.Equal(t, []int{2, 0, 3}, []int{tape.IntN(5), tape.IntN(10), tape.IntN(4)})
	assert.True(t, tape.Exhausted())
	assert.Equal(t, 0, tape.IntN(9), "an exhausted tape keeps answering 0")
}

func ExampleTape() {
	tape := fuzztape.New([]byte{1, 2, 13})
	for !tape.Exhausted() {
		fmt.Print(tape.IntN(4), " ")
	}
	// Output: 1 2 1
}

package ch12_test

import (
	"flag"
	"testing"

	"github.com/informer-lab/informer-lab/harness/scenario"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.txt")

// TestCh12_Scripts runs every fault script of testdata.
func TestCh12_Scripts(t *testing.T) {
	scenario.RunDir(t, "testdata", *update)
}

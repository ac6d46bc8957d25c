package ch10_test

import (
	"flag"
	"testing"

	"github.com/informer-lab/informer-lab/harness/scenario"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.txt")

// TestCh10_Scripts runs every script of testdata under the profiles it names, side by side.
func TestCh10_Scripts(t *testing.T) {
	scenario.RunDir(t, "testdata", *update)
}

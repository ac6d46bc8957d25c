package ch07_test

import (
	"flag"
	"testing"

	"github.com/informer-lab/informer-lab/harness/scenario"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.txt")

// TestCh07_Scripts runs every script of testdata under the profiles it names, side by side.
func TestCh07_Scripts(t *testing.T) {
	scenario.RunDir(t, "testdata", *update)
}

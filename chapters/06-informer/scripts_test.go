package ch06_test

import (
	"flag"
	"testing"

	"github.com/informer-lab/informer-lab/harness/scenario"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.txt")

// TestCh06_Scripts runs every script of testdata under the profiles it names, side by side.
func TestCh06_Scripts(t *testing.T) {
	scenario.RunDir(t, "testdata", *update)
}

package ch08_test

import (
	"flag"
	"testing"

	"github.com/informer-lab/informer-lab/harness/scenario"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.txt")

// TestCh08_Scripts runs every script of testdata under the profiles it names, side by side.
func TestCh08_Scripts(t *testing.T) {
	scenario.RunDir(t, "testdata", *update)
}

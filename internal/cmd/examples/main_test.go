package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExamples_PrintsOutputBlocks(t *testing.T) {
	dir := t.TempDir()
	src := `package x_test

import "fmt"

// Example_hello greets.
func Example_hello() {
	fmt.Println("hello")
	fmt.Println("world")
	// Output:
	// hello
	// world
}

// Example_unchecked has no Output block and is skipped.
func Example_unchecked() {}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644))
	var buf bytes.Buffer
	require.NoError(t, run(&buf, dir))
	assert.Equal(t, "\n--- Example_hello\n    # Example_hello greets.\n    hello\n    world\n", buf.String())
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	documentsDir = filepath.Join("..", "..", "..", "apiserver", "internal", "schema", "openapi")
}

// TestCh01_SSA_CommittedZeroObjectsAreCurrent: zero.json is what the Go types give today.
func TestCh01_SSA_CommittedZeroObjectsAreCurrent(t *testing.T) {
	files, err := generate()
	require.NoError(t, err)
	for name, data := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", "..", "apiserver", "internal", "typed", "zero", name))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got), "%s is stale: run go run ./cmd/zero-gen from tools/", name)
	}
}

// TestCh01_SSA_ZeroDeployment: a struct member appears as {}, a member without omitempty as
// null, the rest not at all.
func TestCh01_SSA_ZeroDeployment(t *testing.T) {
	files, err := generate()
	require.NoError(t, err)
	assert.Contains(t, string(files["zero.json"]), `"apps/v1, Kind=Deployment": {
  "metadata": {},
  "spec": {
   "selector": null,
   "strategy": {},
   "template": {
    "metadata": {},
    "spec": {
     "containers": null
    }
   }
  },
  "status": {}
 }`)
}

package clientcmd_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/clientcmd"
)

// TestCh02_YAMLToJSON checks the manifest conversion: YAML 1.1 scalar types, nesting, and
// multi-document streams.
func TestCh02_YAMLToJSON(t *testing.T) {
	for _, tc := range []struct{ yaml, json string }{
		{"a: 1\nb: true\nc: on\nd: ~\ne: '1'\nf: 1.5\n", `{"a":1,"b":true,"c":true,"d":null,"e":"1","f":1.5}`},
		{"spec:\n  versions:\n  - name: v1\n    served: true\n    schema: {openAPIV3Schema: {type: object}}\n",
			`{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object"}},"served":true}]}}`},
		{"", "null"},
	} {
		out, err := clientcmd.YAMLToJSON([]byte(tc.yaml))
		require.NoError(t, err, tc.yaml)
		assert.JSONEq(t, tc.json, string(out), tc.yaml)
	}
	_, err := clientcmd.YAMLToJSON([]byte("a: [1, 2\n"))
	assert.Error(t, err)

	docs := clientcmd.SplitYAMLDocuments([]byte("---\na: 1\n---\n\n--- \nb: 2\n"))
	require.Len(t, docs, 2)
	assert.Equal(t, "a: 1\n", string(docs[0]))
	assert.Equal(t, "b: 2\n", string(docs[1]))
}

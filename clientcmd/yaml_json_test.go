package clientcmd_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/clientcmd"
)

// TestCh02_YAMLToJSON checks the manifest conversion: YAML 1.1 scalar types, nesting, and
// multi-document streams. Every expected JSON below is what sigs.k8s.io/yaml's YAMLToJSON
// (kubectl's) gives for the same YAML, keys aside: kubectl writes a key such as 0x1 as "1".
func TestCh02_YAMLToJSON(t *testing.T) {
	for _, tc := range []struct{ yaml, json string }{
		{"a: 1\nb: true\nc: on\nd: ~\ne: '1'\nf: 1.5\n", `{"a":1,"b":true,"c":true,"d":null,"e":"1","f":1.5}`},
		{"spec:\n  versions:\n  - name: v1\n    served: true\n    schema: {openAPIV3Schema: {type: object}}\n",
			`{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object"}},"served":true}]}}`},
		{"", "null"},
		// YAML 1.1 typing, which yaml.v3 (YAML 1.2) leaves to this package.
		{"a: 0755\nb: 0o17\nc: 1_000\nd: 0x1F\ne: 1.50\nf: yes\ng: 2001-12-14\nh: 0b101\ni: 6.02e+23\nk: Off\nl: ~\n",
			`{"a":493,"b":15,"c":1000,"d":31,"e":1.5,"f":true,"g":"2001-12-14","h":5,"i":6.02e+23,"k":false,"l":null}`},
		// The non-specific tag ! makes a scalar text, as !!str does, and leaves a collection be.
		{"a: ! 123\nb: ! yes\nc: !!str 0x1\nd: &n ! 1\ne: ! &m 2\nf: [! 3]\ng: !\n", `{"a":"123","b":"yes","c":"0x1","d":"1","e":"2","f":["3"],"g":""}`},
		{"a: ! {k: 1}\nb: ! [on]\n", `{"a":{"k":1},"b":[true]}`},
		// Keys with properties, and an alias as a key.
		{"x: &k a\n*k : c\n", `{"a":"c","x":"a"}`},
		{"!!str 1: x\n&q 2: y\n", `{"1":"x","2":true}`},
		// Where the hand-written reader this package once had read otherwise than kubectl.
		{"a: {k:}\n", `{"a":{"k:":null}}`},
		{"a: [1, 2! :]\n", `{"a":[1,"2! :"]}`},
		{"a: |\n x\n  y\nb: >\n  z", `{"a":"x\n y\n","b":"z"}`},
		{"?x: y\n", `{"?x":true}`},
		{"clusters:   # the servers\n|# - name: old\n", `{"clusters":""}`},
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

package clientcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// The YAML reader (yaml.v3 and the tree built from its nodes) on constructs the kubectl
// corpus shows in context, one at a time.
func TestCh02_YAMLConstructs(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"nested flow", `c: [{name: ref, cluster: {server: "https://x:6443"}}]`,
			map[string]any{"c": []any{map[string]any{"name": "ref", "cluster": map[string]any{"server": "https://x:6443"}}}}},
		{"flow over lines", "a: [1,\n  2, # two\n  3,\n]\n", map[string]any{"a": []any{"1", "2", "3"}}},
		{"flow pair in a sequence", "a: [k: v, x]", map[string]any{"a": []any{map[string]any{"k": "v"}, "x"}}},
		{"flow key without value", "a: {k, j: }", map[string]any{"a": map[string]any{"k": nil, "j": nil}}},
		{"literal, clip", "a: |\n  x\n   y\n\n", map[string]any{"a": "x\n y\n"}},
		{"literal, strip", "a: |-\n  x\n\n", map[string]any{"a": "x"}},
		{"literal, keep", "a: |+\n  x\n\n", map[string]any{"a": "x\n\n"}},
		{"literal, indentation indicator", "a: |1\n   x\n  y\n", map[string]any{"a": "  x\n y\n"}},
		{"folded", "a: >\n  one\n  two\n\n  three\n    more\n  four\n", map[string]any{"a": "one two\nthree\n  more\nfour\n"}},
		{"plain over lines", "a: one\n  two\n\n  three\nb: c\n", map[string]any{"a": "one two\nthree", "b": "c"}},
		{"double-quoted over lines", "a: \"one\n  two \\\n  three\"\n", map[string]any{"a": "one two three"}},
		{"single-quoted over lines", "a: 'one\n\n  two'\n", map[string]any{"a": "one\ntwo"}},
		{"anchor and alias", "a: &x {k: v}\nb: *x\n", map[string]any{"a": map[string]any{"k": "v"}, "b": map[string]any{"k": "v"}}},
		{"merge key", "a: &x {k: v, j: w}\nb:\n  <<: *x\n  j: own\n", map[string]any{"a": map[string]any{"k": "v", "j": "w"},
			"b": map[string]any{"k": "v", "j": "own"}}},
		{"quoted merge key is a key", "a: {'<<': x}", map[string]any{"a": map[string]any{"<<": "x"}}},
		{"str tag", "a: !!str 123\nb: !!str\n", map[string]any{"a": "123", "b": ""}},
		{"markers", "%YAML 1.1\n--- \na: b\n...\n", map[string]any{"a": "b"}},
		{"comment lines anywhere", "a:\n# x\n  - 1\n    # y\n  - 2\n", map[string]any{"a": []any{"1", "2"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseYAML([]byte(tc.in))
			require.NoError(t, err)
			assert.Equal(t, tc.want, asWritten(got))
		})
	}
}

// What the reader refuses, with the line, and the bounds that keep hostile input cheap;
// Load gives the same error, with the package's prefix. Syntax errors are yaml.v3's (the
// wording of go-yaml, which kubectl would print too).
func TestCh02_YAMLErrors(t *testing.T) {
	tests := []struct{ name, in, wantErr string }{
		{"explicit key in a mapping", "a: b\n? c\n: d\n", "line 2: explicit keys"},
		{"explicit key in a flow", "a: [?x: y]\n", "line 1: explicit keys"},
		{"explicit key after a dash", "a:\n- ? x\n  : y\n", "line 2: explicit keys"},
		{"key not a scalar", "a: {[x]: y}\n", "line 1: keys must be scalars"},
		{"bad tag on a key", "!!binary eA==: y\n", "line 1: tag !!binary is not supported"},
		{"unknown tag", "a: !foo b\n", "line 1: tag !foo is not supported"},
		{"map tag on a scalar", "a: !!map b\n", "a !!map node cannot hold this value"},
		{"unknown alias", "a: *nope\n", `line 1: unknown anchor "nope"`},
		{"unknown alias further down", "a: b\nc: [x, *nope]\n", `line 2: unknown anchor "nope"`},
		{"control character, as in kubectl", "a: b\nc: \x01\n", "line 2: control characters are not allowed"},
		{"control character in quotes", "a: b\nc: d\ne: \"\uFFFE\"\n", "line 3: control characters are not allowed"},
		{"self alias", "a: &x [*x]\n", `unknown anchor "x"`},
		{"unclosed flow", "a: [b,\n  c\n", "line 2: did not find expected ',' or ']'"},
		{"flow cut by a marker", "a: [b,\n---\n", "did not find expected node content"},
		{"value after a value", "a: b: c\n", "line 1: mapping values are not allowed in this context"},
		{"text after a quote", "a: 'b' c\n", "line 1: did not find expected key"},
		{"merge of a scalar", "a: {<<: x}\n", "a merge key (<<) takes a mapping"},
		{"bad escape", `a: "\q"`, "line 1: found unknown escape character"},
		{"too deep", "a: " + strings.Repeat("[", maxYAMLDepth+1) + strings.Repeat("]", maxYAMLDepth+1), "nesting deeper than"},
		{"too deep and not closed", "a: " + strings.Repeat("[", maxYAMLDepth+1), "did not find expected node content"},
		{"alias bomb", aliasBomb(), "expands to more than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseYAML([]byte(tc.in))
			require.ErrorContains(t, err, tc.wantErr)
			_, err = Load([]byte(tc.in))
			require.ErrorContains(t, err, tc.wantErr)
			assert.True(t, strings.HasPrefix(err.Error(), "clientcmd: kubeconfig: yaml: "), err.Error())
		})
	}
}

// aliasBomb is seven levels of ten aliases each: 10^7 nodes from a few hundred bytes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 7; i++ {
		b.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [")
		b.WriteString(strings.TrimSuffix(strings.Repeat("*l"+string(rune('0'+i-1))+", ", 10), ", "))
		b.WriteString("]\n")
	}
	return b.String()
}

// WriteToFile writes what Write gives, readable by the owner only, and Load reads it back.
func TestCh02_KubeconfigWriteToFile(t *testing.T) {
	cfg := &api.Config{CurrentContext: "c",
		Clusters:  []api.NamedCluster{{Name: "k", Cluster: api.Cluster{Server: "https://h:6443", CertificateAuthorityData: []byte("PEM")}}},
		AuthInfos: []api.NamedAuthInfo{{Name: "u", AuthInfo: api.AuthInfo{Token: "yes"}}},
		Contexts:  []api.NamedContext{{Name: "c", Context: api.Context{Cluster: "k", AuthInfo: "u"}}}}
	path := filepath.Join(t.TempDir(), "config")
	require.NoError(t, WriteToFile(cfg, path))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), `token: "yes"`, "a word YAML 1.1 reads as a boolean is quoted")
	got, err := Load(data)
	require.NoError(t, err)
	want := *cfg
	want.Kind, want.APIVersion = "Config", "v1"
	assert.Empty(t, kubeconfigDiff(&want, got))

	require.ErrorContains(t, WriteToFile(cfg, filepath.Join(t.TempDir(), "missing", "config")), "clientcmd: writing kubeconfig")
}

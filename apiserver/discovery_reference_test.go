package apiserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/sha256sums"
)

// referenceDir holds the aggregated discovery documents of a real kube-apiserver v1.36.3
// with default flags, captured by the conformance suite (make discovery-reference).
const referenceDir = "testdata/reference"

// readReference reads one captured document after checking it against SHA256SUMS, so that
// a hand edit of the oracle fails here rather than passing as agreement.
func readReference(t *testing.T, name string) map[string]any {
	t.Helper()
	sums, err := os.ReadFile(filepath.Join(referenceDir, "SHA256SUMS"))
	require.NoError(t, err)
	want, err := sha256sums.Parse(sums)
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(referenceDir, name))
	require.NoError(t, err)
	require.Equal(t, want[name], sha256sums.Sum(data), "%s does not match SHA256SUMS: recapture it with make discovery-reference", name)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	return doc
}

// discoveredResources flattens an aggregated discovery document into one entry per
// group/version/resource: everything kubectl api-resources and a RESTMapper read.
func discoveredResources(doc map[string]any) map[string]any {
	out := map[string]any{}
	items, _ := doc["items"].([]any)
	for _, it := range items {
		g, _ := it.(map[string]any)
		name, _ := g["metadata"].(map[string]any)["name"].(string)
		versions, _ := g["versions"].([]any)
		for _, v := range versions {
			vm, _ := v.(map[string]any)
			resources, _ := vm["resources"].([]any)
			for _, r := range resources {
				rm, _ := r.(map[string]any)
				out[name+"/"+vm["version"].(string)+"/"+rm["resource"].(string)] = rm
			}
		}
	}
	return out
}

// groupOrder lists each document's groups with their versions, in document order: the order
// is the real server's preference (kubectl and RESTMappers take the first version).
func groupOrder(doc map[string]any) []string {
	var out []string
	items, _ := doc["items"].([]any)
	for _, it := range items {
		g, _ := it.(map[string]any)
		name, _ := g["metadata"].(map[string]any)["name"].(string)
		versions, _ := g["versions"].([]any)
		for _, v := range versions {
			out = append(out, name+"/"+v.(map[string]any)["version"].(string))
		}
	}
	return out
}

// TestCh01_DiscoveryMatchesReference pins K4/K5 against the real server: the same resource
// types (names, singular names, kinds, scopes, verbs, short names, categories and
// subresources) under the same group-versions, in the same order.
func TestCh01_DiscoveryMatchesReference(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, name := range []string{"api.json", "apis.json"} {
		t.Run(name, func(t *testing.T) {
			want := readReference(t, name)
			path := "/" + name[:len(name)-len(".json")]
			r := c.do("GET", path, nil, "Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
			require.Equal(t, 200, r.code)
			var got map[string]any
			require.NoError(t, json.Unmarshal(r.body, &got))
			assert.Equal(t, groupOrder(want), groupOrder(got), "group-versions in preference order")
			wantRes, gotRes := discoveredResources(want), discoveredResources(got)
			for id, w := range wantRes {
				g, ok := gotRes[id]
				if !assert.True(t, ok, "%s is not served", id) {
					continue
				}
				if diff := cmp.Diff(w, g); diff != "" {
					t.Errorf("%s (-reference +simulator):\n%s", id, diff)
				}
			}
			for id := range gotRes {
				assert.Contains(t, wantRes, id, "%s is served, but not by the reference", id)
			}
		})
	}
}

// TestCh01_LegacyDiscoveryMatchesReference pins K4 against the real server: each
// group-version's APIResourceList lists the same resources and subresources, with the same
// fields, in the same order.
func TestCh01_LegacyDiscoveryMatchesReference(t *testing.T) {
	_, c := newServer(t, Options{})
	files, err := filepath.Glob(filepath.Join(referenceDir, "api*__*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			want := readReference(t, name)
			path := "/" + strings.ReplaceAll(strings.TrimSuffix(name, ".json"), "__", "/")
			r := c.get(path)
			require.Equal(t, 200, r.code, path)
			var got map[string]any
			require.NoError(t, json.Unmarshal(r.body, &got))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-reference +simulator):\n%s", path, diff)
			}
		})
	}
}

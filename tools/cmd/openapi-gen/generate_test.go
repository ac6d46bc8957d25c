package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	genericfeatures "k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
)

// dataDir is where make schemas writes the documents, seen from this package's directory.
const dataDir = "../../../apiserver/internal/schema/openapi"

func TestCh01_GenerateIsReproducible(t *testing.T) {
	first, err := generate()
	require.NoError(t, err)
	second, err := generate()
	require.NoError(t, err)
	require.Equal(t, len(first), len(second))
	for name, data := range first {
		assert.True(t, bytes.Equal(data, second[name]), "%s differs between two runs", name)
	}
}

// TestCh01_CommittedSchemasAreCurrent: the files the main module embeds are what the
// generator writes now, so nobody edits them by hand and a version bump in go.mod is
// followed by make schemas.
func TestCh01_CommittedSchemasAreCurrent(t *testing.T) {
	files, err := generate()
	require.NoError(t, err)
	onDisk, err := filepath.Glob(filepath.Join(dataDir, "*"))
	require.NoError(t, err)
	var names []string
	for _, p := range onDisk {
		names = append(names, filepath.Base(p))
	}
	var want []string
	for n := range files {
		want = append(want, n)
	}
	sort.Strings(want)
	require.Equal(t, want, names, "the files in %s", dataDir)
	for name, data := range files {
		got, err := os.ReadFile(filepath.Join(dataDir, name))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got), "%s is stale: run make schemas", name)
	}
}

// TestCh01_SchemasMatchPublishedDocuments compares every generated document's
// components.schemas, definition by definition, with the documents the Kubernetes
// repository publishes under api/openapi-spec/v3 for the same release. Those were taken
// from a running kube-apiserver with the OpenAPIEnums gate off, so the comparison turns
// it off too; with the gate on (the default, and what we ship) the only difference is
// that enum lists and their "Possible enum values" text stay in.
func TestCh01_SchemasMatchPublishedDocuments(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
	require.NoError(t, err, "locating the k8s.io/kubernetes module")
	published := filepath.Join(strings.TrimSpace(string(out)), "api", "openapi-spec", "v3")

	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, genericfeatures.OpenAPIEnums, false)
	files, err := generate()
	require.NoError(t, err)

	for _, gv := range groupVersions {
		t.Run(gv.path, func(t *testing.T) {
			real, err := os.ReadFile(filepath.Join(published, strings.TrimSuffix(gv.fileName(), ".json")+"_openapi.json"))
			require.NoError(t, err)
			want := schemasOf(t, real)
			got := schemasOf(t, files[gv.fileName()])
			assert.Equal(t, sortedKeys(want), sortedKeys(got), "definition names")
			for name, w := range want {
				if g, ok := got[name]; ok {
					if diff := cmp.Diff(w, g); diff != "" {
						t.Errorf("%s (-published +generated):\n%s", name, diff)
					}
				}
			}
		})
	}
}

func schemasOf(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	var d struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(doc, &d))
	return d.Components.Schemas
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestCh01_FileNames(t *testing.T) {
	tests := []struct{ path, want string }{
		{"api/v1", "api__v1.json"},
		{"apis/apps/v1", "apis__apps__v1.json"},
		{"apis/coordination.k8s.io/v1", "apis__coordination.k8s.io__v1.json"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, groupVersion{path: tt.path}.fileName())
	}
}

// TestCh01_SwaggerOnlyMatchesPublishedSwagger compares every definition of swaggerOnlyFile
// with the same definition of the /openapi/v2 document the Kubernetes repository publishes
// for the release (api/openapi-spec/swagger.json), after dropping the defaults that
// kube-apiserver prunes from /openapi/v2 as the simulated apiserver does.
func TestCh01_SwaggerOnlyMatchesPublishedSwagger(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
	require.NoError(t, err, "locating the k8s.io/kubernetes module")
	real, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "api", "openapi-spec", "swagger.json"))
	require.NoError(t, err)
	files, err := generate()
	require.NoError(t, err)
	var published, generated struct {
		Definitions map[string]any `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(real, &published))
	require.NoError(t, json.Unmarshal(files[swaggerOnlyFile], &generated))
	require.Len(t, generated.Definitions, 10, "the roots and the discovery types they reference")
	for name, g := range generated.Definitions {
		want, ok := published.Definitions[name]
		if !assert.True(t, ok, "%s is not in the published swagger.json", name) {
			continue
		}
		if diff := cmp.Diff(want, withoutDefaults(g)); diff != "" {
			t.Errorf("%s (-published +generated):\n%s", name, diff)
		}
	}
}

// withoutDefaults drops the default keyword of every schema in s (a property named
// "default" stays).
func withoutDefaults(s any) any {
	m, ok := s.(map[string]any)
	if !ok {
		if l, ok := s.([]any); ok {
			out := make([]any, len(l))
			for i, v := range l {
				out[i] = withoutDefaults(v)
			}
			return out
		}
		return s
	}
	out := map[string]any{}
	for k, v := range m {
		switch k {
		case "default":
		case "properties":
			props := map[string]any{}
			for p, ps := range v.(map[string]any) {
				props[p] = withoutDefaults(ps)
			}
			out[k] = props
		default:
			out[k] = withoutDefaults(v)
		}
	}
	return out
}

// TestCh01_IndexLocatesEachDefinition: every line of a document's index names a
// definition whose value is the bytes at its offset and length, with the kinds it
// declares; and every definition has its line.
func TestCh01_IndexLocatesEachDefinition(t *testing.T) {
	files, err := generate()
	require.NoError(t, err)
	for _, gv := range groupVersions {
		doc, idx := files[gv.fileName()], files[indexName(gv.fileName())]
		require.NotEmpty(t, idx, gv.path)
		var parsed struct {
			Components struct {
				Schemas map[string]json.RawMessage `json:"schemas"`
			} `json:"components"`
		}
		require.NoError(t, json.Unmarshal(doc, &parsed), gv.path)
		seen := 0
		for _, line := range strings.Split(strings.TrimSuffix(string(idx), "\n"), "\n")[1:] {
			fields := strings.Fields(line)
			require.GreaterOrEqual(t, len(fields), 3, line)
			off, err := strconv.Atoi(fields[0])
			require.NoError(t, err, line)
			n, err := strconv.Atoi(fields[1])
			require.NoError(t, err, line)
			want, ok := parsed.Components.Schemas[fields[2]]
			require.True(t, ok, line)
			assert.Equal(t, string(want), string(doc[off:off+n]), line)
			var kinds struct {
				GVKs []struct{ Group, Version, Kind string } `json:"x-kubernetes-group-version-kind"`
			}
			require.NoError(t, json.Unmarshal(want, &kinds))
			var wantKinds []string
			for _, g := range kinds.GVKs {
				wantKinds = append(wantKinds, g.Group+"/"+g.Version+"/"+g.Kind)
			}
			assert.Equal(t, strings.Join(wantKinds, " "), strings.Join(fields[3:], " "), line)
			seen++
		}
		assert.Equal(t, len(parsed.Components.Schemas), seen, gv.path)
	}
}

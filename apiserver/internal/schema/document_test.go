package schema

import (
	"encoding/json"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_SchemaLazyReadingMatchesEncodingJSON holds the lazy reading of every embedded
// document to what encoding/json reads from it: each document is valid as a whole
// (ParseDefinitions, which the start-up path skips); each definition decodes to the same
// rawSchema as json.Unmarshal gives; and each kind resolves to the definition the eager
// reading chose (the one named after the kind, else the only one).
func TestCh01_SchemaLazyReadingMatchesEncodingJSON(t *testing.T) {
	for _, path := range Paths() {
		t.Run(path, func(t *testing.T) {
			data, ok := Document(path)
			require.True(t, ok)
			d, err := ParseDefinitions(data)
			require.NoError(t, err)

			var doc struct {
				Components struct {
					Schemas map[string]json.RawMessage `json:"schemas"`
				} `json:"components"`
			}
			require.NoError(t, json.Unmarshal(data, &doc))
			require.Len(t, d.c.spans, len(doc.Components.Schemas))
			names := make([]string, 0, len(doc.Components.Schemas))
			for name, rawJSON := range doc.Components.Schemas {
				names = append(names, name)
				var want *rawSchema
				require.NoError(t, json.Unmarshal(rawJSON, &want), name)
				assert.Empty(t, cmp.Diff(want, d.c.raw(name)), name)
			}

			sort.Strings(names)
			wantKinds := map[api.GroupVersionKind]string{}
			for _, name := range names {
				s, ok := d.Definition(name)
				require.True(t, ok, name)
				for _, gvk := range s.GVKs {
					if _, dup := wantKinds[gvk]; !dup || ownsKind(name, gvk) {
						wantKinds[gvk] = name
					}
				}
			}
			assert.Len(t, d.kinds, len(wantKinds))
			for gvk, name := range wantKinds {
				got, ok := d.ForKind(gvk)
				require.True(t, ok, gvk)
				want, _ := d.Definition(name)
				assert.Same(t, want, got, gvk)
			}
		})
	}
}

// TestCh01_SchemaIndexesMatchTheDocuments: the index beside each embedded document says
// what a scan of the document finds (every definition at its place, every kind at its
// definition), and the definitions read through it are the ones read from the document.
func TestCh01_SchemaIndexesMatchTheDocuments(t *testing.T) {
	for _, path := range Paths() {
		t.Run(path, func(t *testing.T) {
			name, ok := documentFile(path)
			require.True(t, ok)
			idx, err := openAPIFiles.ReadFile(strings.TrimSuffix(name, jsonSuffix) + indexSuffix)
			require.NoError(t, err, "the index of %s", name)
			data, _ := Document(path)
			scanned, err := indexDefinitions(data)
			require.NoError(t, err)
			indexed, err := parseIndex(idx, func(at span) []byte { return data[at.off : at.off+at.n] })
			require.NoError(t, err)
			assert.Equal(t, scanned.c.spans, indexed.c.spans)
			assert.Equal(t, kindNames(scanned), kindNames(indexed))

			f, err := openAPIFiles.Open(name)
			require.NoError(t, err)
			_, ok = f.(io.ReaderAt)
			require.True(t, ok, "an embedded file reads at an offset, so the index is used")
			opened := openDocument(openAPIFiles, name)
			require.NotNil(t, opened)
			assert.Equal(t, scanned.c.spans, opened.c.spans, "read through the index")
			for def := range scanned.c.spans {
				assert.Empty(t, cmp.Diff(scanned.c.raw(def), opened.c.raw(def)), def)
			}
		})
	}
}

// kindNames is the definition name of each kind of d.
func kindNames(d *Definitions) map[api.GroupVersionKind]string {
	out := map[api.GroupVersionKind]string{}
	for gvk, k := range d.kinds {
		out[gvk] = k.name
	}
	return out
}

// TestCh01_SchemaDocumentWithoutUsableIndex: a document whose index is missing or
// malformed is read whole and scanned instead, with the same result.
func TestCh01_SchemaDocumentWithoutUsableIndex(t *testing.T) {
	doc := []byte(testDocument)
	want, err := indexDefinitions(doc)
	require.NoError(t, err)
	for _, tc := range []struct{ name, index string }{
		{"no index", ""},
		{"bad offset", "x 10 io.example.v1.Widget\n"},
		{"no name", "1 2\n"},
		{"bad kind", "1 2 io.example.v1.Widget example.dev/Widget\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := fstest.MapFS{"d/a.json": {Data: doc}}
			if tc.index != "" {
				files["d/a.index"] = &fstest.MapFile{Data: []byte(tc.index)}
			}
			d := openDocument(files, "d/a.json")
			require.NotNil(t, d)
			assert.Equal(t, want.c.spans, d.c.spans)
			w, ok := d.ForKind(widgetGVK)
			require.True(t, ok)
			assert.Equal(t, "io.example.v1.Widget", w.Name)
		})
	}
	assert.Nil(t, openDocument(fstest.MapFS{}, "d/a.json"), "no document")
}

// TestCh01_SchemaDecodeRawMatchesEncodingJSON covers what the embedded documents do not
// hold: escapes, nulls, whitespace and keyword values of every shape.
func TestCh01_SchemaDecodeRawMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"empty", `{}`},
		{"whitespace", " \n\t{ \"type\" :\r\n \"string\" , \"format\":\"byte\" } "},
		{"escaped key", `{"\u0024ref":"#/components/schemas/a.B"}`},
		{"escaped quote and backslash", `{"description":"say \"hi\" \\","type":"str\\\"ing","format":"a\\\\"}`},
		{"unicode escape in a name", `{"properties":{"caf\u00e9":{"type":"string"},"x\"y":{"type":"integer"}}}`},
		{"nulls", `{"$ref":null,"type":null,"properties":null,"required":null,"items":null,"allOf":null,
			"oneOf":[null,{"type":"string"}],"additionalProperties":null,"x-kubernetes-preserve-unknown-fields":null,
			"x-kubernetes-group-version-kind":[null,{"group":null,"kind":"K","version":"v1"}]}`},
		{"null property", `{"properties":{"a":null,"b":{"type":"boolean"}}}`},
		{"bools", `{"x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-int-or-string":false}`},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string","format":"x"}}`},
		{"additionalProperties bool", `{"type":"object","additionalProperties":false}`},
		{"nested", `{"type":"array","items":{"type":"array","items":{"allOf":[{"$ref":"#/components/schemas/a"}],"default":{"k":[1,2,{"x":"]}"}]}}}}`},
		{"unknown keywords of every shape", `{"default":[{"a":["}",{"b":"{"}]}],"example":-1.5e3,"nullable":true,"enum":["a","b"],"type":"number"}`},
		{"required", `{"required":["a","b\u0041"]}`},
		{"anyOf", `{"anyOf":[{"type":"integer"},{"type":"string"}]}`},
		{"gvks", `{"x-kubernetes-group-version-kind":[{"group":"g","kind":"K","version":"v1","extra":[1]}]}`},
		{"empty containers", `{"properties":{},"required":[],"allOf":[],"x-kubernetes-group-version-kind":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want *rawSchema
			require.NoError(t, json.Unmarshal([]byte(tc.in), &want))
			got, end, err := decodeRaw([]byte(tc.in), 0)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(want, got))
			assert.Equal(t, len(tc.in), skipSpace([]byte(tc.in), end), "the index past the object")
		})
	}
}

// TestCh01_SchemaReadingRefusesMalformedText: every prefix of a document, and text with
// stray bytes, is an error from ParseDefinitions and never a panic or a hang on the
// unchecked path.
func TestCh01_SchemaReadingRefusesMalformedText(t *testing.T) {
	for n := range len(testDocument) {
		prefix := []byte(testDocument[:n])
		_, err := ParseDefinitions(prefix)
		require.Error(t, err, "prefix of %d bytes", n)
		if d, err := indexDefinitions(prefix); err == nil {
			for name := range d.c.spans {
				_, _ = d.Definition(name) // a definition that does not decode reads as absent
			}
		}
	}
	for _, in := range []string{`[]`, `{"components":[]}`, `{"components":{"schemas":{"a":{"type":1}}}}`,
		`{"components":{"schemas":{"a":{"x-kubernetes-int-or-string":"yes"}}}}`, `{"components":{"schemas":{"a" {}}}}`} {
		_, err := ParseDefinitions([]byte(in))
		assert.Error(t, err, in)
	}
	d, err := ParseDefinitions([]byte(`{"openapi":"3.0.0","components":{"schemas":{"a.B":null}}}`))
	require.NoError(t, err)
	b, ok := d.Definition("a.B")
	require.True(t, ok)
	assert.Equal(t, KindAny, b.Kind, "a null definition accepts anything, as before")
}

// TestCh01_SchemaLazyResolutionConcurrent resolves many kinds of one fresh document at
// once: under -race this checks that a node is complete before any caller sees it, and
// that every caller of one kind gets the same node.
func TestCh01_SchemaLazyResolutionConcurrent(t *testing.T) {
	data, ok := Document("api/v1")
	require.True(t, ok)
	d, err := indexDefinitions(data)
	require.NoError(t, err)
	kinds := []string{"Pod", "Service", "Namespace", "Node", "ConfigMap", "PersistentVolume", "Endpoints", "Secret"}
	got := make([]*Schema, 4*len(kinds))
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, ok := d.ForKind(api.GroupVersionKind{Version: "v1", Kind: kinds[i%len(kinds)]})
			if ok {
				walk(s, map[*Schema]bool{})
			}
			got[i] = s
		}()
	}
	wg.Wait()
	for i, s := range got {
		require.NotNil(t, s, kinds[i%len(kinds)])
		assert.Equal(t, "io.k8s.api.core.v1."+kinds[i%len(kinds)], s.Name)
		assert.Same(t, got[i%len(kinds)], s)
	}
	meta := got[0].Properties["metadata"].Schema
	for _, s := range got[1:len(kinds)] {
		assert.Same(t, meta, s.Properties["metadata"].Schema, "ObjectMeta is one node whichever kind resolved it")
	}
}

// walk reads every node reachable from s.
func walk(s *Schema, seen map[*Schema]bool) int {
	if s == nil || seen[s] {
		return 0
	}
	seen[s] = true
	n := 1 + len(s.Name) + len(s.Format) + len(s.Required) + len(s.GVKs)
	for _, p := range s.Properties {
		n += walk(p.Schema, seen)
	}
	return n + walk(s.Items, seen) + walk(s.Values, seen)
}

// BenchmarkFirstUse is what a kind's first lookup costs in a fresh process: opening its
// embedded document through the index, then resolving the kind (Pod resolves much of
// core/v1; Namespace little). "scan" is the same without the index: the whole document
// copied out of the binary and scanned.
func BenchmarkFirstUse(b *testing.B) {
	for _, tc := range []struct{ path, kind string }{{"api/v1", "Namespace"}, {"api/v1", "Pod"}, {"apis/apps/v1", "Deployment"}} {
		name, _ := documentFile(tc.path)
		gv, _ := groupVersionOf(tc.path)
		gvk := api.GroupVersionKind{Version: gv, Kind: tc.kind}
		if g, v, ok := strings.Cut(gv, "/"); ok {
			gvk.Group, gvk.Version = g, v
		}
		for _, via := range []string{"index", "scan"} {
			files := fs.FS(openAPIFiles)
			if via == "scan" {
				files = withoutIndexes{openAPIFiles}
			}
			b.Run(tc.path+"/"+tc.kind+"/"+via, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, ok := openDocument(files, name).ForKind(gvk); !ok {
						b.Fatal(gvk)
					}
				}
			})
		}
	}
}

// withoutIndexes hides the indexes of the embedded documents.
type withoutIndexes struct{ fs.FS }

func (w withoutIndexes) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, indexSuffix) {
		return nil, fs.ErrNotExist
	}
	return w.FS.Open(name)
}

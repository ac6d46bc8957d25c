package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// indexSuffix names a document's index, written beside it: api__v1.index for
// api__v1.json (the main module's apiserver/internal/schema/index.go reads it).
const indexSuffix = ".index"

// indexName is the index file of document file name.
func indexName(name string) string { return strings.TrimSuffix(name, ".json") + indexSuffix }

// indexWriter builds a document's index while encodeDocument writes the document: a line
// per definition, in document order, with the byte offset and length of its value in the
// document, its name, and the kinds it declares (group/version/kind, the core group
// empty). The server reads a definition's bytes only when a request first needs it.
type indexWriter struct{ buf bytes.Buffer }

func newIndexWriter(file string) *indexWriter {
	w := &indexWriter{}
	fmt.Fprintf(&w.buf, "# %s: offset length definition group/version/kind...\n", file)
	return w
}

// add indexes definition name, whose canonical JSON body is at offset off.
func (w *indexWriter) add(name string, off int, body []byte) error {
	if name == "" || strings.ContainsAny(name, " \n") {
		return fmt.Errorf("definition name %q cannot be indexed", name)
	}
	var kinds struct {
		GVKs []struct{ Group, Version, Kind string } `json:"x-kubernetes-group-version-kind"`
	}
	if err := json.Unmarshal(body, &kinds); err != nil {
		return err
	}
	fmt.Fprintf(&w.buf, "%d %d %s", off, len(body), name)
	for _, g := range kinds.GVKs {
		if strings.ContainsAny(g.Group+g.Version+g.Kind, " /\n") || g.Version == "" || g.Kind == "" {
			return fmt.Errorf("%s: kind %+v cannot be indexed", name, g)
		}
		fmt.Fprintf(&w.buf, " %s/%s/%s", g.Group, g.Version, g.Kind)
	}
	w.buf.WriteByte('\n')
	return nil
}

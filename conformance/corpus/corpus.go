// Package corpus loads the conformance corpus: manifests nobody in the project wrote, read from
// pinned module versions in the Go module cache (fetched with go mod download, never copied
// into the repository).
//
//  1. Sources lists each module at its pinned version and the directories used.
//  2. Load downloads each module (go mod download -json), walks its directories, splits
//     multi-document YAML and JSON, expands v1 Lists, and returns one Doc per object.
//  3. Files that are templates (Helm) or do not parse, and documents without kind and
//     apiVersion, are counted in Stats, never silently dropped.
package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Source is one module at a pinned version and the directories of it the corpus reads.
type Source struct {
	Module, Version string
	Dirs            []string
}

// Sources are the pinned corpus modules. cert-manager's module has no example objects, only
// CRDs (deploy/crds); its Helm chart templates are not YAML and are skipped.
var Sources = []Source{
	{"k8s.io/kubernetes", "v1.36.3", []string{"test/e2e/testing-manifests", "test/fixtures", "hack/testdata"}},
	{"k8s.io/kubectl", "v0.36.3", []string{"testdata"}},
	{"k8s.io/sample-controller", "v0.36.3", []string{"artifacts"}},
	{"github.com/prometheus-operator/prometheus-operator", "v0.85.0", []string{"example"}},
	{"github.com/cert-manager/cert-manager", "v1.21.2", []string{"deploy/crds", "deploy/manifests"}},
}

// Doc is one object of the corpus.
type Doc struct {
	// Source is module@version/path, plus #n for the n-th document of a file.
	Source string
	Object map[string]any
}

// APIVersion and Kind of the object.
func (d Doc) APIVersion() string { s, _ := d.Object["apiVersion"].(string); return s }

// Kind of the object.
func (d Doc) Kind() string { s, _ := d.Object["kind"].(string); return s }

// Stats count what Load read and skipped.
type Stats struct {
	Files, Docs            int
	SkippedTemplates       int
	SkippedUnparsable      int
	SkippedNoKind          int
	PerSource              map[string]int
	UnparsableFileExamples []string
}

// Load reads every source.
func Load(sources []Source) ([]Doc, Stats, error) {
	st := Stats{PerSource: map[string]int{}}
	var docs []Doc
	for _, s := range sources {
		dir, err := download(s.Module, s.Version)
		if err != nil {
			return nil, st, err
		}
		for _, sub := range s.Dirs {
			root := filepath.Join(dir, sub)
			if _, err := os.Stat(root); err != nil {
				continue
			}
			more, err := loadFiles(dir, root, s.Module+"@"+s.Version, s.Module, &st)
			if err != nil {
				return nil, st, err
			}
			docs = append(docs, more...)
		}
	}
	return docs, st, nil
}

// Local is a directory of this repository that the corpus reads besides the modules: the
// apiserver's round-trip manifests, one realistic object of every kind it serves.
type Local struct {
	Label string // the Source prefix of its documents, e.g. "roundtrip"
	Dir   string
}

// LoadLocal reads a Local directory as Load reads a module's.
func LoadLocal(l Local, st *Stats) ([]Doc, error) {
	if st.PerSource == nil {
		st.PerSource = map[string]int{}
	}
	if _, err := os.Stat(l.Dir); err != nil {
		return nil, err
	}
	return loadFiles(l.Dir, l.Dir, l.Label, l.Label, st)
}

// loadFiles reads every YAML and JSON file under root; a document's Source is prefix, its
// path relative to dir, and #n for the n-th of a file.
func loadFiles(dir, root, prefix, counter string, st *Stats) ([]Doc, error) {
	var docs []Doc
	var files []string
	_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			ext := strings.ToLower(filepath.Ext(p))
			if ext == ".yaml" || ext == ".yml" || ext == ".json" {
				files = append(files, p)
			}
		}
		return nil
	})
	sort.Strings(files)
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		name := prefix + "/" + filepath.ToSlash(rel)
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		st.Files++
		if bytes.Contains(b, []byte("{{")) {
			st.SkippedTemplates++
			continue
		}
		objs, err := Split(b)
		if err != nil {
			st.SkippedUnparsable++
			if len(st.UnparsableFileExamples) < 10 {
				st.UnparsableFileExamples = append(st.UnparsableFileExamples, name)
			}
			continue
		}
		for i, o := range objs {
			if o["kind"] == nil || o["apiVersion"] == nil {
				st.SkippedNoKind++
				continue
			}
			src := name
			if len(objs) > 1 {
				src += "#" + strconv.Itoa(i)
			}
			docs = append(docs, Doc{Source: src, Object: o})
			st.Docs++
			st.PerSource[counter]++
		}
	}
	return docs, nil
}

// Split parses a multi-document YAML (or JSON) file into objects, expanding kind List.
func Split(b []byte) ([]map[string]any, error) {
	var out []map[string]any
	for _, part := range splitDocuments(b) {
		if len(bytes.TrimSpace(part)) == 0 {
			continue
		}
		j, err := yaml.YAMLToJSON(part)
		if err != nil {
			return nil, err
		}
		var v any
		if err := json.Unmarshal(j, &v); err != nil {
			return nil, err
		}
		m, ok := v.(map[string]any)
		if !ok {
			if v == nil {
				continue
			}
			return nil, fmt.Errorf("document is not an object")
		}
		if k, _ := m["kind"].(string); strings.HasSuffix(k, "List") && m["items"] != nil && m["apiVersion"] == "v1" {
			items, _ := m["items"].([]any)
			for _, it := range items {
				if im, ok := it.(map[string]any); ok {
					out = append(out, im)
				}
			}
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// splitDocuments cuts a YAML stream at lines that are exactly "---" (optionally followed by
// a comment or spaces).
func splitDocuments(b []byte) [][]byte {
	var parts [][]byte
	var cur bytes.Buffer
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		t := bytes.TrimRight(line, " \t\r\n")
		if bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- #")) {
			parts = append(parts, append([]byte(nil), cur.Bytes()...))
			cur.Reset()
			continue
		}
		cur.Write(line)
	}
	parts = append(parts, cur.Bytes())
	return parts
}

// download runs go mod download -json and returns the module's directory.
func download(module, version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	_ = json.Unmarshal(out, &info)
	if err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %v %s", module, version, err, info.Error)
	}
	return info.Dir, nil
}

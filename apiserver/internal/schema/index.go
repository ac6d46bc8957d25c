package schema

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"strings"
)

// Each embedded document has an index beside it, written with it by tools/cmd/openapi-gen
// (make schemas) and pinned with it by SHA256SUMS: api__v1.index for api__v1.json. A
// line per definition, in document order, gives where the definition's value is in the
// document (byte offset and length), its name, and the kinds its
// x-kubernetes-group-version-kind declares as group/version/kind (the core group empty):
//
//	412 9581 io.k8s.api.core.v1.Pod /v1/Pod
//
// Lines starting with # are comments. With the index, a document's first use reads a few
// kilobytes and each definition's bytes when it is first resolved, instead of copying the
// whole document out of the binary and scanning it; the test of this package checks that
// every index says what a scan of its document finds.

// indexSuffix names a document's index: the document's name with it instead of ".json".
const indexSuffix = ".index"

var errIndex = errors.New("openapi index: malformed line")

// openDocument reads the embedded document file name (openapi/api__v1.json) of files
// lazily: from its index, reading each definition from the file when first resolved; or,
// without a usable index, by reading the whole file and scanning it. It is nil when the
// file cannot be read or scanned.
func openDocument(files fs.FS, name string) *Definitions {
	if idx, err := fs.ReadFile(files, strings.TrimSuffix(name, jsonSuffix)+indexSuffix); err == nil {
		if f, err := files.Open(name); err == nil {
			if ra, ok := f.(io.ReaderAt); ok {
				if d, err := parseIndex(idx, readAt(ra)); err == nil {
					return d
				}
			}
			_ = f.Close()
		}
	}
	data, err := fs.ReadFile(files, name)
	if err != nil {
		return nil
	}
	d, err := indexDefinitions(data)
	if err != nil {
		return nil
	}
	return d
}

// readAt reads a span of a file, nil when the file does not hold it.
func readAt(ra io.ReaderAt) func(span) []byte {
	return func(at span) []byte {
		b := make([]byte, at.n)
		if n, err := ra.ReadAt(b, int64(at.off)); n != at.n || (err != nil && err != io.EOF) {
			return nil
		}
		return b
	}
}

// parseIndex reads an index whose definitions read reads.
func parseIndex(idx []byte, read func(span) []byte) (*Definitions, error) {
	d := newDefinitions(read, bytes.Count(idx, []byte{'\n'}))
	for len(idx) > 0 {
		var line []byte
		line, idx, _ = bytes.Cut(idx, []byte{'\n'})
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var off, n, name []byte
		off, line, _ = bytes.Cut(line, []byte{' '})
		n, line, _ = bytes.Cut(line, []byte{' '})
		name, line, _ = bytes.Cut(line, []byte{' '})
		at := span{atoi(off), atoi(n)}
		if at.off < 0 || at.n <= 0 || len(name) == 0 {
			return nil, errIndex
		}
		var gvks []rawGVK
		for len(line) > 0 {
			var field, group, version, kind []byte
			field, line, _ = bytes.Cut(line, []byte{' '})
			group, rest, ok1 := bytes.Cut(field, []byte{'/'})
			version, kind, ok2 := bytes.Cut(rest, []byte{'/'})
			if !ok1 || !ok2 || len(version) == 0 || len(kind) == 0 {
				return nil, errIndex
			}
			gvks = append(gvks, rawGVK{Group: string(group), Version: string(version), Kind: string(kind)})
		}
		d.add(string(name), at, gvks)
	}
	return d, nil
}

// atoi reads a decimal number of at most 9 digits, -1 when b is not one.
func atoi(b []byte) int {
	if len(b) == 0 || len(b) > 9 {
		return -1
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

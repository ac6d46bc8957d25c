// Command proto-gen writes the protobuf message descriptors of the kinds the simulated
// apiserver serves, as JSON data files for the main module's codec to embed: for each
// message its fields' JSON keys, proto numbers and kinds, and whether the generated
// Marshal of k8s.io/api writes a field always or only when set. It reads them by
// reflection from the struct tags of the k8s.io/api and k8s.io/apimachinery Go types at
// the versions pinned in tools/go.mod, and writes the same bytes on every run.
//
// Usage, from tools/:
//
//	go run ./cmd/proto-gen -out ../internal/builtinproto/descriptors
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	out := flag.String("out", "../internal/builtinproto/descriptors", "directory to write the descriptor files and SHA256SUMS into")
	flag.Parse()

	start := time.Now()
	files, err := generate()
	if err == nil {
		err = writeFiles(*out, files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "proto-gen:", err)
		os.Exit(1)
	}

	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("%9d  %s\n", len(files[n]), filepath.Join(*out, n))
	}
	fmt.Printf("generated %d files in %s\n", len(files), time.Since(start).Round(time.Millisecond))
}

// writeFiles makes dir hold exactly files among its *.json files and SHA256SUMS: the
// file of a package no longer generated is removed, so the directory the main module
// embeds never disagrees with SHA256SUMS.
func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	for _, path := range old {
		if _, keep := files[filepath.Base(path)]; !keep {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	for name, data := range files {
		if strings.ContainsRune(name, filepath.Separator) {
			return fmt.Errorf("file name %q is not a plain name", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

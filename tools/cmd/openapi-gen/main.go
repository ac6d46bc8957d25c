// Command openapi-gen writes the OpenAPI v3 documents that kube-apiserver v1.36 publishes
// for the group-versions the simulated apiserver serves, as data files for the main
// module to embed. It builds them from the Kubernetes sources (the generated OpenAPI
// definitions, kube-apiserver's definition namer and kube-openapi's v3 builder) at the
// versions pinned in tools/go.mod, and writes the same bytes on every run.
//
// Usage, from tools/:
//
//	go run ./cmd/openapi-gen -out ../apiserver/internal/schema/openapi
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
	out := flag.String("out", "../apiserver/internal/schema/openapi", "directory to write the documents and SHA256SUMS into")
	flag.Parse()

	start := time.Now()
	files, err := generate()
	if err == nil {
		err = writeFiles(*out, files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi-gen:", err)
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

// writeFiles makes dir hold exactly files among its *.json files and SHA256SUMS: stale
// documents of group-versions no longer generated are removed, so the directory the main
// module embeds never disagrees with SHA256SUMS.
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

package datafiles

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// SumsFile is the name of the digest list written beside the data files.
const SumsFile = "SHA256SUMS"

// SHA256Sums lists the digest of every file in sha256sum's format, in name order.
func SHA256Sums(files map[string][]byte) []byte {
	var buf bytes.Buffer
	for _, n := range sortedNames(files) {
		fmt.Fprintf(&buf, "%x  %s\n", sha256.Sum256(files[n]), n)
	}
	return buf.Bytes()
}

// Write makes dir hold exactly files among its *.json and *.index files and SHA256SUMS: the
// file of a document or package no longer generated is removed, so the directory the main
// module embeds never disagrees with SHA256SUMS.
func Write(dir string, files map[string][]byte) error {
	for name := range files {
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
			return fmt.Errorf("file name %q is not a plain name", name)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	indexes, err := filepath.Glob(filepath.Join(dir, "*.index"))
	if err != nil {
		return err
	}
	old = append(old, indexes...)
	for _, path := range old {
		if _, keep := files[filepath.Base(path)]; !keep {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Main runs a generator as a command: name prefixes its errors, defaultOut is the -out
// directory the main module embeds, what says what goes there (for -h), and generate builds
// the files, SHA256SUMS among them.
func Main(name, defaultOut, what string, generate func() (map[string][]byte, error)) {
	out := flag.String("out", defaultOut, "directory to write "+what+" and SHA256SUMS into")
	flag.Parse()
	if err := run(*out, generate, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

// run generates the files, writes them into out and reports them on w.
func run(out string, generate func() (map[string][]byte, error), w io.Writer) error {
	start := time.Now()
	files, err := generate()
	if err != nil {
		return err
	}
	if err := Write(out, files); err != nil {
		return err
	}
	for _, n := range sortedNames(files) {
		fmt.Fprintf(w, "%9d  %s\n", len(files[n]), filepath.Join(out, n))
	}
	fmt.Fprintf(w, "generated %d files in %s\n", len(files), time.Since(start).Round(time.Millisecond))
	return nil
}

func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

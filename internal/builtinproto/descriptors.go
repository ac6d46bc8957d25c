package builtinproto

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// descriptorFiles holds one JSON descriptor per proto package (descriptors/k8s.io.api.core.v1.json
// describes package k8s.io.api.core.v1): every message reachable from the served kinds, with
// each field's JSON key, proto number and kind, in field-number order. tools/cmd/proto-gen
// writes them and descriptors/SHA256SUMS from the k8s.io/api and k8s.io/apimachinery Go types
// (make protos); descriptors_digest_test.go checks them against it. tools/README.md documents
// the format.
//
//go:embed descriptors/*.json
var descriptorFiles embed.FS

const (
	descriptorDir    = "descriptors"
	descriptorSuffix = ".json"
)

// Descriptor returns the embedded descriptor file of a proto package, such as
// "k8s.io.api.core.v1" or "k8s.io.apimachinery.pkg.apis.meta.v1"; ok is false for a package
// we have no descriptor of. The bytes are a fresh copy on every call: parse them once.
func Descriptor(protoPackage string) (data []byte, ok bool) {
	if protoPackage == "" || strings.ContainsAny(protoPackage, "/\\") {
		return nil, false
	}
	name := descriptorDir + "/" + protoPackage + descriptorSuffix
	if !fs.ValidPath(name) {
		return nil, false
	}
	data, err := descriptorFiles.ReadFile(name)
	if err != nil {
		return nil, false
	}
	return data, true
}

// Packages returns the proto packages Descriptor answers, sorted.
func Packages() []string {
	entries, err := descriptorFiles.ReadDir(descriptorDir)
	if err != nil {
		// The embed pattern guarantees the directory exists; a build without it fails.
		return nil
	}
	var pkgs []string
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, descriptorSuffix) {
			pkgs = append(pkgs, strings.TrimSuffix(name, descriptorSuffix))
		}
	}
	sort.Strings(pkgs)
	return pkgs
}

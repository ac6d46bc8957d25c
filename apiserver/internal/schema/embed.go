package schema

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// openAPIFiles holds the OpenAPI v3 documents kube-apiserver v1.36 publishes for the
// group-versions we serve, one file per document named after its URL path with "/"
// spelled "__" (openapi/apis__apps__v1.json is /openapi/v3/apis/apps/v1). Each holds
// components.schemas only, with empty paths. tools/cmd/openapi-gen writes them and
// openapi/SHA256SUMS (make schemas); the test of this package checks them against it.
//
//go:embed openapi/*.json
var openAPIFiles embed.FS

const (
	openAPIDir = "openapi"
	jsonSuffix = ".json"
)

// Document mirrors the per-group-version lookup of OpenAPIService.HandleGroupVersion in
// k8s.io/kube-openapi pkg/handler3/handler.go: it returns the embedded document of a
// group-version by its path under /openapi/v3, "api/v1" or "apis/apps/v1", without a
// leading slash; ok is false for a path we have no document of. The document has no
// paths: the server adds its own operations. The bytes are a fresh copy on every call,
// so cache them rather than call Document per request.
func Document(path string) (doc []byte, ok bool) {
	if path == "" || strings.Contains(path, "__") {
		return nil, false
	}
	name := openAPIDir + "/" + strings.ReplaceAll(path, "/", "__") + jsonSuffix
	if !fs.ValidPath(name) {
		return nil, false
	}
	doc, err := openAPIFiles.ReadFile(name)
	if err != nil {
		return nil, false
	}
	return doc, true
}

// Paths mirrors the keys of the index OpenAPIService.HandleDiscovery serves at /openapi/v3
// (k8s.io/kube-openapi pkg/handler3/handler.go): the group-version paths Document answers,
// sorted.
func Paths() []string {
	entries, err := openAPIFiles.ReadDir(openAPIDir)
	if err != nil {
		// The embed pattern guarantees the directory exists; a build without it fails.
		return nil
	}
	var paths []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, jsonSuffix) {
			continue
		}
		paths = append(paths, strings.ReplaceAll(strings.TrimSuffix(name, jsonSuffix), "__", "/"))
	}
	sort.Strings(paths)
	return paths
}

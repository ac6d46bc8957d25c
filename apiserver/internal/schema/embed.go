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
// components.schemas only, with empty paths, and has an index beside it (index.go).
// tools/cmd/openapi-gen writes them and openapi/SHA256SUMS (make schemas); the test of
// this package checks them against it.
//
//go:embed openapi/*.json openapi/*.index
var openAPIFiles embed.FS

const (
	openAPIDir = "openapi"
	jsonSuffix = ".json"
	// swaggerOnlyFile holds the definitions of /openapi/v2 that no v3 document holds in
	// their v2 form (tools/cmd/openapi-gen explains which); it is no v3 document.
	swaggerOnlyFile = "swagger-only.json"
	// customResourceFile holds the shared definitions of a custom resource's v3 document.
	customResourceFile = "custom-resource.json"
)

// notDocuments are the files of openAPIDir that no /openapi/v3 path serves as they are.
var notDocuments = map[string]bool{swaggerOnlyFile: true, customResourceFile: true}

// SwaggerOnly mirrors the definitions kube-openapi's v2 builder
// (k8s.io/kube-openapi pkg/builder/openapi.go, BuildOpenAPIDefinitionsForResources) writes
// and the v3 documents cannot give: a Swagger 2.0 document whose definitions are the
// discovery types of /api, /apis and /version, the v2 forms of Quantity and IntOrString,
// and DeleteOptions and WatchEvent with every group-version's kind. A fresh copy on
// every call.
func SwaggerOnly() []byte { return readFile(swaggerOnlyFile) }

// CustomResource mirrors the shared definitions the builder of k8s.io/apiextensions-apiserver
// pkg/controller/openapi/builder puts in a custom resource's /openapi/v3 document beside the
// resource's own: an OpenAPI 3.0 document whose components.schemas hold ObjectMeta, ListMeta,
// Status, Patch, DeleteOptions (with the kinds client-go's scheme registers), autoscaling/v1
// Scale and what they reference. A fresh copy on every call.
func CustomResource() []byte { return readFile(customResourceFile) }

func readFile(name string) []byte {
	data, err := openAPIFiles.ReadFile(openAPIDir + "/" + name)
	if err != nil {
		// The embed pattern includes the file; a build without it fails the pinning test.
		return nil
	}
	return data
}

// Document mirrors the per-group-version lookup of OpenAPIService.HandleGroupVersion in
// k8s.io/kube-openapi pkg/handler3/handler.go: it returns the embedded document of a
// group-version by its path under /openapi/v3, "api/v1" or "apis/apps/v1", without a
// leading slash; ok is false for a path we have no document of. The document has no
// paths: the server adds its own operations. The bytes are a fresh copy on every call,
// so cache them rather than call Document per request.
func Document(path string) (doc []byte, ok bool) {
	name, ok := documentFile(path)
	if !ok {
		return nil, false
	}
	doc, err := openAPIFiles.ReadFile(name)
	if err != nil {
		return nil, false
	}
	return doc, true
}

// documentFile is the embedded file of the document at path, if path can name one.
func documentFile(path string) (string, bool) {
	if path == "" || strings.Contains(path, "__") || notDocuments[path+jsonSuffix] {
		return "", false
	}
	name := openAPIDir + "/" + strings.ReplaceAll(path, "/", "__") + jsonSuffix
	return name, fs.ValidPath(name)
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
		if e.IsDir() || !strings.HasSuffix(name, jsonSuffix) || notDocuments[name] {
			continue
		}
		paths = append(paths, strings.ReplaceAll(strings.TrimSuffix(name, jsonSuffix), "__", "/"))
	}
	sort.Strings(paths)
	return paths
}

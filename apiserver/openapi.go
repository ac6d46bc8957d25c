package apiserver

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
)

// OpenAPI v3 (wire spec K11), a tiny stand-in for k8s.io/kube-openapi's handler3. kubectl
// create and apply validate with --validate=strict by default: kubectl fetches /openapi/v3,
// then the document of the object's group-version, and looks for the PATCH operation of the
// object's kind. If that operation lists a fieldValidation query parameter, kubectl leaves
// validation to the server and sends fieldValidation=Strict; if the documents are missing it
// fails with "failed to download openapi". So each document holds, per kind, the PATCH
// operation of the item path and its query parameters, and nothing else: no schemas. Tools
// that need schemas (kubectl explain, client-side validation) do not work; /openapi/v2 is
// not served (404), which kubectl only asks for when v3 is missing.

// openAPIDocument is the part of a spec3.OpenAPI document we send.
type openAPIDocument struct {
	OpenAPI string                     `json:"openapi"`
	Info    openAPIInfo                `json:"info"`
	Paths   map[string]openAPIPathItem `json:"paths"`
}

type openAPIInfo struct {
	Title   string `json:"title"`
	Version string `json:"version"`
}

type openAPIPathItem struct {
	Patch *openAPIOperation `json:"patch,omitempty"`
}

type openAPIOperation struct {
	OperationID string               `json:"operationId"`
	GVK         api.GroupVersionKind `json:"x-kubernetes-group-version-kind"`
	Action      string               `json:"x-kubernetes-action"`
	Parameters  []openAPIParameter   `json:"parameters"`
	Responses   map[string]struct {
		Description string `json:"description"`
	} `json:"responses"`
}

type openAPIParameter struct {
	Name     string            `json:"name"`
	In       string            `json:"in"`
	Required bool              `json:"required,omitempty"`
	Schema   map[string]string `json:"schema"`
}

// openAPIPath is the key of a group-version in the /openapi/v3 index: "api/v1" or
// "apis/apps/v1".
func openAPIPath(group, version string) string {
	if group == "" {
		return "api/" + version
	}
	return "apis/" + group + "/" + version
}

// openAPIDoc builds the document of one group-version.
func (s *Server) openAPIDoc(group, version string) []byte {
	doc := openAPIDocument{
		OpenAPI: "3.0.0",
		Info:    openAPIInfo{Title: "Kubernetes", Version: s.version.GitVersion},
		Paths:   map[string]openAPIPathItem{},
	}
	str := map[string]string{"type": "string"}
	for _, ri := range s.resourcesOf(group, version) {
		item := "/" + openAPIPath(group, version)
		params := []openAPIParameter{{Name: "name", In: "path", Required: true, Schema: str}}
		if ri.Namespaced {
			item += "/namespaces/{namespace}"
			params = append(params, openAPIParameter{Name: "namespace", In: "path", Required: true, Schema: str})
		}
		item += "/" + ri.Resource + "/{name}"
		params = append(params,
			openAPIParameter{Name: "fieldManager", In: "query", Schema: str},
			openAPIParameter{Name: "fieldValidation", In: "query", Schema: str},
			openAPIParameter{Name: "force", In: "query", Schema: map[string]string{"type": "boolean"}},
		)
		op := &openAPIOperation{
			OperationID: "patch" + ri.Kind,
			GVK:         ri.GVK(),
			Action:      "patch",
			Parameters:  params,
		}
		op.Responses = map[string]struct {
			Description string `json:"description"`
		}{"200": {Description: "OK"}, "201": {Description: "Created"}}
		doc.Paths[item] = openAPIPathItem{Patch: op}
	}
	data, _ := json.Marshal(doc) // maps, strings and bools only
	return data
}

// docHash is the hash the index puts in each document's URL, as kube-openapi does (upper-case
// hex SHA-512), so clients may cache a document for as long as its URL stays the same.
func docHash(doc []byte) string { return fmt.Sprintf("%X", sha512.Sum512(doc)) }

// serveOpenAPI answers /openapi/v3 and /openapi/v3/{api/v1 | apis/g/v}. It reports false
// for any other path.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request, path string) bool {
	if _, err := negotiation.Negotiate(r, negotiation.EndpointPlain); err != nil {
		writeError(w, err)
		return true
	}
	groups, versions := s.groupVersions()
	if path == "/openapi/v3" {
		type entry struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		}
		index := struct {
			Paths map[string]entry `json:"paths"`
		}{Paths: map[string]entry{}}
		for _, g := range groups {
			for _, v := range versions[g] {
				p := openAPIPath(g, v)
				index.Paths[p] = entry{ServerRelativeURL: "/openapi/v3/" + p + "?hash=" + docHash(s.openAPIDoc(g, v))}
			}
		}
		w.Header().Set("Cache-Control", "no-cache, private")
		writeDiscovery(w, "application/json", index)
		return true
	}
	rest, ok := strings.CutPrefix(path, "/openapi/v3/")
	if !ok {
		return false
	}
	for _, g := range groups {
		for _, v := range versions[g] {
			if openAPIPath(g, v) != rest {
				continue
			}
			doc := s.openAPIDoc(g, v)
			if r.URL.Query().Get("hash") == docHash(doc) {
				w.Header().Set("Cache-Control", "public, immutable")
			} else {
				w.Header().Set("Cache-Control", "no-cache, private")
			}
			writeRawType(w, http.StatusOK, "application/json", doc)
			return true
		}
	}
	return false
}

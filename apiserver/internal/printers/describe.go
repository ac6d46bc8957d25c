package printers

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// Column descriptions. The real printers describe most columns with the API documentation
// of the member the column shows (the SwaggerDoc of a field), and the rest with a short
// text of their own. The documentation is already here, in the embedded OpenAPI v3
// documents, so a column names the definition and member it quotes, and the text is read
// from the document the first time a Table of that kind is printed: nothing at start-up.

// description is where a column's description comes from: the documentation of member of
// an OpenAPI definition, or a fixed text.
type description struct {
	definition, member string // "io.k8s.api.apps.v1.ReplicaSetSpec", "replicas"
	text               string
}

// doc is the documentation of member of definition, as the printers quote a field's
// SwaggerDoc.
func doc(definition, member string) description {
	return description{definition: definition, member: member}
}

// text is a description the printer writes itself.
func text(s string) description { return description{text: s} }

// The definitions most columns quote.
const (
	objectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	coreV1     = "io.k8s.api.core.v1."
	appsV1     = "io.k8s.api.apps.v1."
	batchV1    = "io.k8s.api.batch.v1."
	storageV1  = "io.k8s.api.storage.v1."
)

// resolve returns the description's text. A member the documents do not describe reads as
// "", as SwaggerDoc()[member] does for a member it has no entry for.
func (d description) resolve() string {
	if d.definition == "" {
		return d.text
	}
	return memberDoc(d.definition, d.member)
}

// enumSuffix starts the list of enum values openapi-gen appends to the description of an
// enum-typed member; SwaggerDoc, which the printers quote, has the comment alone.
const enumSuffix = "\n\nPossible enum values:"

// memberDoc looks up the documentation of one member in the embedded documents.
func memberDoc(definition, member string) string {
	s := definitionDocs(definition)[member]
	if i := strings.Index(s, enumSuffix); i >= 0 {
		s = s[:i]
	}
	return s
}

var (
	docsMu sync.Mutex
	docs   = map[string]map[string]string{} // definition → member → description
)

// definitionDocs returns the member descriptions of one definition, read once. Only that
// definition is decoded: a document holds hundreds, and a kind's first Table should cost
// well under a millisecond, not a parse of the whole document.
func definitionDocs(definition string) map[string]string {
	docsMu.Lock()
	defer docsMu.Unlock()
	if m, ok := docs[definition]; ok {
		return m
	}
	m := readDefinitionDocs(documentPath(definition), definition)
	docs[definition] = m
	return m
}

// readDefinitionDocs finds the definition in the compact JSON of its document by its key in
// components.schemas (the only place its name is followed by a colon: a $ref ends in a quote
// and a description's quotes are escaped) and decodes that value alone.
func readDefinitionDocs(path, definition string) map[string]string {
	var data []byte
	if path == "" {
		data = schema.CustomResource()
	} else {
		data, _ = schema.Document(path)
	}
	key := []byte(`"` + definition + `":`)
	i := bytes.Index(data, key)
	if i < 0 {
		return nil
	}
	var def struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	// The documents are pinned by the schema package's tests; a definition that does not
	// decode describes nothing, and the printers' tests fail on the empty descriptions.
	if err := json.NewDecoder(bytes.NewReader(data[i+len(key):])).Decode(&def); err != nil {
		return nil
	}
	m := make(map[string]string, len(def.Properties))
	for k, p := range def.Properties {
		m[k] = p.Description
	}
	return m
}

// documentPath picks the document holding a definition: meta.k8s.io's shared ones from the
// small custom resource document (""), "io.k8s.api.core.v1.X" from api/v1, and
// "io.k8s.api.<package>.<version>.X" (or another prefix ending in <package>.<version>)
// from the served group whose name is, or starts with, <package>.
func documentPath(definition string) string {
	if strings.HasPrefix(definition, "io.k8s.apimachinery.pkg.apis.meta.v1.") {
		return ""
	}
	parts := strings.Split(definition, ".")
	if len(parts) < 3 {
		return "-" // no such document: every lookup is ""
	}
	pkg, version := parts[len(parts)-3], parts[len(parts)-2]
	if pkg == "core" {
		return "api/" + version
	}
	for _, p := range schema.Paths() {
		group, v, ok := strings.Cut(strings.TrimPrefix(p, "apis/"), "/")
		if ok && v == version && (group == pkg || strings.HasPrefix(group, pkg+".")) {
			return p
		}
	}
	return "-"
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	utilopenapi "k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
	generatedopenapi "k8s.io/kubernetes/pkg/generated/openapi"

	"github.com/informer-lab/informer-lab/tools/internal/datafiles"
)

// generate builds every document of groupVersions and returns the files to write,
// keyed by file name: one JSON document per group-version, swaggerOnlyFile, customResourceFile and
// SHA256SUMS. The same
// inputs always give the same bytes.
func generate() (map[string][]byte, error) {
	namer := newNamer()
	files := map[string][]byte{}
	inV3 := map[string]bool{}
	for _, gv := range groupVersions {
		schemas, err := buildSchemas(namer.GetDefinitionName, gv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", gv.path, err)
		}
		for n := range schemas {
			inV3[n] = true
		}
		index := newIndexWriter(gv.fileName())
		doc, err := encodeDocument(schemas, index)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", gv.path, err)
		}
		files[gv.fileName()] = doc
		files[indexName(gv.fileName())] = index.buf.Bytes()
	}
	only, err := buildSwaggerOnly(namer.GetDefinitionName, inV3)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", swaggerOnlyFile, err)
	}
	files[swaggerOnlyFile] = only
	cr, err := buildCustomResource()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", customResourceFile, err)
	}
	files[customResourceFile] = cr
	files[datafiles.SumsFile] = datafiles.SHA256Sums(files)
	return files, nil
}

// buildSchemas returns components.schemas of one group-version's document: its roots
// and everything they reference, named and wrapped by kube-openapi's v3 builder exactly
// as kube-apiserver's OpenAPI v3 handler builds them from its routes.
func buildSchemas(name func(string) (string, spec.Extensions), gv groupVersion) (map[string]*spec.Schema, error) {
	config := &common.OpenAPIV3Config{
		Info:              &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes"}},
		GetDefinitionName: name,
		// kube-apiserver wraps the generated definitions so that a disabled OpenAPIEnums
		// gate strips enum values; with v1.36's defaults the gate is on and they stay.
		// A fresh set per document: the builder writes extensions into the maps it gets.
		GetDefinitions: utilopenapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions),
	}
	schemas, err := builder3.BuildOpenAPIDefinitionsForResources(config, gv.roots...)
	if err != nil {
		return nil, err
	}
	keepOwnGVKs(schemas, gv.group, gv.version)
	return schemas, nil
}

// header is everything of a document before its schemas. paths stays empty: the
// simulated apiserver adds the operations it serves.
const header = `{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"unversioned"},"paths":{},"components":{"schemas":{`

// encodeDocument writes the OpenAPI 3.0 document with one schema per line, in name
// order, each schema as compact JSON with sorted keys and no HTML escaping: the file
// stays small, and a regenerated file diffs one definition per line. index, when not nil,
// gets each definition.
func encodeDocument(schemas map[string]*spec.Schema, index *indexWriter) ([]byte, error) {
	names := make([]string, 0, len(schemas))
	for n := range schemas {
		names = append(names, n)
	}
	sort.Strings(names)

	var buf bytes.Buffer
	buf.WriteString(header)
	for i, n := range names {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		body, err := canonicalJSON(schemas[n])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		buf.WriteString(strconv.Quote(n))
		buf.WriteByte(':')
		if index != nil {
			if err := index.add(n, buf.Len(), body); err != nil {
				return nil, err
			}
		}
		buf.Write(body)
	}
	buf.WriteString("\n}}}\n")
	return buf.Bytes(), nil
}

// canonicalJSON marshals v with kube-openapi's own marshaller (the one kube-apiserver
// serves with), then re-encodes the result generically so every object's keys come out
// sorted. json.Number keeps each number's text as it was.
func canonicalJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(generic); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// openAPICRD is a CustomResourceDefinition with every schema feature the OpenAPI publishers
// of kube-apiserver treat apart (nullable, int-or-string with and without its anyOf,
// embedded resources, fields that keep unknown members, junctors, CEL rules, defaults, list
// and map types, selectable fields, the scale subresource) and a second version whose root
// keeps unknown fields.
//
//go:embed testdata/openapi-crd.yaml
var openAPICRD []byte

// The OpenAPI captures: the CRD above as created, /openapi/v2 in JSON (gzip-compressed) once
// the CRD is in it, the SHA-256 of the same document in protobuf, and the SHA-256 of the
// components member of every /openapi/v3 document, one line per document path.
const (
	openAPICRDFile        = "openapi-crd.json"
	openAPIV2File         = "openapi-v2.json.gz"
	openAPIV2ProtobufFile = "openapi-v2.pb.sha256"
	openAPIV3File         = "openapi-v3-components.sha256"
)

const protobufOpenAPIV2 = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"

// captureOpenAPI creates openAPICRD on the reference, waits until both OpenAPI versions
// publish it, and adds the OpenAPI captures to files.
func captureOpenAPI(ctx context.Context, ref *runner.Target, files map[string][]byte) error {
	crd, err := yaml.YAMLToJSON(openAPICRD)
	if err != nil {
		return err
	}
	var meta struct {
		Spec struct {
			Group    string `json:"group"`
			Versions []struct {
				Name string `json:"name"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(crd, &meta); err != nil {
		return err
	}
	if o := ref.Do(ctx, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", nil, crd); o.Code != 201 {
		return fmt.Errorf("creating the OpenAPI CRD: %d %s %s", o.Code, o.Err, o.Body)
	}
	var paths []string
	for _, v := range meta.Spec.Versions {
		paths = append(paths, "apis/"+meta.Spec.Group+"/"+v.Name)
	}
	// kube-apiserver publishes a new CRD from a controller: wait for both documents.
	var v2 []byte
	deadline := time.Now().Add(2 * time.Minute)
	for {
		v2 = ref.Do(ctx, "GET", "/openapi/v2", nil, nil).Body
		index := ref.Do(ctx, "GET", "/openapi/v3", nil, nil).Body
		published := true
		for _, p := range paths {
			gv := strings.TrimPrefix(p, "apis/")
			name := reverseGroup(meta.Spec.Group) + "." + gv[strings.LastIndex(gv, "/")+1:] + ".Widget"
			published = published && bytes.Contains(v2, []byte(`"`+name+`"`)) && bytes.Contains(index, []byte(`"`+p+`"`))
		}
		if published {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the reference did not publish the OpenAPI CRD in time")
		}
		time.Sleep(200 * time.Millisecond)
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := w.Write(v2); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	files[openAPIV2File] = gz.Bytes()
	files[openAPICRDFile] = append(crd, '\n')

	pb := ref.Do(ctx, "GET", "/openapi/v2", map[string]string{"Accept": protobufOpenAPIV2}, nil)
	if pb.Code != 200 {
		return fmt.Errorf("GET /openapi/v2 in protobuf: %d %s", pb.Code, pb.Err)
	}
	// The protobuf document must be of the same JSON one.
	if again := ref.Do(ctx, "GET", "/openapi/v2", nil, nil).Body; !bytes.Equal(again, v2) {
		return fmt.Errorf("/openapi/v2 changed while it was captured")
	}
	files[openAPIV2ProtobufFile] = fmt.Appendf(nil, "%x  openapi-v2.pb\n", sha256.Sum256(pb.Body))

	var index struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(ref.Do(ctx, "GET", "/openapi/v3", nil, nil).Body, &index); err != nil {
		return err
	}
	var docs []string
	for p := range index.Paths {
		docs = append(docs, p)
	}
	sort.Strings(docs)
	var lines []string
	for _, p := range docs {
		o := ref.Do(ctx, "GET", "/openapi/v3/"+p, nil, nil)
		var doc struct {
			Components json.RawMessage `json:"components"`
		}
		if o.Code != 200 || json.Unmarshal(o.Body, &doc) != nil {
			return fmt.Errorf("GET /openapi/v3/%s: %d %s", p, o.Code, o.Err)
		}
		lines = append(lines, fmt.Sprintf("%x  %s\n", sha256.Sum256(doc.Components), p))
	}
	files[openAPIV3File] = []byte(strings.Join(lines, ""))
	return nil
}

// reverseGroup is a group's labels reversed, as definition names spell custom kinds.
func reverseGroup(group string) string {
	parts := strings.Split(group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

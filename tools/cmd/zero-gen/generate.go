package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"

	"github.com/informer-lab/informer-lab/tools/internal/datafiles"
)

// documentsDir holds the OpenAPI documents the main module embeds, from tools/ (where the
// command runs); the kinds come from them.
var documentsDir = "../apiserver/internal/schema/openapi"

func newScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientscheme.AddToScheme, apiextensionsv1.AddToScheme, apiregistrationv1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// kindsOfDocuments lists every x-kubernetes-group-version-kind of the embedded documents.
func kindsOfDocuments() ([]schema.GroupVersionKind, error) {
	files, err := filepath.Glob(filepath.Join(documentsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	seen := map[schema.GroupVersionKind]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Components struct {
				Schemas map[string]struct {
					GVKs []schema.GroupVersionKind `json:"x-kubernetes-group-version-kind"`
				} `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, s := range doc.Components.Schemas {
			for _, gvk := range s.GVKs {
				seen[gvk] = true
			}
		}
	}
	out := make([]schema.GroupVersionKind, 0, len(seen))
	for gvk := range seen {
		out = append(out, gvk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	if len(out) == 0 {
		return nil, fmt.Errorf("no kinds in %s", documentsDir)
	}
	return out, nil
}

// Key names a kind in zero.json: "apps/v1, Kind=Deployment", "/v1, Kind=Pod".
func key(gvk schema.GroupVersionKind) string { return gvk.String() }

func generate() (map[string][]byte, error) {
	s, err := newScheme()
	if err != nil {
		return nil, err
	}
	gvks, err := kindsOfDocuments()
	if err != nil {
		return nil, err
	}
	zero := map[string]any{}
	for _, gvk := range gvks {
		if strings.HasSuffix(gvk.Kind, "List") || gvk.Kind == "WatchEvent" || gvk.Kind == "DeleteOptions" || gvk.Kind == "Status" {
			continue
		}
		obj, err := s.New(gvk)
		if err != nil {
			continue // kinds of the meta group-version and others the scheme does not know
		}
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", gvk, err)
		}
		zero[key(gvk)] = u
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(zero); err != nil {
		return nil, err
	}
	files := map[string][]byte{"zero.json": buf.Bytes()}
	files[datafiles.SumsFile] = datafiles.SHA256Sums(files)
	return files, nil
}

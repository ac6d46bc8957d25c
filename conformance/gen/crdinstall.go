package gen

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/informer-lab/informer-lab/conformance/corpus"
	"github.com/informer-lab/informer-lab/conformance/runner"
)

// InstalledCRD is a corpus CRD installed under its own name, so the corpus's custom objects
// can be created.
type InstalledCRD struct {
	Name, Group, Version, Plural string
	Namespaced                   bool
}

// CRDInstallCases creates each corpus CRD (first occurrence of each name) on both servers, as
// serial cases run before all others, and lists what will be served afterwards.
func CRDInstallCases(docs []corpus.Doc) ([]runner.Case, []InstalledCRD) {
	var cases []runner.Case
	var crds []InstalledCRD
	seen := map[string]bool{}
	for _, d := range docs {
		if d.Kind() != "CustomResourceDefinition" || d.APIVersion() != "apiextensions.k8s.io/v1" {
			continue
		}
		md, _ := d.Object["metadata"].(map[string]any)
		name, _ := md["name"].(string)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		body, _ := json.Marshal(d.Object)
		cases = append(cases, runner.Case{ID: "crd-install/" + d.Source, Category: "crd-install", Source: d.Source, Serial: true, NoNamespace: true,
			Kind: KindOf("apiextensions.k8s.io", "CustomResourceDefinition"),
			Steps: []runner.Step{
				{Name: "create", Method: http.MethodPost, Path: crdPath, Body: body},
				{Name: "read-back", Method: http.MethodGet, Path: crdPath + "/" + name, IgnoreBody: true},
			}})
		spec, _ := d.Object["spec"].(map[string]any)
		names, _ := spec["names"].(map[string]any)
		group, _ := spec["group"].(string)
		plural, _ := names["plural"].(string)
		scope, _ := spec["scope"].(string)
		vs, _ := spec["versions"].([]any)
		for _, v := range vs {
			vm, _ := v.(map[string]any)
			if served, _ := vm["served"].(bool); served {
				vn, _ := vm["name"].(string)
				crds = append(crds, InstalledCRD{Name: name, Group: group, Version: vn, Plural: plural, Namespaced: scope == "Namespaced"})
				break
			}
		}
	}
	return cases, crds
}

// WaitServed polls a list of each installed CRD's resource until it answers 200, or the
// deadline passes; it returns the CRDs that never became served.
func WaitServed(ctx context.Context, t *runner.Target, crds []InstalledCRD, timeout time.Duration) []string {
	deadline := time.Now().Add(timeout)
	var missing []string
	for _, c := range crds {
		p := "/apis/" + c.Group + "/" + c.Version + "/" + c.Plural + "?limit=1"
		for {
			o := t.Do(ctx, http.MethodGet, p, nil, nil)
			if o.Code == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				missing = append(missing, c.Name)
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	return missing
}

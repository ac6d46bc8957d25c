package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/clientcmd"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// crdFile is one CustomResourceDefinition read from a --crd file.
type crdFile struct {
	file string
	obj  *api.Unstructured
}

// readCRDs reads every document of every --crd file, before the server starts, so a bad file
// is an error before anything listens. Each document must be a CustomResourceDefinition; the
// server validates it as kube-apiserver does when it is created.
func readCRDs(files []string) ([]crdFile, error) {
	var out []crdFile
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, errorf("--crd: %v", err)
		}
		for i, doc := range clientcmd.SplitYAMLDocuments(data) {
			js, err := clientcmd.YAMLToJSON(doc)
			if err != nil {
				return nil, errorf("--crd %s: document %d: %v", f, i+1, err)
			}
			u := &api.Unstructured{}
			if err := u.UnmarshalJSON(js); err != nil {
				return nil, errorf("--crd %s: document %d: not an object: %v", f, i+1, err)
			}
			if gvk := u.GroupVersionKind(); gvk.Kind != "CustomResourceDefinition" || gvk.Group != "apiextensions.k8s.io" {
				return nil, errorf("--crd %s: document %d is a %s, not an apiextensions.k8s.io CustomResourceDefinition", f, i+1, fmtKind(gvk))
			}
			out = append(out, crdFile{file: f, obj: u})
		}
	}
	return out, nil
}

func fmtKind(gvk api.GroupVersionKind) string {
	if gvk.Kind == "" {
		return "document without a kind"
	}
	return fmt.Sprintf("%s (%s)", gvk.Kind, gvk.APIVersion())
}

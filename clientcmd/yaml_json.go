package clientcmd

import (
	"encoding/json"
	"fmt"
	"strings"
)

// YAMLToJSON mirrors YAMLToJSON in sigs.k8s.io/yaml, which kubectl reads manifests with: one
// YAML document becomes the JSON of the same tree, plain scalars typed as YAML 1.1 types them
// (true, yes and on are booleans, 42 an integer, ~ and null are null). An empty document is
// "null". It uses the reader the kubeconfig loader uses (yaml.v3, typed as YAML 1.1).
func YAMLToJSON(data []byte) ([]byte, error) {
	tree, err := parseYAML(data)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(jsonValue(tree))
	if err != nil {
		return nil, fmt.Errorf("yaml: %w", err)
	}
	return out, nil
}

// SplitYAMLDocuments splits a stream of YAML documents at its "---" lines, as kubectl's
// YAML reader does; empty documents are dropped.
func SplitYAMLDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur strings.Builder
	flush := func() {
		if strings.TrimSpace(cur.String()) != "" {
			docs = append(docs, []byte(cur.String()))
		}
		cur.Reset()
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if t := strings.TrimRight(line, "\r\n"); t == "---" || strings.HasPrefix(t, "--- ") {
			flush()
			continue
		}
		cur.WriteString(line)
	}
	flush()
	return docs
}

package defaulting

import "strings"

// defaultCRD mirrors SetDefaults_CustomResourceDefinition and SetDefaults_ServiceReference
// of k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/defaults.go: singular is the
// lower-cased kind, listKind the kind with "List", the conversion strategy None, a webhook
// service's port 443, and an empty storedVersions starts with the storage version.
func defaultCRD(obj map[string]any) {
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		return
	}
	if names, ok := spec["names"].(map[string]any); ok {
		kind, _ := names["kind"].(string)
		if s, _ := names["singular"].(string); s == "" {
			names["singular"] = strings.ToLower(kind)
		}
		if l, _ := names["listKind"].(string); l == "" && kind != "" {
			names["listKind"] = kind + "List"
		}
	}
	conv, _ := spec["conversion"].(map[string]any)
	if conv == nil {
		spec["conversion"] = map[string]any{"strategy": "None"}
	} else if svc := nestedMap(conv, "webhook", "clientConfig", "service"); svc != nil {
		if _, ok := svc["port"]; !ok {
			svc["port"] = int64(443)
		}
	}
	status, _ := obj["status"].(map[string]any)
	if status == nil {
		return
	}
	if sv, _ := status["storedVersions"].([]any); len(sv) == 0 {
		versions, _ := spec["versions"].([]any)
		for _, v := range versions {
			vm, _ := v.(map[string]any)
			if st, _ := vm["storage"].(bool); st {
				status["storedVersions"] = []any{vm["name"]}
				break
			}
		}
	}
}

func nestedMap(m map[string]any, path ...string) map[string]any {
	for _, p := range path {
		next, ok := m[p].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}

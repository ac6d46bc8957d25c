package gen

import (
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/corpus"
	"github.com/informer-lab/informer-lab/conformance/runner"
)

// Coverage: every resource type the reference serves gets cases. The corpus holds real
// manifests of most kinds, the apiserver's round-trip manifests (corpus.Local) one of every
// kind the simulator serves; a kind still without a document gets a minimal object made
// from the reference's OpenAPI schema, and a resource type that cannot be created (read-only,
// or create-only reviews without a document) a case that reads its collection.

// KindOf is the key of a kind in the agreement per kind: "core/Pod", "apps/Deployment".
func KindOf(group, kind string) string {
	if group == "" {
		group = "core"
	}
	return group + "/" + kind
}

// resourcePath reads the group-version and resource of an API path: /api/v1/pods,
// /apis/apps/v1/namespaces/x/deployments/name.
var resourcePath = regexp.MustCompile(`^/(?:api/(v1)|apis/([^/]+/[^/]+))/(?:namespaces/[^/]+/)?([a-z0-9.-]+)`)

// InferKinds sets the Kind of every case that has none from the first request path naming a
// resource the reference serves; a path under /namespaces/ that names nothing after the
// namespace is the namespace itself.
func InferKinds(cases []runner.Case, disc Discovery) {
	byPath := map[string]string{}
	for _, r := range disc {
		byPath[r.GroupVersion+"/"+r.Plural] = KindOf(r.Group(), r.Kind)
	}
	for i := range cases {
		if cases[i].Kind != "" {
			continue
		}
		for _, s := range cases[i].Steps {
			path, _, _ := strings.Cut(s.Path, "?")
			if path == "" {
				continue
			}
			m := resourcePath.FindStringSubmatch(path)
			if m == nil {
				continue
			}
			gv := m[1] + m[2]
			plural := m[3]
			if strings.Contains(path, "/namespaces/") && !strings.Contains(path[strings.Index(path, "/namespaces/")+len("/namespaces/"):], "/") {
				plural = "namespaces"
			}
			if k, ok := byPath[gv+"/"+plural]; ok {
				cases[i].Kind = k
				break
			}
		}
	}
}

// GeneratedDocs makes one minimal object, from the reference's schema, of every built-in
// kind the reference can create that no document of docs has. They carry the Source
// "generated/<group>_<kind>". The groups of the corpus's CRDs (crdGroups) are left out:
// whether the reference's discovery lists them yet when the cases are generated is a race,
// and a case that exists in one run and not the next cannot be pinned.
func GeneratedDocs(docs []corpus.Doc, disc Discovery, schemas *Schemas, crdGroups map[string]bool) []corpus.Doc {
	have := map[string]bool{}
	for _, d := range docs {
		group, _, _ := strings.Cut(d.APIVersion(), "/")
		if !strings.Contains(d.APIVersion(), "/") {
			group = ""
		}
		have[KindOf(group, d.Kind())] = true
	}
	var out []corpus.Doc
	for _, r := range preferred(disc) {
		key := KindOf(r.Group(), r.Kind)
		if have[key] || !slices.Contains(r.Verbs, "create") || crdGroups[r.Group()] {
			continue
		}
		group, version := r.Group(), strings.TrimPrefix(r.GroupVersion, r.Group()+"/")
		root, ok := schemas.Root(group, version, r.Kind)
		if !ok {
			continue
		}
		obj, _ := minimal(root, 0).(map[string]any)
		if obj == nil {
			obj = map[string]any{}
		}
		obj["apiVersion"] = r.GroupVersion
		obj["kind"] = r.Kind
		obj["metadata"] = map[string]any{"name": "generated-" + strings.ToLower(r.Kind)}
		have[key] = true
		out = append(out, corpus.Doc{Source: "generated/" + strings.ReplaceAll(key, "/", "_"), Object: obj})
	}
	return out
}

// ReadOnlyCases reads the collection of every resource type no case is about (a type that
// cannot be created, like componentstatuses), as JSON and as a Table.
func ReadOnlyCases(cases []runner.Case, disc Discovery) []runner.Case {
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.Kind] = true
	}
	var out []runner.Case
	for _, r := range preferred(disc) {
		key := KindOf(r.Group(), r.Kind)
		if covered[key] || !slices.Contains(r.Verbs, "list") {
			continue
		}
		path := r.CollectionPath()
		out = append(out, runner.Case{ID: "read/" + strings.ReplaceAll(key, "/", "_"), Category: "read", Kind: key,
			NoNamespace: !r.Namespaced, Steps: []runner.Step{
				{Name: "list", Method: http.MethodGet, Path: path, IgnoreBody: true},
				{Name: "table", Method: http.MethodGet, Path: path, Headers: map[string]string{"Accept": acceptTable}, IgnoreBody: true},
			}})
		covered[key] = true
	}
	return out
}

// Uncovered lists the resource types of the reference that no case is about.
func Uncovered(cases []runner.Case, disc Discovery) []string {
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.Kind] = true
	}
	var out []string
	for _, r := range preferred(disc) {
		if key := KindOf(r.Group(), r.Kind); !covered[key] {
			out = append(out, key+" ("+r.Plural+")")
		}
	}
	sort.Strings(out)
	return out
}

// preferred lists each group/kind once, at the first version discovery lists (the
// preferred one), sorted by group/kind.
func preferred(disc Discovery) []Resource {
	byKind := map[string]Resource{}
	var keys []string
	for _, r := range disc {
		key := KindOf(r.Group(), r.Kind)
		prev, seen := byKind[key]
		if !seen {
			keys = append(keys, key)
		}
		if !seen || versionRank(r.GroupVersion) < versionRank(prev.GroupVersion) {
			byKind[key] = r
		}
	}
	sort.Strings(keys)
	out := make([]Resource, len(keys))
	for i, k := range keys {
		out[i] = byKind[k]
	}
	return out
}

// versionRank orders versions as kube-apiserver prefers them: GA before beta before alpha,
// higher numbers first (autoscaling/v2 before v1).
func versionRank(gv string) int {
	v := gv[strings.LastIndex(gv, "/")+1:]
	rank := 0
	switch {
	case strings.Contains(v, "alpha"):
		rank = 2000
	case strings.Contains(v, "beta"):
		rank = 1000
	}
	n := 0
	for _, c := range strings.TrimPrefix(v, "v") {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return rank - n
}

// minimal is the smallest value a schema node accepts by its shape: required members only,
// one item for a list that must have items, the first enum value, a placeholder of the
// right type for a scalar. Validation rules beyond the schema (names, selectors matching
// labels) may still refuse it; the case then compares both servers' refusals.
func minimal(n Node, depth int) any {
	if depth > 12 {
		return nil
	}
	n = n.resolve()
	switch {
	case n.IsQuantity():
		return "1"
	case n.IsIntOrString():
		return 1
	}
	if e := n.Enum(); len(e) > 0 {
		return e[0]
	}
	switch n.Type() {
	case "string":
		if n.Format() == "date-time" {
			return "2026-01-01T00:00:00Z"
		}
		if n.Format() == "byte" {
			return "eA=="
		}
		return "x"
	case "integer":
		return 1
	case "number":
		return 1.5
	case "boolean":
		return false
	case "array":
		item, ok := n.Items()
		if !ok {
			return []any{}
		}
		if min, _ := n.m["minItems"].(float64); min > 0 {
			return []any{minimal(item, depth+1)}
		}
		return []any{}
	}
	obj := map[string]any{}
	for _, name := range n.Required() {
		if name == "apiVersion" || name == "kind" || name == "metadata" {
			continue
		}
		if p, ok := n.Prop(name); ok {
			obj[name] = minimal(p, depth+1)
		}
	}
	return obj
}

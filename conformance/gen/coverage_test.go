package gen

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/conformance/corpus"
	"github.com/informer-lab/informer-lab/conformance/runner"
)

var testDiscovery = Discovery{
	"v1|Pod":                               {GroupVersion: "v1", Kind: "Pod", Plural: "pods", Namespaced: true, Verbs: []string{"create", "get", "list"}},
	"v1|Namespace":                         {GroupVersion: "v1", Kind: "Namespace", Plural: "namespaces", Verbs: []string{"create", "get", "list"}},
	"v1|ComponentStatus":                   {GroupVersion: "v1", Kind: "ComponentStatus", Plural: "componentstatuses", Verbs: []string{"get", "list"}},
	"apps/v1|Deployment":                   {GroupVersion: "apps/v1", Kind: "Deployment", Plural: "deployments", Namespaced: true, Verbs: []string{"create", "list"}},
	"autoscaling/v1|HPA":                   {GroupVersion: "autoscaling/v1", Kind: "HPA", Plural: "hpas", Namespaced: true, Verbs: []string{"create", "list"}},
	"autoscaling/v2|HPA":                   {GroupVersion: "autoscaling/v2", Kind: "HPA", Plural: "hpas", Namespaced: true, Verbs: []string{"create", "list"}},
	"authentication.k8s.io/v1|TokenReview": {GroupVersion: "authentication.k8s.io/v1", Kind: "TokenReview", Plural: "tokenreviews", Verbs: []string{"create"}},
}

func TestCh01_ConformanceKindOfAndInference(t *testing.T) {
	assert.Equal(t, "core/Pod", KindOf("", "Pod"))
	assert.Equal(t, "apps/Deployment", KindOf("apps", "Deployment"))
	cases := []runner.Case{
		{ID: "a", Steps: []runner.Step{{Method: http.MethodGet, Path: "/api/v1/namespaces/" + runner.NSPlaceholder + "/pods?limit=2"}}},
		{ID: "b", Steps: []runner.Step{{Kubectl: []string{"get", "pods"}}, {Method: http.MethodPost, Path: "/apis/apps/v1/namespaces/x/deployments"}}},
		{ID: "c", Steps: []runner.Step{{Method: http.MethodDelete, Path: "/api/v1/namespaces/" + runner.NSPlaceholder}}},
		{ID: "d", Steps: []runner.Step{{Method: http.MethodGet, Path: "/apis/example.com/v1/widgets"}}},
		{ID: "e", Kind: "kept/Kind", Steps: []runner.Step{{Method: http.MethodGet, Path: "/api/v1/pods"}}},
	}
	InferKinds(cases, testDiscovery)
	var got []string
	for _, c := range cases {
		got = append(got, c.Kind)
	}
	assert.Equal(t, []string{"core/Pod", "apps/Deployment", "core/Namespace", "", "kept/Kind"}, got)
}

func TestCh01_ConformanceCoverage(t *testing.T) {
	// The preferred version of a kind served at two: v2 before v1, GA before beta.
	assert.Less(t, versionRank("autoscaling/v2"), versionRank("autoscaling/v1"))
	assert.Less(t, versionRank("x/v1"), versionRank("x/v1beta1"))
	assert.Less(t, versionRank("x/v1beta1"), versionRank("x/v1alpha1"))
	pref := preferred(testDiscovery)
	require.Len(t, pref, 6)
	assert.Equal(t, "autoscaling/v2", pref[2].GroupVersion, "sorted by group/kind: apps, authentication, autoscaling")

	schemas := &Schemas{byGVK: map[string]*doc{}, name: map[string]string{}}
	d := &doc{schemas: map[string]map[string]any{
		"Deployment": {"type": "object", "required": []any{"spec"}, "properties": map[string]any{
			"spec": map[string]any{"type": "object", "required": []any{"replicas", "ports", "mode", "when"}, "properties": map[string]any{
				"replicas": map[string]any{"type": "integer"},
				"ports":    map[string]any{"type": "array", "minItems": float64(1), "items": map[string]any{"type": "string"}},
				"mode":     map[string]any{"type": "string", "enum": []any{"A", "B"}},
				"when":     map[string]any{"type": "string", "format": "date-time"},
				"extra":    map[string]any{"type": "string"},
			}},
		}},
	}}
	schemas.byGVK["apps/v1/Deployment"] = d
	schemas.name["apps/v1/Deployment"] = "Deployment"
	docs := []corpus.Doc{{Source: "x", Object: map[string]any{"apiVersion": "v1", "kind": "Pod"}}}
	generated := GeneratedDocs(docs, testDiscovery, schemas, nil)
	require.Len(t, generated, 1, "only the Deployment has a schema and no document")
	assert.Equal(t, "generated/apps_Deployment", generated[0].Source)
	assert.Equal(t, map[string]any{"replicas": 1, "ports": []any{"x"}, "mode": "A", "when": "2026-01-01T00:00:00Z"},
		generated[0].Object["spec"])

	cases := []runner.Case{{Kind: "core/Pod"}, {Kind: "apps/Deployment"}}
	read := ReadOnlyCases(cases, testDiscovery)
	var ids []string
	for _, c := range read {
		ids = append(ids, c.ID)
	}
	assert.Equal(t, []string{"read/autoscaling_HPA", "read/core_ComponentStatus", "read/core_Namespace"}, ids,
		"a kind without cases and with list; TokenReview cannot be listed")
	assert.Equal(t, []string{"authentication.k8s.io/TokenReview (tokenreviews)"}, Uncovered(append(cases, read...), testDiscovery))
}

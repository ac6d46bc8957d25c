package apiserver

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oldSelfOnItemsCRD puts self == oldSelf on the items of a list set, of an atomic list and
// of a set inside a map-list's items (refused), and a transition rule on the items of the
// map-list (accepted).
const oldSelfOnItemsCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"sets.s.example.com"},"spec":{"group":"s.example.com","scope":"Namespaced","names":{"plural":"sets","kind":"Set"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"tags":{"type":"array","maxItems":10,"x-kubernetes-list-type":"set","items":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self == oldSelf"}]},"x-kubernetes-validations":[{"rule":"self == oldSelf"}]},"atoms":{"type":"array","maxItems":10,"x-kubernetes-list-type":"atomic","items":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self == oldSelf"}]}},"ports":{"type":"array","maxItems":10,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","maxLength":10},"tags":{"type":"array","maxItems":10,"x-kubernetes-list-type":"set","items":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}},"x-kubernetes-validations":[{"rule":"self.name == oldSelf.name"}]}}}}}}}}]}}`

// listTransitionCRD puts self == oldSelf on a list set, an atomic list and a map-list.
const listTransitionCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"sets3.s.example.com"},"spec":{"group":"s.example.com","scope":"Namespaced","names":{"plural":"sets3","kind":"Set3"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"tags":{"type":"array","maxItems":10,"x-kubernetes-list-type":"set","items":{"type":"string","maxLength":10},"x-kubernetes-validations":[{"rule":"self == oldSelf"}]},"atoms":{"type":"array","maxItems":10,"x-kubernetes-list-type":"atomic","items":{"type":"string","maxLength":10},"x-kubernetes-validations":[{"rule":"self == oldSelf"}]},"ports":{"type":"array","maxItems":10,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","maxLength":10},"tags":{"type":"array","maxItems":10,"x-kubernetes-list-type":"set","items":{"type":"string","maxLength":10}}},"x-kubernetes-validations":[{"rule":"self.name == oldSelf.name"}]},"x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}}}}}]}}`

// junctorRulesCRD has x-kubernetes-validations inside allOf, anyOf (at the clause and on a
// property of one), oneOf and not.
const junctorRulesCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.j.example.com"},"spec":{"group":"j.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"allOf":[{"x-kubernetes-validations":[{"rule":"self.a > 0"}]}],"anyOf":[{"x-kubernetes-validations":[{"rule":"self.a > 1"}]},{"properties":{"a":{"x-kubernetes-validations":[{"rule":"self > 2"}]}}}],"oneOf":[{"x-kubernetes-validations":[{"rule":"self.a > 3"}]}],"not":{"x-kubernetes-validations":[{"rule":"self.a > 4"}]}}}}}}]}}`

// TestCh13_CEL_ListTypeCorrelation pins how oldSelf reaches list items, as v1.36.3
// answers: only the items of a map-list correlate with old items (by their keys), so a
// transition rule on the items of a set or an atomic list, at any depth, is refused when
// the CRD is written; on a whole list, oldSelf is the old list, and a set or a map-list
// equals it in any order while an atomic list does not.
func TestCh13_CEL_ListTypeCorrelation(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, oldSelfOnItemsCRD)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	const root = "spec.validation.openAPIV3Schema.properties[spec].properties"
	assert.Empty(t, cmp.Diff([]string{
		root + `[atoms].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ` + root + `[atoms]`,
		root + `[ports].items.properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ` + root + `[ports].items.properties[tags]`,
		root + `[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ` + root + `[tags]`,
	}, causesOf(t, r)))

	r = c.do(http.MethodPost, crdPath, listTransitionCRD)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	const path = "/apis/s.example.com/v1/namespaces/default/sets3"
	r = c.do(http.MethodPost, path, `{"apiVersion":"s.example.com/v1","kind":"Set3","metadata":{"name":"x"},"spec":{"tags":["a","b"],"atoms":["a","b"],"ports":[{"name":"a","tags":["x","y"]},{"name":"b"}]}}`)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	tests := []struct {
		name, patch, refused string
	}{
		{"set reordered", `{"spec":{"tags":["b","a"]}}`, ""},
		{"atomic list reordered", `{"spec":{"atoms":["b","a"]}}`, "spec.atoms: Invalid value: failed rule: self == oldSelf"},
		{"map-list and an inner set reordered", `{"spec":{"ports":[{"name":"b"},{"name":"a","tags":["y","x"]}]}}`, ""},
		{"map-list item changed", `{"spec":{"ports":[{"name":"a","tags":["x","y"]},{"name":"b","tags":["z"]}]}}`, "spec.ports: Invalid value: failed rule: self == oldSelf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do(http.MethodPatch, path+"/x", tt.patch, "Content-Type", "application/merge-patch+json")
			if tt.refused == "" {
				assert.Equal(t, http.StatusOK, r.code, "%s", r.body)
				return
			}
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			assert.Equal(t, []string{tt.refused}, causesOf(t, r))
		})
	}
}

// TestCh13_CEL_RulesInJunctors: x-kubernetes-validations inside allOf, anyOf, oneOf or not
// make a schema non-structural, wherever they sit in the clause (v1.36.3 answers so:
// ValidateStructural forbids nested rules for CRDs, and the rules never run).
func TestCh13_CEL_RulesInJunctors(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, junctorRulesCRD)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	const spec = "spec.validation.openAPIV3Schema.properties[spec]"
	assert.Empty(t, cmp.Diff([]string{
		spec + ".allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural",
		spec + ".anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural",
		spec + ".anyOf[1].properties[a].x-kubernetes-validations: Forbidden: must be empty to be structural",
		spec + ".not.x-kubernetes-validations: Forbidden: must be empty to be structural",
		spec + ".oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural",
	}, causesOf(t, r)))
}

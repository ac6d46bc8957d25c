package apiserver

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ratchetCRD is a CRD whose rules sit on the items of a list set, on a map-list and its
// items, and on an object inside the items of an atomic list; withRules false gives the
// same schema without them, the one the object is first stored under.
func ratchetCRD(withRules bool) string {
	rule := func(s map[string]any, r string) map[string]any {
		if withRules {
			s["x-kubernetes-validations"] = []any{map[string]any{"rule": r}}
		}
		return s
	}
	spec := map[string]any{"type": "object", "properties": map[string]any{
		"other": map[string]any{"type": "string"},
		"tags": map[string]any{"type": "array", "x-kubernetes-list-type": "set",
			"items": rule(map[string]any{"type": "string"}, "self.size() < 5")},
		"ports": rule(map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"name"},
			"items": rule(map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
				"name": map[string]any{"type": "string"}, "port": map[string]any{"type": "integer"}}}, "self.port > 0")},
			"self.all(p, p.port < 100)"),
		"atoms": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
			"inner": rule(map[string]any{"type": "object", "properties": map[string]any{"v": map[string]any{"type": "integer"}}}, "self.v > 0")}}},
	}}
	crd := map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "ratchets.r.example.com"},
		"spec": map[string]any{"group": "r.example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "ratchets", "kind": "Ratchet"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{"spec": spec}}}}}}}
	b, _ := json.Marshal(crd)
	return string(b)
}

func warningsOf(r response) []string {
	var out []string
	for _, h := range r.header.Values("Warning") {
		text, err := strconv.Unquote(strings.TrimPrefix(h, "299 - "))
		if err != nil {
			text = h
		}
		out = append(out, text)
	}
	sort.Strings(out)
	return out
}

// TestCh13_CEL_RatchetCorrelation pins which old values the rules of a tightened schema
// are ratcheted against, as a v1.36.3 server answered each update: items of a map-list
// correlate by key (a reordered list is unchanged), items of a list set or an atomic list
// do not (they ratchet while the whole list is unchanged), and a tolerated failure comes
// back as a Warning, on a refused update too.
func TestCh13_CEL_RatchetCorrelation(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, ratchetCRD(false))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	const path = "/apis/r.example.com/v1/namespaces/default/ratchets"
	r = c.do(http.MethodPost, path, `{"apiVersion":"r.example.com/v1","kind":"Ratchet","metadata":{"name":"r"},"spec":{"other":"a","tags":["toolong","ok"],"ports":[{"name":"a","port":0},{"name":"b","port":200}],"atoms":[{"inner":{"v":0}}]}}`)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do(http.MethodPatch, crdPath+"/ratchets.r.example.com", `{"spec":{"versions":`+versionsOf(t, ratchetCRD(true))+`}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)

	const (
		atoms  = `spec.atoms[0].inner: Invalid value: failed rule: self.v > 0`
		ports  = `spec.ports: Invalid value: failed rule: self.all(p, p.port < 100)`
		port0  = `spec.ports[0]: Invalid value: failed rule: self.port > 0`
		port1  = `spec.ports[1]: Invalid value: failed rule: self.port > 0`
		tags0  = `spec.tags[0]: Invalid value: "toolong": failed rule: self.size() < 5`
		causes = "causes"
	)
	tests := []struct {
		name, patch string
		warnings    []string
		refused     string // the one cause of a 422, "" for a 200
	}{
		{"a sibling changes: every failure tolerated", `{"spec":{"other":"b"}}`, []string{atoms, ports, port0, tags0}, ""},
		{"map-list reordered: still equal by keys", `{"spec":{"ports":[{"name":"b","port":200},{"name":"a","port":0}]}}`, []string{atoms, ports, port1, tags0}, ""},
		{"list set grows: its old items no longer ratchet", `{"spec":{"tags":["toolong","ok","x"]}}`, []string{atoms, ports, port1}, tags0},
		{"atomic list grows: the old item's object fails", `{"spec":{"atoms":[{"inner":{"v":0}},{"inner":{"v":1}}]}}`, []string{ports, port1, tags0}, atoms},
		{"map-list gains an item: the list rule fails, the old item still ratchets", `{"spec":{"ports":[{"name":"b","port":200},{"name":"a","port":0},{"name":"c","port":1}]}}`, []string{atoms, port1, tags0}, ports},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do(http.MethodPatch, path+"/r", tt.patch, "Content-Type", "application/merge-patch+json")
			assert.Empty(t, cmp.Diff(tt.warnings, warningsOf(r)), "warnings")
			if tt.refused == "" {
				assert.Equal(t, http.StatusOK, r.code, "%s", r.body)
				return
			}
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			assert.Equal(t, []string{tt.refused}, causesOf(t, r), causes)
		})
	}
}

// versionsOf returns the JSON of a CRD's spec.versions.
func versionsOf(t *testing.T, crd string) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(crd), &m))
	b, err := json.Marshal(m["spec"].(map[string]any)["versions"])
	require.NoError(t, err)
	return string(b)
}

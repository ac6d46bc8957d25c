package printers

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh13_Printers_CustomResourceColumns checks a custom resource's cells: each column's
// value as its type, empty (nil) when missing or of another type, a date as an age, a string
// column printing any value (objects as JSON), a JSONPath filter, and NAME AGE for a CRD
// without columns; a column whose path does not parse ends the table there.
func TestCh13_Printers_CustomResourceColumns(t *testing.T) {
	p := ForColumns([]Column{
		{Name: "Deployment", Type: "string", JSONPath: ".spec.deploymentName"},
		{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"},
		{Name: "Ratio", Type: "number", JSONPath: ".spec.ratio"},
		{Name: "Ready", Type: "boolean", JSONPath: ".status.ready"},
		{Name: "Selector", Type: "string", JSONPath: ".spec.selector"},
		{Name: "Since", Type: "date", JSONPath: ".metadata.creationTimestamp", Priority: 1},
		{Name: "First", Type: "string", JSONPath: ".spec.items[0]"},
		{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		{Name: "Unparsable", Type: "string", JSONPath: ".spec["},
		{Name: "After", Type: "string", JSONPath: ".spec.deploymentName"},
	})
	require.Len(t, p.columns(), 9, "Name, the eight columns before the one that does not parse")
	require.Equal(t, "Name", p.columns()[0].Name)
	assert.Equal(t, "Custom resource definition column (in JSONPath format): .spec.deploymentName", p.columns()[1].Description)
	assert.Equal(t, int32(1), p.columns()[6].Priority)
	runCellCases(t, p, []cellCase{
		{name: "every type", json: `{"metadata":{"name":"a","creationTimestamp":"2026-01-02T03:05:05Z"},
			"spec":{"deploymentName":"d","replicas":3,"ratio":2,"selector":{"app":"d"},"items":["x"]},
			"status":{"ready":true,"conditions":[{"type":"Other","status":"False"},{"type":"Ready","status":"True"}]}}`,
			want: []any{"a", "d", int64(3), float64(2), true, `{"app":"d"}`, "5m", "x", "True"}},
		{name: "missing and mistyped", json: `{"metadata":{"name":"b","creationTimestamp":"yesterday"},"spec":{"replicas":"three","ratio":"x","deploymentName":null},"status":{"ready":"yes"}}`,
			want: []any{"b", "<no value>", nil, nil, nil, nil, "<invalid>", nil, nil}},
	})
	runCellCases(t, ForColumns(nil), []cellCase{
		{name: "no columns", json: `{"metadata":{"name":"c","creationTimestamp":"2026-01-02T03:09:05Z"}}`, want: []any{"c", "60s"}},
	})
	runCellCases(t, For("apiextensions.k8s.io", "CustomResourceDefinition", true), []cellCase{
		{name: "a CRD", json: `{"metadata":{"name":"foos.example.com","creationTimestamp":"2026-11-26T11:59:00Z"}}`,
			want: []any{"foos.example.com", "2026-11-26T11:59:00Z"}},
	})
}

package printers

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// podRows makes n running pods with two ready containers each, as stored JSON and as the
// Unstructured the server will keep.
func podRows(tb testing.TB, n int, unstructured bool) []Row {
	rows := make([]Row, n)
	for i := range rows {
		js := fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-%d","namespace":"default","uid":"u-%d",
			"resourceVersion":"%d","creationTimestamp":%q,"labels":{"app":"web"}},
			"spec":{"nodeName":"node-1","containers":[{"name":"app","image":"nginx:1.27"},{"name":"log","image":"fluent-bit:4"}]},
			"status":{"phase":"Running","podIP":"10.0.%d.%d","conditions":[{"type":"Ready","status":"True"}],
			"containerStatuses":[{"name":"app","ready":true,"restartCount":0,"state":{"running":{}}},
				{"name":"log","ready":true,"restartCount":1,"state":{"running":{}},"lastState":{"terminated":{"exitCode":1,"finishedAt":%q}}}]}}`,
			i, i, i+1, created, i/256, i%256, created)
		rows[i] = Row{JSON: []byte(js), Object: &api.Pod{}}
		if unstructured {
			rows[i].Object = &api.Unstructured{Object: mustTree(tb, js)}
		}
	}
	return rows
}

// TestCh01_Printers_RowSources checks that a row prints the same whether its object is an
// Unstructured or a typed object read through its JSON, and that a row with neither a tree
// nor valid JSON is skipped.
func TestCh01_Printers_RowSources(t *testing.T) {
	conv := &TableConverter{Printer: podPrinter, Version: "v1", Include: IncludeNone, Now: testNow}
	var fromTree, fromJSON api.Table
	require.NoError(t, json.Unmarshal(conv.Table(api.ListMeta{}, podRows(t, 3, true), true), &fromTree))
	require.NoError(t, json.Unmarshal(conv.Table(api.ListMeta{}, podRows(t, 3, false), true), &fromJSON))
	require.Len(t, fromTree.Rows, 3)
	require.Equal(t, fromTree, fromJSON)
	require.Equal(t, []any{"web-2", "2/2", "Running", "1 (5m ago)", "5m", "10.0.0.2", "node-1", "<none>", "<none>"}, fromTree.Rows[2].Cells)

	var skipped api.Table
	bad := []Row{{Object: &api.Pod{}, JSON: []byte(`not json`)}, {Object: &api.Pod{}}}
	require.NoError(t, json.Unmarshal(conv.Table(api.ListMeta{}, bad, false), &skipped))
	require.Empty(t, skipped.Rows)
}

// BenchmarkTable_1000Pods prints a 1,000-row pod Table, from Unstructured objects (how the
// server is to store them) and from typed objects read through their JSON.
func BenchmarkTable_1000Pods(b *testing.B) {
	for _, tc := range []struct {
		name         string
		unstructured bool
	}{{"Unstructured", true}, {"TypedViaJSON", false}} {
		b.Run(tc.name, func(b *testing.B) {
			rows := podRows(b, 1000, tc.unstructured)
			conv := &TableConverter{Printer: podPrinter, Version: "v1", Now: testNow}
			b.ReportAllocs()
			for b.Loop() {
				if len(conv.Table(api.ListMeta{ResourceVersion: "1000"}, rows, true)) == 0 {
					b.Fatal("empty table")
				}
			}
		})
	}
}

package printers

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_HumanDuration checks the AGE cell format (duration.HumanDuration's rules).
func TestCh01_HumanDuration(t *testing.T) {
	const day, year = 24 * time.Hour, 365 * 24 * time.Hour
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-3 * time.Second, "<invalid>"},
		{-1500 * time.Millisecond, "0s"},
		{0, "0s"},
		{119 * time.Second, "119s"},
		{2 * time.Minute, "2m"},
		{3*time.Minute + 20*time.Second, "3m20s"},
		{10*time.Minute + 59*time.Second, "10m"},
		{179 * time.Minute, "179m"},
		{3 * time.Hour, "3h"},
		{5*time.Hour + 12*time.Minute, "5h12m"},
		{47 * time.Hour, "47h"},
		{2 * day, "2d"},
		{3*day + 4*time.Hour, "3d4h"},
		{8 * day, "8d"},
		{729 * day, "729d"},
		{2*year + 45*day, "2y45d"},
		{3 * year, "3y"},
		{9*year + 100*day, "9y"},
	} {
		assert.Equal(t, tc.want, humanDuration(tc.d), "%v", tc.d)
	}
}

// TestCh01_K15_TableColumnsAndCells checks the printers of K15 on typed objects, read
// through their JSON: pods, configmaps, namespaces and the NAME AGE default, one cell per
// column, priority-1 pod columns, the Completed row condition, and each includeObject
// policy (asTable).
func TestCh01_K15_TableColumnsAndCells(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 10, 5, 0, time.UTC)
	created := api.NewTime(now.Add(-5 * time.Minute))
	running := &api.Pod{
		TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "demo", ResourceVersion: "7", CreationTimestamp: created},
		Spec:       api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c"}, {Name: "d"}}},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.0.0.5",
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
	}
	done := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "b", CreationTimestamp: created},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}, Status: api.PodStatus{Phase: api.PodSucceeded}}
	deleting := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "c", CreationTimestamp: created, DeletionTimestamp: &created},
		Status: api.PodStatus{Phase: api.PodRunning}}
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg", CreationTimestamp: created},
		Data: map[string]string{"a": "1", "b": "2"}, BinaryData: map[string][]byte{"c": {1}}}
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo", CreationTimestamp: created},
		Status: api.NamespaceStatus{Phase: api.NamespaceTerminating}}
	deploy := &api.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "creationTimestamp": "2026-01-02T03:10:00Z"}}}
	bookmark := &api.Pod{ObjectMeta: api.ObjectMeta{ResourceVersion: "9"}}

	row := func(p *Printer, obj api.Object) []any {
		data, err := json.Marshal(obj)
		require.NoError(t, err)
		o, ok := Row{Object: obj, JSON: data}.tree()
		require.True(t, ok)
		cells, _ := p.cells(o, now)
		require.Len(t, cells, len(p.columns()), "one cell per column")
		return cells
	}
	// The typed Pod keeps no container statuses, so no container counts as ready.
	assert.Equal(t, []any{"a", "0/2", "Running", "0", "5m", "10.0.0.5", "node-1", "<none>", "<none>"}, row(podPrinter, running))
	assert.Equal(t, []any{"b", "0/1", "Succeeded", "0", "5m", "<none>", "<none>", "<none>", "<none>"}, row(podPrinter, done))
	assert.Equal(t, "Terminating", row(podPrinter, deleting)[2])
	assert.Equal(t, []any{"cfg", int64(3), "5m"}, row(configMapPrinter, cm))
	assert.Equal(t, []any{"demo", "Terminating", "5m"}, row(namespacePrinter, ns))
	assert.Equal(t, []any{"web", "5s"}, row(defaultPrinter, deploy))
	assert.Equal(t, []any{"", "0/0", "Pending", "0", "<unknown>", "<none>", "<none>", "<none>", "<none>"}, row(podPrinter, bookmark))
	doneJSON, err := json.Marshal(done)
	require.NoError(t, err)
	_, conds := podPrinter.cells(mustTree(t, string(doneJSON)), now)
	assert.Equal(t, []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue, Reason: "Succeeded", Message: "The pod has completed successfully."}}, conds)

	var priorities []int32
	for _, c := range podPrinter.columns() {
		priorities = append(priorities, c.Priority)
	}
	assert.Equal(t, []int32{0, 0, 0, 0, 0, 1, 1, 1, 1}, priorities)

	// includeObject: the row object is PartialObjectMetadata by default and for Metadata, the
	// object itself for Object, absent for None.
	objJSON, err := json.Marshal(running)
	require.NoError(t, err)
	for _, tc := range []struct {
		include, want string
	}{
		{"", `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"demo","resourceVersion":"7","creationTimestamp":"2026-01-02T03:05:05Z"}}`},
		{IncludeMetadata, `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"demo","resourceVersion":"7","creationTimestamp":"2026-01-02T03:05:05Z"}}`},
		{IncludeObject, string(objJSON)},
		{IncludeNone, ""},
	} {
		conv := &TableConverter{Printer: podPrinter, Version: "v1", Include: tc.include, Now: now}
		var tb api.Table
		require.NoError(t, json.Unmarshal(conv.Table(api.ListMeta{ResourceVersion: "7"}, []Row{{Object: running, JSON: objJSON}}, true), &tb))
		require.Len(t, tb.Rows, 1)
		assert.Equal(t, tc.want, string(tb.Rows[0].Object), "includeObject=%q", tc.include)
	}
	// The initial-events-end bookmark keeps its metadata even with None (asTable).
	end := &api.Pod{ObjectMeta: api.ObjectMeta{ResourceVersion: "9", Annotations: map[string]string{api.InitialEventsAnnotationKey: "true"}}}
	endJSON, _ := json.Marshal(end)
	conv := &TableConverter{Printer: podPrinter, Version: "v1", Include: IncludeNone, Now: now}
	var tb api.Table
	require.NoError(t, json.Unmarshal(conv.Table(api.ListMeta{}, []Row{{Object: end, JSON: endJSON}}, false), &tb))
	assert.Contains(t, string(tb.Rows[0].Object), `"k8s.io/initial-events-end":"true"`)
	assert.Nil(t, tb.ColumnDefinitions)
}

package api_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// The goldens in testdata are what a real apiserver sends, trimmed to the fields this
// package keeps; the Status and Table files are the wire spec's examples verbatim.

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// jsonTree decodes JSON the plain way, for comparisons that ignore formatting and member order.
func jsonTree(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}

// memberOrder lists every member name with its path, in document order:
// "metadata", "metadata.name", ..., "spec.containers[].name", ...
func memberOrder(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []string
	var walk func(path string)
	walk = func(path string) {
		tok, err := dec.Token()
		require.NoError(t, err)
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				key, err := dec.Token()
				require.NoError(t, err)
				p := strings.TrimPrefix(path+"."+key.(string), ".")
				out = append(out, p)
				walk(p)
			}
			_, err = dec.Token()
			require.NoError(t, err)
		case json.Delim('['):
			for dec.More() {
				walk(path + "[]")
			}
			_, err = dec.Token()
			require.NoError(t, err)
		}
	}
	walk("")
	return out
}

func ptr[T any](v T) *T { return &v }

func date(h, m, s int) api.Time {
	return api.NewTime(time.Date(2026, 1, 2, h, m, s, 0, time.UTC))
}

func goldenPod() *api.Pod {
	notReady := api.PodCondition{
		Status:             api.ConditionFalse,
		LastTransitionTime: date(4, 0, 6),
		Reason:             "ContainersNotReady",
		Message:            "containers with unready status: [nginx]",
	}
	ready, containersReady := notReady, notReady
	ready.Type, containersReady.Type = api.PodReady, api.ContainersReady
	return &api.Pod{
		TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{
			Name:                       "web-7d4b9c8f6d-x2kqp",
			GenerateName:               "web-7d4b9c8f6d-",
			Namespace:                  "demo",
			UID:                        "6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60",
			ResourceVersion:            "104523",
			Generation:                 2,
			CreationTimestamp:          date(3, 4, 5),
			DeletionTimestamp:          ptr(date(4, 0, 35)),
			DeletionGracePeriodSeconds: ptr(int64(30)),
			Labels:                     map[string]string{"app": "web", "pod-template-hash": "7d4b9c8f6d"},
			Annotations:                map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-01-02T03:00:00Z"},
			OwnerReferences: []api.OwnerReference{{
				APIVersion:         "apps/v1",
				Kind:               "ReplicaSet",
				Name:               "web-7d4b9c8f6d",
				UID:                "0b6e8f3a-2c4d-4e5f-8a9b-c0d1e2f3a4b5",
				Controller:         ptr(true),
				BlockOwnerDeletion: ptr(true),
			}},
			Finalizers: []string{"example.com/drain-connections"},
		},
		Spec: api.PodSpec{
			Containers: []api.Container{
				{Name: "nginx", Image: "nginx:1.27"},
				{Name: "log-shipper", Image: "fluent/fluent-bit:3.1"},
			},
			RestartPolicy:      api.RestartPolicyAlways,
			ServiceAccountName: "default",
			NodeName:           "node-1",
			SchedulerName:      "default-scheduler",
		},
		Status: api.PodStatus{
			Phase: api.PodRunning,
			Conditions: []api.PodCondition{
				{Type: api.PodInitialized, Status: api.ConditionTrue, LastTransitionTime: date(3, 4, 5)},
				ready,
				containersReady,
				{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: date(3, 4, 5)},
			},
			PodIP: "10.244.1.17",
		},
	}
}

func TestAPI_PodGoldenDecode(t *testing.T) {
	obj, err := api.DefaultScheme.Decode(readGolden(t, "pod.json"))
	require.NoError(t, err)
	require.IsType(t, &api.Pod{}, obj)
	assert.Empty(t, cmp.Diff(goldenPod(), obj))
}

// TestAPI_GoldenRoundTrip decodes each golden through the Scheme, encodes it back, and
// expects the same JSON: same values and the same member names in the same order.
func TestAPI_GoldenRoundTrip(t *testing.T) {
	tests := []struct {
		file     string
		wantType api.Object
	}{
		{"pod.json", &api.Pod{}},
		{"configmap.json", &api.ConfigMap{}},
		{"namespace.json", &api.Namespace{}},
		{"status-notfound.json", &api.Status{}},
		{"status-invalid.json", &api.Status{}},
		{"table.json", &api.Table{}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			golden := readGolden(t, tt.file)
			obj, err := api.DefaultScheme.Decode(golden)
			require.NoError(t, err)
			require.IsType(t, tt.wantType, obj)

			encoded, err := api.DefaultScheme.Encode(obj)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(jsonTree(t, golden), jsonTree(t, encoded)))
			order := memberOrder(t, golden)
			require.NotEmpty(t, order)
			assert.Equal(t, order, memberOrder(t, encoded), "member names and their order")
		})
	}
}

func TestAPI_UnstructuredGoldenRoundTrip(t *testing.T) {
	for _, file := range []string{"pod.json", "configmap.json", "namespace.json", "status-notfound.json", "status-invalid.json", "table.json"} {
		t.Run(file, func(t *testing.T) {
			golden := readGolden(t, file)
			u := &api.Unstructured{}
			require.NoError(t, json.Unmarshal(golden, u))
			encoded, err := json.Marshal(u)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(jsonTree(t, golden), jsonTree(t, encoded)))
		})
	}
}

// TestAPI_PodGoldenAccessorsAgree reads the golden pod through the typed and the
// unstructured accessors and expects the same answers.
func TestAPI_PodGoldenAccessorsAgree(t *testing.T) {
	u := &api.Unstructured{}
	require.NoError(t, json.Unmarshal(readGolden(t, "pod.json"), u))
	typed := goldenPod()

	// Integers stay int64 (not float64) in Unstructured.
	meta, _, err := api.NestedMap(u.Object, "metadata")
	require.NoError(t, err)
	assert.Equal(t, int64(2), meta["generation"])

	view := func(m api.MetaObject) map[string]any {
		return map[string]any{
			"name": m.GetName(), "generateName": m.GetGenerateName(), "namespace": m.GetNamespace(),
			"uid": m.GetUID(), "resourceVersion": m.GetResourceVersion(), "generation": m.GetGeneration(),
			"creationTimestamp": m.GetCreationTimestamp(), "deletionTimestamp": m.GetDeletionTimestamp(),
			"grace": m.GetDeletionGracePeriodSeconds(), "labels": m.GetLabels(),
			"annotations": m.GetAnnotations(), "ownerReferences": m.GetOwnerReferences(),
			"finalizers": m.GetFinalizers(),
		}
	}
	assert.Empty(t, cmp.Diff(view(typed), view(u)))
	assert.Equal(t, typed.GroupVersionKind(), u.GroupVersionKind())
}

func TestAPI_TimeEncoding(t *testing.T) {
	// A local zone and nanoseconds: the wire wants UTC, second precision.
	zone := time.FixedZone("UTC+8", 8*3600)
	tests := []struct {
		name     string
		meta     api.ObjectMeta
		wantJSON string
	}{
		{
			name:     "zero times: creationTimestamp is null, nil deletionTimestamp is omitted",
			meta:     api.ObjectMeta{Name: "a"},
			wantJSON: `{"name":"a","creationTimestamp":null}`,
		},
		{
			name: "UTC, seconds only",
			meta: api.ObjectMeta{
				Name:              "a",
				CreationTimestamp: api.NewTime(time.Date(2026, 1, 2, 11, 4, 5, 987654321, zone)),
				DeletionTimestamp: ptr(api.NewTime(time.Date(2026, 1, 2, 3, 4, 6, 1, time.UTC))),
			},
			wantJSON: `{"name":"a","creationTimestamp":"2026-01-02T03:04:05Z","deletionTimestamp":"2026-01-02T03:04:06Z"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(&tt.meta)
			require.NoError(t, err)
			assert.Equal(t, tt.wantJSON, string(got))
		})
	}
}

func TestAPI_EmptyObjectsEncoding(t *testing.T) {
	tests := []struct {
		name string
		obj  any
		want string
	}{
		{"status always has metadata", &api.Status{Status: api.StatusSuccess},
			`{"metadata":{},"status":"Success"}`},
		{"watch table event after the first: null columns", &api.Table{Rows: []api.TableRow{}},
			`{"metadata":{},"columnDefinitions":null,"rows":[]}`},
		{"column definition sends every member", api.TableColumnDefinition{Name: "Name"},
			`{"name":"Name","type":"","format":"","description":"","priority":0}`},
		{"watch event frame", api.WatchEvent{Type: "ADDED", Object: json.RawMessage(`{"kind":"Pod"}`)},
			`{"type":"ADDED","object":{"kind":"Pod"}}`},
		{"pod list with no items", &api.PodList{Items: []api.Pod{}}, `{"metadata":{},"items":[]}`},
		{"unstructured list with nil items", &api.UnstructuredList{}, `{"items":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.obj)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestAPI_TableRowObjectDecodes(t *testing.T) {
	obj, err := api.DefaultScheme.Decode(readGolden(t, "table.json"))
	require.NoError(t, err)
	table := obj.(*api.Table)
	require.Len(t, table.Rows, 1)
	assert.Len(t, table.Rows[0].Cells, len(table.ColumnDefinitions), "one cell per column")

	row, err := api.DefaultScheme.Decode(table.Rows[0].Object)
	require.NoError(t, err)
	want := &api.PartialObjectMetadata{
		TypeMeta: api.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"},
		ObjectMeta: api.ObjectMeta{
			Name: "a", Namespace: "demo", UID: "…", ResourceVersion: "1001",
			CreationTimestamp: date(3, 4, 5),
		},
	}
	assert.Empty(t, cmp.Diff(want, row))
}

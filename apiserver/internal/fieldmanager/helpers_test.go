package fieldmanager

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

var deploymentGVK = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

func deploymentManager(t testing.TB) *FieldManager {
	t.Helper()
	typ, err := typed.ForBuiltin(deploymentGVK, "")
	require.NoError(t, err)
	return New(typ, deploymentGVK)
}

// obj decodes JSON as the server decodes a body: integers stay int64.
func obj(t testing.TB, s string) *api.Unstructured {
	t.Helper()
	u := &api.Unstructured{}
	require.NoError(t, json.Unmarshal([]byte(s), u))
	return u
}

func at(sec int) api.Time { return api.NewTime(time.Date(2026, 1, 2, 3, 4, sec, 0, time.UTC)) }

// entriesOf gives the managedFields of u as manager/operation → FieldsV1 text.
type entrySummary struct {
	Manager, Operation, APIVersion, Subresource, Time, Fields string
}

func entriesOf(t testing.TB, u *api.Unstructured) []entrySummary {
	t.Helper()
	l, _ := managedFieldsOf(u)
	out := make([]entrySummary, 0, len(l))
	for _, v := range l {
		m := v.(map[string]any)
		s := func(k string) string { x, _ := m[k].(string); return x }
		raw, err := json.Marshal(m["fieldsV1"])
		require.NoError(t, err)
		out = append(out, entrySummary{s("manager"), s("operation"), s("apiVersion"), s("subresource"), s("time"), string(raw)})
	}
	return out
}

func readTestdata(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v))
}

// roundTrip makes u what a client reads back: JSON through the wire.
func roundTrip(t testing.TB, u *api.Unstructured) *api.Unstructured {
	t.Helper()
	b, err := json.Marshal(u)
	require.NoError(t, err)
	return obj(t, string(b))
}

package api_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

const fullPod = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","resourceVersion":"7","labels":{"app":"web"}},
"spec":{"containers":[
  {"name":"web","image":"nginx:1.27","env":[{"name":"MODE","value":"prod"}],"ports":[{"containerPort":80,"protocol":"TCP"}],
   "resources":{"limits":{"cpu":"500m"}},"readinessProbe":{"httpGet":{"path":"/","port":80}}},
  {"name":"sidecar","image":"busybox","args":["sleep","3600"]}],
 "tolerations":[{"key":"gpu","operator":"Exists"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always"},
"status":{"phase":"Running","qosClass":"Burstable","hostIP":"10.0.0.1"}}`

func decodeTree(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}

// TestCh00_TypedRoundTripLosesNothing checks that a typed Pod, changed in a field it models,
// encodes every field it does not model as it came.
func TestCh00_TypedRoundTripLosesNothing(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *api.Pod)
		want   func(m map[string]any)
	}{
		{"no change", func(*api.Pod) {}, func(map[string]any) {}},
		{"label added", func(p *api.Pod) { p.Labels["tier"] = "front" }, func(m map[string]any) {
			m["metadata"].(map[string]any)["labels"].(map[string]any)["tier"] = "front"
		}},
		{"image changed keeps env, ports and probes", func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.28" }, func(m map[string]any) {
			m["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"] = "nginx:1.28"
		}},
		{"containers reordered: matched by name", func(p *api.Pod) {
			c := p.Spec.Containers
			c[0], c[1] = c[1], c[0]
		}, func(m map[string]any) {
			c := m["spec"].(map[string]any)["containers"].([]any)
			c[0], c[1] = c[1], c[0]
		}},
		{"container removed", func(p *api.Pod) { p.Spec.Containers = p.Spec.Containers[:1] }, func(m map[string]any) {
			spec := m["spec"].(map[string]any)
			spec["containers"] = spec["containers"].([]any)[:1]
		}},
		{"modeled field cleared", func(p *api.Pod) { p.Spec.RestartPolicy = "" }, func(m map[string]any) {
			delete(m["spec"].(map[string]any), "restartPolicy")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p api.Pod
			require.NoError(t, json.Unmarshal([]byte(fullPod), &p))
			assert.Positive(t, p.Unmodeled.Len())
			c := p.DeepCopy() // copies share the kept JSON
			tc.change(c)
			out, err := json.Marshal(c)
			require.NoError(t, err)
			want := decodeTree(t, []byte(fullPod))
			want["metadata"].(map[string]any)["creationTimestamp"] = nil // as client-go's types encode a zero time
			tc.want(want)
			if diff := cmp.Diff(want, decodeTree(t, out)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCh00_TypedBuiltInGoEncodesAsBefore checks that an object built in Go keeps nothing
// and encodes exactly its fields, and that go-cmp ignores the kept JSON.
func TestCh00_TypedBuiltInGoEncodesAsBefore(t *testing.T) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	out, err := json.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, `{"metadata":{"name":"a","creationTimestamp":null},"spec":{"containers":[{"name":"c","image":"nginx"}]},"status":{}}`, string(out))
	var back api.Pod
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Empty(t, cmp.Diff(p, &back), "go-cmp compares fields only")

	for _, obj := range []api.Object{&api.ConfigMap{}, &api.Namespace{}, &api.Node{}} {
		require.NoError(t, json.Unmarshal([]byte(`{"metadata":{"name":"x"},"extra":{"kept":true}}`), obj))
		out, err := json.Marshal(obj)
		require.NoError(t, err)
		assert.Contains(t, string(out), `"extra":{"kept":true}`, "%T keeps what it does not model", obj)
	}
}

// ExamplePod_MarshalJSON shows a typed Pod that models two container fields keeping the env
// it does not model.
func ExamplePod_MarshalJSON() {
	var p api.Pod
	_ = json.Unmarshal([]byte(`{"metadata":{"name":"web"},"spec":{"containers":[{"name":"web","image":"nginx:1.27","env":[{"name":"MODE","value":"prod"}]}]}}`), &p)
	p.Spec.Containers[0].Image = "nginx:1.28"
	out, _ := json.Marshal(&p)
	fmt.Println(string(out))
	// Output:
	// {"metadata":{"name":"web","creationTimestamp":null},"spec":{"containers":[{"name":"web","image":"nginx:1.28","env":[{"name":"MODE","value":"prod"}]}]},"status":{}}
}

package endpointslice

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

func testPod(name, ip, node string, ready bool) *api.Unstructured {
	r := "False"
	if ready {
		r = "True"
	}
	return &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "namespace": "ns", "uid": "uid-" + name},
		"spec": map[string]any{"nodeName": node, "containers": []any{map[string]any{"name": "c",
			"ports": []any{map[string]any{"name": "http", "containerPort": int64(8080)}}}}},
		"status": map[string]any{"phase": "Running", "podIP": ip, "conditions": []any{map[string]any{"type": "Ready", "status": r}}}}}
}

// TestCh14_EndpointSlice_Reconcile: the reconciler's plan (creates, updates, deletes) for
// the cases the controller meets.
func TestCh14_EndpointSlice_Reconcile(t *testing.T) {
	svc := &app.Service{Metadata: api.ObjectMeta{Name: "web", Namespace: "ns", UID: "svc-uid"},
		Spec: app.ServiceSpec{Selector: map[string]string{"app": "web"}, ClusterIP: "10.96.0.1",
			Ports: []app.ServicePort{{Name: "http", Port: 80, TargetPort: app.IntOrString{IsString: true, StrVal: "http"}}}}}
	nodes := func(n string) *api.Unstructured {
		if n == "n1" {
			return &api.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "n1"}}}
		}
		return nil
	}
	many := func(n int) []*api.Unstructured {
		var out []*api.Unstructured
		for i := range n {
			out = append(out, testPod(fmt.Sprintf("p%03d", i), fmt.Sprintf("10.0.%d.%d", i/200, i%200+1), "n1", true))
		}
		return out
	}
	placeholder := newEndpointSlice(svc, []endpointPort{})
	placeholder.Metadata.Name = "web-abcde"
	foreign := newEndpointSlice(svc, nil)
	foreign.Metadata.Name, foreign.Metadata.OwnerReferences = "web-old", nil
	tests := []struct {
		name                   string
		pods                   []*api.Unstructured
		existing               []*endpointSlice
		creates, updates, dels []int // endpoints of each
		wantErr                bool
	}{
		{"no pods: a placeholder", nil, nil, []int{0}, nil, nil, false},
		{"no pods, placeholder there: nothing", nil, []*endpointSlice{placeholder}, nil, nil, nil, false},
		{"pods without IPs or terminal are skipped", []*api.Unstructured{testPod("a", "", "n1", true)}, []*endpointSlice{placeholder}, nil, nil, nil, false},
		{"150 pods: the placeholder is reused, one slice created", many(150), []*endpointSlice{placeholder}, []int{50}, []int{100}, nil, false},
		{"a slice the Service does not own is deleted, not reused", many(1), []*endpointSlice{foreign}, []int{1}, nil, []int{0}, false},
		{"a pod whose node is missing is skipped, and the sync retried", []*api.Unstructured{testPod("a", "10.0.0.1", "gone", true), testPod("b", "10.0.0.2", "n1", false)}, nil, []int{1}, nil, nil, true},
	}
	count := func(ss []*endpointSlice) []int {
		var out []int
		for _, s := range ss {
			out = append(out, len(s.Endpoints))
		}
		return out
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := reconcile(svc, tc.pods, tc.existing, nodes)
			require.Equal(t, tc.wantErr, err != nil, "%v", err)
			require.Equal(t, tc.creates, count(p.create), "creates")
			require.Equal(t, tc.updates, count(p.update), "updates")
			require.Equal(t, tc.dels, count(p.delete), "deletes")
		})
	}
}

package ch02_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

// TestCh02_DeleteShapes: the runnable-examples article's ListWatch shows several MODIFIED
// events before DELETED when a deployment's pod is deleted. On a real cluster that is
// graceful deletion: the pod is first marked with a deletionTimestamp, the kubelet stops it and
// reports status, and only then is it removed. The simulated apiserver plays a kubelet that has
// already stopped everything, so a plain delete is one DELETED event. A finalizer reproduces
// the real shape: the delete only marks the pod (MODIFIED), status updates still arrive
// (MODIFIED), and removing the finalizer removes it (DELETED).
func TestCh02_DeleteShapes(t *testing.T) {
	tests := []struct {
		name       string
		finalizers []string
		want       []string
	}{
		{"the simulator deletes at once", nil, []string{"DELETED Running deleting=false"}},
		{"a finalizer holds the pod: MODIFIED before DELETED", []string{"example.com/hold"}, []string{
			"MODIFIED Running deleting=true", // the delete only marks it
			"MODIFIED Succeeded deleting=true",
			"DELETED Succeeded deleting=true", // the last finalizer goes, and so does the pod
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			srv := apiserver.New(apiserver.Options{})
			defer srv.Close()
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web", Finalizers: tt.finalizers},
				Spec:   api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
				Status: api.PodStatus{Phase: api.PodRunning}}
			created, err := srv.Create(ctx, "pods", "default", p)
			require.NoError(t, err)
			w, err := srv.Watch(ctx, "pods", "default", api.ListOptions{ResourceVersion: created.(*api.Pod).ResourceVersion})
			require.NoError(t, err)
			defer w.Stop()

			_, err = srv.Delete(ctx, "pods", "default", "web", nil)
			require.NoError(t, err)
			if tt.finalizers != nil {
				obj, err := srv.Get(ctx, "pods", "default", "web")
				require.NoError(t, err)
				marked := obj.(*api.Pod)
				marked.Status.Phase = api.PodSucceeded // the kubelet reports the stopped containers
				_, err = srv.UpdateStatus(ctx, "pods", "default", marked)
				require.NoError(t, err)
				_, err = srv.Patch(ctx, "pods", "default", "web", api.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`))
				require.NoError(t, err)
			}
			var got []string
			for range tt.want {
				select {
				case ev := <-w.ResultChan():
					pod := ev.Object.(*api.Pod)
					got = append(got, fmt.Sprintf("%s %s deleting=%t", ev.Type, pod.Status.Phase, pod.DeletionTimestamp != nil))
				case <-time.After(5 * time.Second):
					t.Fatalf("only %q arrived", got)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

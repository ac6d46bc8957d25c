package clientgo_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/pager"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestInterop_T11_PagerFallsBackOnExpiredContinue: client-go's pager lists 1 item per page;
// after the first page a write happens and the history is compacted, so the continue token
// (which pins the first page's RV, L7) has expired. The server answers the continuation 410
// Expired (L12) and the pager falls back to one unpaged list at the original RV, which holds
// every pod, the new one included (PG-4, T11).
func TestInterop_T11_PagerFallsBackOnExpiredContinue(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	seedPods(t, env.Server, "default", 3)
	cs := env.Clientset(t)
	ctx := context.Background()

	pages := 0
	p := pager.New(pager.SimplePageFunc(func(opts metav1.ListOptions) (runtime.Object, error) {
		list, err := cs.CoreV1().Pods("default").List(ctx, opts)
		pages++
		if pages == 1 {
			// Between the pages: a write, then compaction past the first page's RV.
			if _, cerr := env.Server.Create(ctx, "pods", "default", newPod("default", "between", nil)); cerr != nil {
				return nil, cerr
			}
			env.Server.CompactAll()
		}
		return list, err
	}))
	p.PageSize = 1

	obj, paginated, err := p.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.True(t, paginated, "the pager had started paging when it fell back")
	list, ok := obj.(*corev1.PodList)
	require.True(t, ok, "the fallback returns the full list as is: %T", obj)
	var names []string
	for _, p := range list.Items {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"between", "pod-00000", "pod-00001", "pod-00002"}, names)

	reqs := env.Recorder.ResourceRequests("pods")
	require.Len(t, reqs, 3, "%v", wiretest.Verbs(reqs))
	first, expired, full := reqs[0], reqs[1], reqs[2]

	assert.Equal(t, "list", first.Verb())
	assert.Equal(t, "1", first.Query.Get("limit"))
	assert.Equal(t, http.StatusOK, first.Status)
	_, token := listMeta(t, first.Response)
	require.NotEmpty(t, token)

	assert.Equal(t, "1", expired.Query.Get("limit"))
	assert.Equal(t, token, expired.Query.Get("continue"), "the token from before the compaction")
	assert.Equal(t, http.StatusGone, expired.Status)
	assert.Equal(t, "Expired", expired.StatusReason())

	assert.Equal(t, "list", full.Verb())
	assert.NotContains(t, full.Query, "limit", "the fallback is unpaged")
	assert.NotContains(t, full.Query, "continue")
	assert.Equal(t, http.StatusOK, full.Status)
	_, fullToken := listMeta(t, full.Response)
	assert.Empty(t, fullToken)
}

package clientgo_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestInterop_AutoscalingV1BesideV2 checks client-go's autoscaling/v1 and v2 clients on the
// same objects, in protobuf (client-go's default) and JSON: each version reads what the other
// wrote, converted as the real server converts.
func TestInterop_AutoscalingV1BesideV2(t *testing.T) {
	for _, tc := range []struct{ name, contentType string }{
		{"json", "application/json"},
		{"protobuf (client-go's default)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := wiretest.Start(t, apiserver.Options{})
			cs := env.ClientsetWith(t, tc.contentType)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			v1c, v2c := cs.AutoscalingV1().HorizontalPodAutoscalers("default"), cs.AutoscalingV2().HorizontalPodAutoscalers("default")
			w, err := v1c.Watch(ctx, metav1.ListOptions{})
			require.NoError(t, err)
			defer w.Stop()

			created, err := v1c.Create(ctx, &autoscalingv1.HorizontalPodAutoscaler{
				ObjectMeta: metav1.ObjectMeta{Name: "web"},
				Spec: autoscalingv1.HorizontalPodAutoscalerSpec{
					ScaleTargetRef: autoscalingv1.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
					MaxReplicas:    5, TargetCPUUtilizationPercentage: ptr(int32(50)),
				},
			}, metav1.CreateOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(1), *created.Spec.MinReplicas, "the v1 default")
			assert.Equal(t, int32(50), *created.Spec.TargetCPUUtilizationPercentage)

			v2, err := v2c.Get(ctx, "web", metav1.GetOptions{})
			require.NoError(t, err)
			require.Len(t, v2.Spec.Metrics, 1)
			assert.Equal(t, autoscalingv2.ResourceMetricSourceType, v2.Spec.Metrics[0].Type)
			assert.Equal(t, int32(50), *v2.Spec.Metrics[0].Resource.Target.AverageUtilization)

			v2.Spec.Metrics = append(v2.Spec.Metrics, autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType,
				Pods: &autoscalingv2.PodsMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: "qps"},
					Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("10"))}}})
			_, err = v2c.Update(ctx, v2, metav1.UpdateOptions{})
			require.NoError(t, err)

			got, err := v1c.Get(ctx, "web", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, `[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]`,
				got.Annotations["autoscaling.alpha.kubernetes.io/metrics"])
			got.Spec.MaxReplicas = 8
			_, err = v1c.Update(ctx, got, metav1.UpdateOptions{})
			require.NoError(t, err)
			v2, err = v2c.Get(ctx, "web", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(8), v2.Spec.MaxReplicas)
			assert.Len(t, v2.Spec.Metrics, 2, "the metric v1 cannot show survived its update")
			assert.Empty(t, v2.Annotations)

			list, err := v1c.List(ctx, metav1.ListOptions{})
			require.NoError(t, err)
			require.Len(t, list.Items, 1)
			assert.Equal(t, int32(8), list.Items[0].Spec.MaxReplicas)
			for range 3 { // ADDED, then the two updates
				select {
				case ev := <-w.ResultChan():
					hpa, ok := ev.Object.(*autoscalingv1.HorizontalPodAutoscaler)
					require.True(t, ok, "%T", ev.Object)
					assert.Equal(t, int32(50), *hpa.Spec.TargetCPUUtilizationPercentage)
				case <-ctx.Done():
					t.Fatal("no event")
				}
			}
		})
	}
}

// TestInterop_EvictAndBindThroughClientGo checks client-go's Bind and EvictV1 against the
// binding and eviction subresources, a PodDisruptionBudget refusing with 429.
func TestInterop_EvictAndBindThroughClientGo(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cs := env.Clientset(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pods := cs.CoreV1().Pods("default")
	for _, n := range []string{"db-0", "db-1"} {
		_, err := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: n, Labels: map[string]string{"app": "db"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "postgres:17"}}}}, metav1.CreateOptions{})
		require.NoError(t, err)
		require.NoError(t, pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: n},
			Target: corev1.ObjectReference{Kind: "Node", Name: "node-1"}}, metav1.CreateOptions{}))
		p, err := pods.Get(ctx, n, metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, "node-1", p.Spec.NodeName)
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		_, err = pods.UpdateStatus(ctx, p, metav1.UpdateOptions{})
		require.NoError(t, err)
	}
	err := pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "db-0"}, Target: corev1.ObjectReference{Name: "node-2"}}, metav1.CreateOptions{})
	assert.True(t, apierrors.IsConflict(err), "%v", err)

	pdbs := cs.PolicyV1().PodDisruptionBudgets("default")
	pdb, err := pdbs.Create(ctx, &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "db"},
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr(intstr.FromInt32(1)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	pdb.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2}
	_, err = pdbs.UpdateStatus(ctx, pdb, metav1.UpdateOptions{})
	require.NoError(t, err)

	require.NoError(t, pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "db-0"}}))
	// A bound pod is deleted gracefully: with no kubelet to finish it, it stays Terminating,
	// as on a real server without nodes.
	evicted, err := pods.Get(ctx, "db-0", metav1.GetOptions{})
	require.NoError(t, err)
	assert.NotNil(t, evicted.DeletionTimestamp)
	err = pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "db-1"}})
	require.Error(t, err)
	assert.True(t, apierrors.IsTooManyRequests(err), "%v", err)
	pdb, err = pdbs.Get(ctx, "db", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), pdb.Status.DisruptionsAllowed)
	assert.Contains(t, pdb.Status.DisruptedPods, "db-0")

	cs2, err := cs.CoreV1().ComponentStatuses().Get(ctx, "etcd-0", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.ConditionTrue, cs2.Conditions[0].Status)
}

package ssa_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsac "k8s.io/client-go/applyconfigurations/apps/v1"
	coreac "k8s.io/client-go/applyconfigurations/core/v1"
	metaac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/informer-lab/informer-lab/apiserver"
)

const (
	ns            = "ssa-interop"
	referenceFile = "testdata/reference.json"
	sumsFile      = "testdata/SHA256SUMS"
)

// step is what one client call left: its error, and the object's managedFields (times
// replaced by "<time>" where set) with the fields the scenario is about.
type step struct {
	Name          string            `json:"name"`
	Error         string            `json:"error,omitempty"`
	ManagedFields []map[string]any  `json:"managedFields,omitempty"`
	Labels        map[string]string `json:"labels,omitempty"`
	Replicas      int32             `json:"replicas,omitempty"`
}

func managedOf(entries []metav1.ManagedFieldsEntry) []map[string]any {
	var out []map[string]any
	for _, e := range entries {
		data, _ := json.Marshal(e)
		var m map[string]any
		_ = json.Unmarshal(data, &m)
		if _, ok := m["time"]; ok {
			m["time"] = "<time>"
		}
		out = append(out, m)
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	if st, ok := err.(apierrors.APIStatus); ok {
		return fmt.Sprintf("%d %s: %s", st.Status().Code, st.Status().Reason, st.Status().Message)
	}
	return err.Error()
}

// scenario drives one server with client-go's typed Apply and controller-runtime's Apply.
func scenario(t *testing.T, cfg *rest.Config) []step {
	ctx := context.Background()
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	cr, err := client.New(cfg, client.Options{Scheme: scheme.Scheme})
	require.NoError(t, err)
	_, err = cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	var steps []step
	deployment := func(name string, err error) {
		s := step{Name: name, Error: errText(err)}
		d, gerr := cs.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		require.NoError(t, gerr)
		s.ManagedFields, s.Replicas = managedOf(d.ManagedFields), *d.Spec.Replicas
		steps = append(steps, s)
	}
	configMap := func(name string, err error) {
		s := step{Name: name, Error: errText(err)}
		c, gerr := cs.CoreV1().ConfigMaps(ns).Get(ctx, "c", metav1.GetOptions{})
		require.NoError(t, gerr)
		s.ManagedFields, s.Labels = managedOf(c.ManagedFields), c.Labels
		steps = append(steps, s)
	}
	web := func(replicas int32) *appsac.DeploymentApplyConfiguration {
		return appsac.Deployment("web", ns).WithSpec(appsac.DeploymentSpec().
			WithReplicas(replicas).
			WithSelector(metaac.LabelSelector().WithMatchLabels(map[string]string{"app": "web"})).
			WithTemplate(coreac.PodTemplateSpec().WithLabels(map[string]string{"app": "web"}).
				WithSpec(coreac.PodSpec().WithContainers(coreac.Container().WithName("web").WithImage("nginx")))))
	}

	// client-go: Alice applies, Bob conflicts on replicas, Bob forces.
	_, err = cs.AppsV1().Deployments(ns).Apply(ctx, web(2), metav1.ApplyOptions{FieldManager: "alice"})
	deployment("client-go alice applies", err)
	_, err = cs.AppsV1().Deployments(ns).Apply(ctx, appsac.Deployment("web", ns).WithSpec(appsac.DeploymentSpec().WithReplicas(5)), metav1.ApplyOptions{FieldManager: "bob"})
	deployment("client-go bob conflicts", err)
	_, err = cs.AppsV1().Deployments(ns).Apply(ctx, appsac.Deployment("web", ns).WithSpec(appsac.DeploymentSpec().WithReplicas(5)), metav1.ApplyOptions{FieldManager: "bob", Force: true})
	deployment("client-go bob forces", err)

	// client-go: labels {a, b} applied, c added by an update (its manager from the
	// User-Agent), the applier drops b.
	_, err = cs.CoreV1().ConfigMaps(ns).Apply(ctx, coreac.ConfigMap("c", ns).WithLabels(map[string]string{"a": "1", "b": "2"}), metav1.ApplyOptions{FieldManager: "alice"})
	configMap("client-go applies labels a, b", err)
	cur, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "c", metav1.GetOptions{})
	require.NoError(t, err)
	cur.Labels["c"] = "3"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cur, metav1.UpdateOptions{})
	configMap("client-go update adds c", err)
	_, err = cs.CoreV1().ConfigMaps(ns).Apply(ctx, coreac.ConfigMap("c", ns).WithLabels(map[string]string{"a": "1"}), metav1.ApplyOptions{FieldManager: "alice"})
	configMap("client-go drops b", err)

	// controller-runtime: Client.Apply takes replicas by force, its status client applies a
	// condition, and a ConfigMap it applies keeps its own labels only.
	err = cr.Apply(ctx, appsac.Deployment("web", ns).WithSpec(appsac.DeploymentSpec().WithReplicas(7)), client.FieldOwner("controller"), client.ForceOwnership)
	deployment("controller-runtime applies replicas with force", err)
	err = cr.Apply(ctx, appsac.Deployment("web", ns).WithSpec(appsac.DeploymentSpec().WithReplicas(8)), client.FieldOwner("other"))
	deployment("controller-runtime conflicts", err)
	err = cr.Status().Apply(ctx, appsac.Deployment("web", ns).WithStatus(appsac.DeploymentStatus().WithObservedGeneration(1).
		WithConditions(appsac.DeploymentCondition().WithType(appsv1.DeploymentAvailable).WithStatus(corev1.ConditionTrue).
			WithReason("Ok").WithLastUpdateTime(metav1.Unix(1767225600, 0)).WithLastTransitionTime(metav1.Unix(1767225600, 0)))),
		client.FieldOwner("controller"))
	deployment("controller-runtime applies status", err)
	err = cr.Apply(ctx, coreac.ConfigMap("c", ns).WithLabels(map[string]string{"owner": "controller"}).WithData(map[string]string{"k": "v"}), client.FieldOwner("controller"))
	configMap("controller-runtime applies a ConfigMap", err)
	err = cr.Apply(ctx, coreac.ConfigMap("c", ns).WithData(map[string]string{"k": "v"}), client.FieldOwner("controller"))
	configMap("controller-runtime drops its label", err)
	return steps
}

// TestInterop_SSAManagedFieldsAsReference: client-go's typed Apply and controller-runtime's
// Client.Apply leave the same managedFields, conflicts and objects on the simulator as on
// kube-apiserver v1.36.3 (testdata/reference.json, pinned by testdata/SHA256SUMS).
func TestInterop_SSAManagedFieldsAsReference(t *testing.T) {
	if kc := os.Getenv("SSA_REFERENCE_KUBECONFIG"); kc != "" {
		cfg, err := clientcmd.BuildConfigFromFlags("", kc)
		require.NoError(t, err)
		capture(t, scenario(t, cfg))
		return
	}
	want := reference(t)
	srv := apiserver.New(apiserver.Options{})
	url, err := srv.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	got := scenario(t, &rest.Config{Host: url})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the simulator differs from the reference (-reference +simulator):\n%s", diff)
	}
}

func capture(t *testing.T, steps []step) {
	data, err := json.MarshalIndent(steps, "", "  ")
	require.NoError(t, err)
	data = append(data, '\n')
	require.NoError(t, os.WriteFile(referenceFile, data, 0o644))
	sum := sha256.Sum256(data)
	require.NoError(t, os.WriteFile(sumsFile, fmt.Appendf(nil, "%x  %s\n", sum, filepath.Base(referenceFile)), 0o644))
	t.Logf("captured %d steps into %s", len(steps), referenceFile)
}

// reference reads the captured answers after checking them against SHA256SUMS.
func reference(t *testing.T) []step {
	data, err := os.ReadFile(referenceFile)
	require.NoError(t, err)
	sums, err := os.ReadFile(sumsFile)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	require.Equal(t, fmt.Sprintf("%x  %s", sum, filepath.Base(referenceFile)), strings.TrimSpace(string(sums)), "testdata changed without a capture")
	var steps []step
	require.NoError(t, json.Unmarshal(data, &steps))
	return steps
}

package clientgo_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestInterop_TypedClientsetCRUD drives a typed clientset configured with ContentType JSON
// (wiretest.RESTConfig) through create, get, list, update, merge and strategic-merge patch,
// and delete of namespaces, pods and configmaps, and checks what each call put on the wire.
func TestInterop_TypedClientsetCRUD(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cs := env.Clientset(t)
	ctx := context.Background()

	// Namespace.
	ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "interop"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "interop", ns.Name)
	assert.NotEmpty(t, ns.UID)
	assert.Equal(t, corev1.NamespaceActive, ns.Status.Phase)

	// Pod: create, get, list.
	pods := cs.CoreV1().Pods("interop")
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "nginx", Image: "nginx:1.27"},
			{Name: "sidecar", Image: "busybox:1.36"},
		}},
	}
	created, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "interop", created.Namespace)
	assert.NotEmpty(t, created.UID)
	assert.NotEmpty(t, created.ResourceVersion)
	assert.False(t, created.CreationTimestamp.IsZero())

	got, err := pods.Get(ctx, "web", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(created, got), "GET returns what CREATE returned")

	list, err := pods.List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assert.Equal(t, "web", list.Items[0].Name)
	assert.NotEmpty(t, list.ResourceVersion, "a list always carries its RV (R6)")

	// Update.
	got.Labels["tier"] = "frontend"
	updated, err := pods.Update(ctx, got, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "frontend", updated.Labels["tier"])
	assert.NotEqual(t, got.ResourceVersion, updated.ResourceVersion, "a changing update bumps the RV")

	// JSON merge patch: maps merge key by key.
	merged, err := pods.Patch(ctx, "web", types.MergePatchType, []byte(`{"metadata":{"annotations":{"owner":"team-a"}}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"owner": "team-a"}, merged.Annotations)
	assert.Equal(t, map[string]string{"app": "web", "tier": "frontend"}, merged.Labels)

	// Strategic merge patch: containers merge by name, so the other container stays. A JSON
	// merge patch with the same body would replace the whole list.
	smp, err := pods.Patch(ctx, "web", types.StrategicMergePatchType, []byte(`{"spec":{"containers":[{"name":"sidecar","image":"busybox:1.37"}]}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	require.Len(t, smp.Spec.Containers, 2)
	assert.Equal(t, "nginx:1.27", smp.Spec.Containers[0].Image)
	assert.Equal(t, "busybox:1.37", smp.Spec.Containers[1].Image)

	// ConfigMap: create, list, update, both patches, delete.
	cms := cs.CoreV1().ConfigMaps("interop")
	cm, err := cms.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "settings"},
		Data:       map[string]string{"color": "blue", "size": "m"},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	cmList, err := cms.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, cmList.Items, 1)
	cm.Data["shape"] = "round"
	cm, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"color": "blue", "size": "m", "shape": "round"}, cm.Data)
	cm, err = cms.Patch(ctx, "settings", types.MergePatchType, []byte(`{"data":{"size":null,"color":"red"}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"color": "red", "shape": "round"}, cm.Data, "null deletes a key in a merge patch")
	cm, err = cms.Patch(ctx, "settings", types.StrategicMergePatchType, []byte(`{"data":{"shape":"square"}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"color": "red", "shape": "square"}, cm.Data)
	require.NoError(t, cms.Delete(ctx, "settings", metav1.DeleteOptions{}))
	_, err = cms.Get(ctx, "settings", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "deleted configmap: %v", err)

	// Pod delete is immediate on the simulator (apiserver/doc.go item 7).
	require.NoError(t, pods.Delete(ctx, "web", metav1.DeleteOptions{}))
	_, err = pods.Get(ctx, "web", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "deleted pod: %v", err)

	// Namespace delete: Terminating (NS1–NS4); with no namespace controller running, the
	// test plays its last step, the finalize subresource, and then the namespace goes.
	require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, "interop", metav1.DeleteOptions{}))
	terminating, err := cs.CoreV1().Namespaces().Get(ctx, "interop", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.NamespaceTerminating, terminating.Status.Phase)
	assert.Equal(t, []corev1.FinalizerName{corev1.FinalizerKubernetes}, terminating.Spec.Finalizers)
	terminating.Spec.Finalizers = nil
	_, err = cs.CoreV1().Namespaces().Finalize(ctx, terminating, metav1.UpdateOptions{})
	require.NoError(t, err)
	waitFor(t, "namespace interop to go", func() bool {
		_, err := cs.CoreV1().Namespaces().Get(ctx, "interop", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
	nsList, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	var names []string
	for _, n := range nsList.Items {
		names = append(names, n.Name)
	}
	assert.ElementsMatch(t, []string{"default", "kube-public", "kube-system"}, names)

	// The wire: JSON bodies for create and update, the patch type for patches, JSON accepted.
	wantBody := map[string]string{
		"create": "application/json",
		"update": "application/json",
	}
	var seen []string
	for _, r := range env.Recorder.Requests() {
		seen = append(seen, fmt.Sprintf("%s %s %s %d", r.Method, r.Verb(), r.Resource(), r.Status))
		if want, ok := wantBody[r.Verb()]; ok {
			assert.Equal(t, want, r.ContentType, "%s %s", r.Method, r.Path)
		}
		if r.Verb() == "patch" {
			assert.Contains(t, []string{string(types.MergePatchType), string(types.StrategicMergePatchType)}, r.ContentType)
		}
		assert.Equal(t, "application/json, */*", r.Accept, "%s %s", r.Method, r.Path)
	}
	require.GreaterOrEqual(t, len(seen), 18)
	assert.Equal(t, []string{
		"POST create namespaces 201",
		"POST create pods 201", "GET get pods 200", "GET list pods 200", "PUT update pods 200",
		"PATCH patch pods 200", "PATCH patch pods 200",
		"POST create configmaps 201", "GET list configmaps 200", "PUT update configmaps 200",
		"PATCH patch configmaps 200", "PATCH patch configmaps 200",
		"DELETE delete configmaps 200", "GET get configmaps 404",
		"DELETE delete pods 200", "GET get pods 404",
		"DELETE delete namespaces 200",
	}, seen[:17])
	// Then the namespace GETs of waitFor, until one is 404.
	assert.Equal(t, "GET get namespaces 404", seen[len(seen)-2])
	assert.Equal(t, "GET list namespaces 200", seen[len(seen)-1])
	assert.Empty(t, distinct(env.Warnings()), "the server knows every field client-go sends: no warnings")
	// The server counted the same requests (its own RequestInfo, not ours).
	counts := env.Server.RequestCounts()
	assert.Equal(t, 1, counts[apiserver.RequestKey{Verb: "create", Resource: "pods"}])
	assert.Equal(t, 2, counts[apiserver.RequestKey{Verb: "patch", Resource: "pods"}])
	assert.Equal(t, 2, counts[apiserver.RequestKey{Verb: "patch", Resource: "configmaps"}])
}

// TestInterop_DefaultConfigSpeaksProtobuf checks CG1 and N2: client-go with a default
// rest.Config (ContentType empty) writes protobuf bodies and asks for protobuf back, and so
// does one set to protobuf explicitly; both work against the simulator, as against a real
// server, and so does ContentType application/json.
func TestInterop_DefaultConfigSpeaksProtobuf(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Data: map[string]string{"k": "v"}}

	tests := []struct {
		name, contentType, wantBody, wantAccept, wantAnswer string
	}{
		{"client-go default (protobuf)", "", "application/vnd.kubernetes.protobuf",
			"application/vnd.kubernetes.protobuf,application/json", "application/vnd.kubernetes.protobuf"},
		{"ContentType protobuf", "application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf",
			"application/vnd.kubernetes.protobuf, */*", "application/vnd.kubernetes.protobuf"},
		{"ContentType application/json", "application/json", "application/json", "application/json, */*", "application/json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env.Recorder.Reset()
			cs, err := kubernetes.NewForConfig(&rest.Config{
				Host:          env.URL,
				ContentConfig: rest.ContentConfig{ContentType: tc.contentType},
				QPS:           100,
				Burst:         100,
			})
			require.NoError(t, err)

			_, err = cs.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
			require.NoError(t, err)
			created, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
			require.NoError(t, err)
			assert.Equal(t, map[string]string{"k": "v"}, created.Data)
			created.Data["k"] = "w"
			updated, err := cs.CoreV1().ConfigMaps("default").Update(ctx, created, metav1.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, "w", updated.Data["k"])
			require.NoError(t, cs.CoreV1().ConfigMaps("default").Delete(ctx, "c", metav1.DeleteOptions{}))
			_, err = cs.CoreV1().ConfigMaps("default").Get(ctx, "c", metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "%v", err)

			reqs := env.Recorder.Requests()
			require.GreaterOrEqual(t, len(reqs), 5)
			assert.Equal(t, tc.wantAccept, reqs[0].Accept)
			assert.Equal(t, "create", reqs[1].Verb())
			assert.Equal(t, tc.wantBody, reqs[1].ContentType)
			assert.Equal(t, http.StatusCreated, reqs[1].Status)
			assert.Equal(t, tc.wantBody, reqs[2].ContentType, "update")
			isProtobuf := bytes.HasPrefix(reqs[1].Response, []byte("k8s\x00"))
			assert.Equal(t, tc.wantAnswer == "application/vnd.kubernetes.protobuf", isProtobuf, "the answer's encoding")
		})
	}
}

// distinct returns the distinct warnings, with list indexes folded to [*].
func distinct(msgs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		m = foldIndexes(m)
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// foldIndexes rewrites every "[<digits>]" in s to "[*]".
func foldIndexes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '[' {
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(s) && s[j] == ']' {
				b.WriteString("[*]")
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

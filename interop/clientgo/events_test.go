package clientgo_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestInterop_EventsOneStorageTwoViews: an Event written through client-go's EventsV1
// client (protobuf, client-go's default) is listed through CoreV1 with its core members,
// and one written through CoreV1 is read through EventsV1, as on a real server; each view's
// field selectors apply.
func TestInterop_EventsOneStorageTwoViews(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cs := env.ClientsetWith(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	now := metav1.NewMicroTime(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	_, err := cs.EventsV1().Events("default").Create(ctx, &eventsv1.Event{ObjectMeta: meta("v1-ev"), EventTime: now,
		ReportingController: "example.com/ctl", ReportingInstance: "ctl-1", Action: "Reconcile", Reason: "Synced",
		Type: "Normal", Note: "in sync", Regarding: corev1.ObjectReference{Kind: "Deployment", Name: "d", Namespace: "default"}},
		metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.CoreV1().Events("default").Create(ctx, &corev1.Event{ObjectMeta: meta("core-ev"),
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p", Namespace: "default"}, Reason: "Started",
		Message: "started", Type: "Normal", Source: corev1.EventSource{Component: "kubelet"}}, metav1.CreateOptions{})
	require.NoError(t, err)

	core, err := cs.CoreV1().Events("default").Get(ctx, "v1-ev", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "in sync", core.Message)
	assert.Equal(t, "example.com/ctl", core.ReportingController)
	assert.Equal(t, "d", core.InvolvedObject.Name)
	v1, err := cs.EventsV1().Events("default").Get(ctx, "core-ev", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "started", v1.Note)
	assert.Equal(t, "kubelet", v1.DeprecatedSource.Component)
	assert.Equal(t, "p", v1.Regarding.Name)

	coreList, err := cs.CoreV1().Events("default").List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=Deployment"})
	require.NoError(t, err)
	require.Len(t, coreList.Items, 1)
	assert.Equal(t, "v1-ev", coreList.Items[0].Name)
	v1List, err := cs.EventsV1().Events("default").List(ctx, metav1.ListOptions{FieldSelector: "regarding.kind=Pod"})
	require.NoError(t, err)
	require.Len(t, v1List.Items, 1)
	assert.Equal(t, "core-ev", v1List.Items[0].Name)
	all, err := cs.EventsV1().Events("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, all.Items, 2)
}

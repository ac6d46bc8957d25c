package job_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/harness/cluster"
	"github.com/informer-lab/informer-lab/internal/trace"
)

const ns = "default"

// jobObject is a Job's JSON shape; spec entries override the defaults.
func jobObject(name string, spec map[string]any) map[string]any {
	s := map[string]any{
		"template": map[string]any{
			"spec": map[string]any{
				"restartPolicy": "Never",
				"containers":    []any{map[string]any{"name": "work", "image": "busybox"}},
			},
		},
	}
	for k, v := range spec {
		s[k] = v
	}
	return map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"name": name}, "spec": s}
}

// podsOf lists the Job's pods (by its job-name label), sorted by name.
func podsOf(t testing.TB, c *cluster.Cluster, job string) []api.Unstructured {
	t.Helper()
	var out []api.Unstructured
	for _, p := range c.List(t, app.Pods, ns) {
		if p.GetLabels()["batch.kubernetes.io/job-name"] == job {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b api.Unstructured) int { return strings.Compare(a.GetName(), b.GetName()) })
	return out
}

// activePods are the Job's pods not finished and not being deleted.
func activePods(t testing.TB, c *cluster.Cluster, job string) []api.Unstructured {
	t.Helper()
	var out []api.Unstructured
	for _, p := range podsOf(t, c, job) {
		if app.IsPodActive(&p) {
			out = append(out, p)
		}
	}
	return out
}

// finishPod plays the kubelet: the pod's one container terminated with exitCode, and the
// pod Succeeded (0) or Failed.
func finishPod(t testing.TB, c *cluster.Cluster, pod api.Unstructured, exitCode int64) {
	t.Helper()
	p := pod.DeepCopy()
	phase, reason := "Succeeded", "Completed"
	if exitCode != 0 {
		phase, reason = "Failed", "Error"
	}
	now := time.Now().UTC().Format(time.RFC3339)
	p.Object["status"] = map[string]any{
		"phase": phase,
		"containerStatuses": []any{map[string]any{
			"name": "work", "image": "busybox", "imageID": "", "ready": false, "restartCount": int64(0),
			"state": map[string]any{"terminated": map[string]any{"exitCode": exitCode, "reason": reason, "startedAt": now, "finishedAt": now}},
		}},
	}
	_, err := c.Client.Resource(app.Pods).Namespace(ns).UpdateStatus(context.Background(), p, api.UpdateOptions{})
	require.NoError(t, err)
}

// runPod plays the kubelet starting the pod: Running and Ready.
func runPod(t testing.TB, c *cluster.Cluster, pod api.Unstructured) {
	t.Helper()
	p := pod.DeepCopy()
	now := time.Now().UTC().Format(time.RFC3339)
	p.Object["status"] = map[string]any{
		"phase":      "Running",
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": now}},
		"containerStatuses": []any{map[string]any{
			"name": "work", "image": "busybox", "imageID": "", "ready": true, "restartCount": int64(0),
			"state": map[string]any{"running": map[string]any{"startedAt": now}},
		}},
	}
	_, err := c.Client.Resource(app.Pods).Namespace(ns).UpdateStatus(context.Background(), p, api.UpdateOptions{})
	require.NoError(t, err)
}

// jobStatus reads the Job's status as a map ({} while absent).
func jobStatus(t testing.TB, c *cluster.Cluster, name string) map[string]any {
	t.Helper()
	j := c.Get(t, app.Jobs, ns, name)
	require.NotNil(t, j)
	st := app.NestedMap(j.Object, "status")
	if st == nil {
		st = map[string]any{}
	}
	return st
}

func statusInt(st map[string]any, field string) int64 {
	n, _ := app.NestedInt64(st, field)
	return n
}

// condition returns the Job's condition of type t (nil if absent).
func condition(st map[string]any, t string) map[string]any {
	list, _ := st["conditions"].([]any)
	for _, c := range list {
		if m, _ := c.(map[string]any); m["type"] == t {
			return m
		}
	}
	return nil
}

// eventsFor lists "reason: message" of the events about the named object, oldest first.
func eventsFor(t testing.TB, c *cluster.Cluster, name string) []string {
	t.Helper()
	var out []string
	evs := c.List(t, api.GroupVersionResource{Version: "v1", Resource: "events"}, ns)
	slices.SortStableFunc(evs, func(a, b api.Unstructured) int {
		return strings.Compare(app.NestedString(a.Object, "firstTimestamp"), app.NestedString(b.Object, "firstTimestamp"))
	})
	for _, e := range evs {
		if app.NestedString(e.Object, "involvedObject", "name") == name {
			out = append(out, app.NestedString(e.Object, "reason")+": "+app.NestedString(e.Object, "message"))
		}
	}
	return out
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// hops collects the trace records of a cluster's controllers. The events the Recorder
// writes are checked through its "event" hops as well: two events about one object at the
// same virtual instant get the same name on the server, and the second is refused.
type hops struct {
	mu   sync.Mutex
	recs []*trace.Record
}

func (h *hops) logger() *slog.Logger {
	return slog.New(trace.NewTap(func(r *trace.Record) {
		h.mu.Lock()
		h.recs = append(h.recs, r)
		h.mu.Unlock()
	}))
}

// reasons lists the reasons of the events component recorded about key, in order.
func (h *hops) reasons(component, key string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.recs {
		if r.Is(component, "event") && r.Key == key {
			out = append(out, r.Text("reason"))
		}
	}
	return out
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

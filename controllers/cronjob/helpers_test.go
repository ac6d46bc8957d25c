package cronjob_test

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
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

// cronJobObject is a CronJob's JSON shape; spec entries override the defaults.
func cronJobObject(name, schedule string, spec map[string]any) map[string]any {
	s := map[string]any{
		"schedule": schedule,
		"jobTemplate": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": name}, "annotations": map[string]any{"note": "from-template"}},
			"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
				"restartPolicy": "Never", "containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}},
		},
	}
	for k, v := range spec {
		s[k] = v
	}
	return map[string]any{"apiVersion": "batch/v1", "kind": "CronJob", "metadata": map[string]any{"name": name}, "spec": s}
}

// jobsOf lists the Jobs the CronJob controls, by name (= by schedule).
func jobsOf(t testing.TB, c *cluster.Cluster, cronJob string) []api.Unstructured {
	t.Helper()
	var out []api.Unstructured
	for _, j := range c.List(t, app.Jobs, ns) {
		if ref := app.GetControllerOf(&j); ref != nil && ref.Kind == "CronJob" && ref.Name == cronJob && j.GetDeletionTimestamp() == nil {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, func(a, b api.Unstructured) int { return strings.Compare(a.GetName(), b.GetName()) })
	return out
}

func names(js []api.Unstructured) []string {
	out := []string{}
	for _, j := range js {
		out = append(out, j.GetName())
	}
	return out
}

// finishJob plays the Job controller: the Job Complete (or Failed) now.
func finishJob(t testing.TB, c *cluster.Cluster, j api.Unstructured, succeeded bool) {
	t.Helper()
	now := time.Now().UTC().Format(time.RFC3339)
	// The Job controller sets startTime at the Job's first sync, right after its creation.
	st := map[string]any{"startTime": j.GetCreationTimestamp().UTC().Format(time.RFC3339)}
	if succeeded {
		st["conditions"] = []any{
			map[string]any{"type": "SuccessCriteriaMet", "status": "True", "lastProbeTime": now, "lastTransitionTime": now, "reason": "CompletionsReached"},
			map[string]any{"type": "Complete", "status": "True", "lastProbeTime": now, "lastTransitionTime": now, "reason": "CompletionsReached"},
		}
		st["completionTime"] = now
		st["succeeded"] = int64(1)
	} else {
		st["conditions"] = []any{
			map[string]any{"type": "FailureTarget", "status": "True", "lastProbeTime": now, "lastTransitionTime": now, "reason": "BackoffLimitExceeded"},
			map[string]any{"type": "Failed", "status": "True", "lastProbeTime": now, "lastTransitionTime": now, "reason": "BackoffLimitExceeded"},
		}
		st["failed"] = int64(1)
	}
	cur := c.Get(t, app.Jobs, ns, j.GetName())
	require.NotNil(t, cur)
	cur.Object["status"] = st
	_, err := c.Client.Resource(app.Jobs).Namespace(ns).UpdateStatus(context.Background(), cur, api.UpdateOptions{})
	require.NoError(t, err)
}

// advance moves virtual time on by d and a second (an activation at d is synced 100 ms
// after it) and lets the cluster catch up.
func advance(c *cluster.Cluster, d time.Duration) {
	time.Sleep(d + time.Second)
	c.Settle()
}

// at is a time of the bubble's first day (synctest starts at 2000-01-01T00:00:00Z).
func at(hhmm string) time.Time {
	t, err := time.Parse(time.RFC3339, "2000-01-01T"+hhmm+":00Z")
	if err != nil {
		panic(err)
	}
	return t
}

// jobName is <cronjob>-<scheduled minutes since the epoch>.
func jobName(cronJob string, scheduled time.Time) string {
	return cronJob + "-" + strconv.FormatInt(scheduled.Unix()/60, 10)
}

func cronStatus(t testing.TB, c *cluster.Cluster, name string) map[string]any {
	t.Helper()
	cj := c.Get(t, app.CronJobs, ns, name)
	require.NotNil(t, cj)
	st := app.NestedMap(cj.Object, "status")
	if st == nil {
		st = map[string]any{}
	}
	return st
}

func activeNames(st map[string]any) []string {
	out := []string{}
	list, _ := st["active"].([]any)
	for _, r := range list {
		m, _ := r.(map[string]any)
		out = append(out, m["name"].(string))
	}
	return out
}

// hops collects the controllers' trace records; events are checked through the
// Recorder's "event" hops too (two events about one object at the same virtual instant
// would share a name on the server, and the second be refused).
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

func (h *hops) reasons(key string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.recs {
		if r.Is("cronjob-controller", "event") && r.Key == key {
			out = append(out, r.Text("reason"))
		}
	}
	return out
}

func patchSpec(t testing.TB, c *cluster.Cluster, name, patch string) {
	t.Helper()
	_, err := c.Client.Resource(app.CronJobs).Namespace(ns).Patch(context.Background(), name, api.MergePatchType, []byte(patch), api.PatchOptions{})
	require.NoError(t, err)
}

// eventsAbout lists "reason: message" of the events about the named object.
func eventsAbout(t testing.TB, c *cluster.Cluster, name string) []string {
	t.Helper()
	var out []string
	for _, e := range c.List(t, api.GroupVersionResource{Version: "v1", Resource: "events"}, ns) {
		if app.NestedString(e.Object, "involvedObject", "name") == name {
			out = append(out, app.NestedString(e.Object, "reason")+": "+app.NestedString(e.Object, "message"))
		}
	}
	return out
}

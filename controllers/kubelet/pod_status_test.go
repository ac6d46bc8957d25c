package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func scripted(ann map[string]string, restart string, probeDelay int64) *api.Unstructured {
	c := map[string]any{"name": "c", "image": "busybox"}
	if probeDelay > 0 {
		c["readinessProbe"] = map[string]any{"initialDelaySeconds": probeDelay}
	}
	spec := map[string]any{"nodeName": "sim-node-0", "containers": []any{c}}
	if restart != "" {
		spec["restartPolicy"] = restart
	}
	u := &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "p", "namespace": "ns", "uid": "u1"}, "spec": spec,
		"status": map[string]any{"phase": "Pending"}}}
	if ann != nil {
		u.SetAnnotations(ann)
	}
	return u
}

// step runs the state machine at at and returns the action, the wait and the container's
// status.
func step(pod *api.Unstructured, at time.Time) (action, time.Duration, map[string]any) {
	a, w, _ := computePodStatus(pod, podEnv{node: "sim-node-0", hostIP: "172.18.0.2", podIP: "10.244.0.2", now: at})
	cs, _ := app.Nested(pod.Object, "status", "containerStatuses")
	list, _ := cs.([]any)
	var st map[string]any
	if len(list) > 0 {
		st, _ = list[0].(map[string]any)
	}
	return a, w, st
}

// TestCh14_Kubelet_PodStatusMachine: the scripted containers' states, phases and
// conditions for each restart policy, exit code and readiness delay.
func TestCh14_Kubelet_PodStatusMachine(t *testing.T) {
	t.Run("runs and becomes ready after the probe delay", func(t *testing.T) {
		pod := scripted(nil, "", 5)
		a, _, st := step(pod, t0)
		require.Equal(t, actStatus, a)
		assert.Equal(t, "Running", app.PodPhase(pod))
		assert.Equal(t, false, st["ready"])
		assert.Equal(t, "10.244.0.2", app.NestedString(pod.Object, "status", "podIP"))
		assert.Equal(t, "False", app.PodConditionStatus(pod, "Ready"))
		assert.Equal(t, "True", app.PodConditionStatus(pod, "PodReadyToStartContainers"))
		assert.Equal(t, "True", app.PodConditionStatus(pod, "Initialized"))
		assert.Equal(t, "True", app.PodConditionStatus(pod, "PodScheduled"))
		a, w, _ := step(pod, t0.Add(time.Second))
		assert.Equal(t, actNone, a)
		assert.Equal(t, 4*time.Second, w)
		a, _, st = step(pod, t0.Add(5*time.Second))
		assert.Equal(t, actStatus, a)
		assert.Equal(t, true, st["ready"])
		assert.Equal(t, "True", app.PodConditionStatus(pod, "Ready"))
		assert.Equal(t, "True", app.PodConditionStatus(pod, "ContainersReady"))
	})
	tests := []struct {
		name     string
		restart  string
		code     string
		phase    string
		restarts int64
		waiting  string
	}{
		{"Never, exit 0: Succeeded", "Never", "0", "Succeeded", 0, ""},
		{"Never, exit 3: Failed", "Never", "3", "Failed", 0, ""},
		{"OnFailure, exit 0: Succeeded", "OnFailure", "0", "Succeeded", 0, ""},
		{"OnFailure, exit 1: restarts", "OnFailure", "1", "Running", 0, "CrashLoopBackOff"},
		{"Always, exit 0: restarts", "Always", "0", "Running", 0, "CrashLoopBackOff"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := scripted(map[string]string{RunSecondsAnnotation: "10", ExitCodeAnnotation: tc.code}, tc.restart, 0)
			step(pod, t0)
			step(pod, t0)
			a, w, _ := step(pod, t0.Add(time.Second))
			assert.Equal(t, actNone, a)
			assert.Equal(t, 9*time.Second, w, "wakes when the container exits")
			a, _, st := step(pod, t0.Add(10*time.Second))
			require.Equal(t, actStatus, a)
			assert.Equal(t, tc.phase, app.PodPhase(pod))
			assert.Equal(t, tc.restarts, st["restartCount"])
			if tc.waiting == "" {
				code, _ := app.NestedInt64(st, "state", "terminated", "exitCode")
				assert.Equal(t, tc.code, map[int64]string{0: "0", 1: "1", 3: "3"}[code])
				assert.Equal(t, "False", app.PodConditionStatus(pod, "Ready"))
				return
			}
			assert.Equal(t, tc.waiting, app.NestedString(st, "state", "waiting", "reason"))
			assert.NotEmpty(t, app.NestedMap(st, "lastState", "terminated"))
			// The back-off (10 s) then a new instance.
			a, w, _ = step(pod, t0.Add(15*time.Second))
			assert.Equal(t, actNone, a)
			assert.Equal(t, 5*time.Second, w)
			a, _, st = step(pod, t0.Add(20*time.Second))
			require.Equal(t, actStatus, a)
			assert.Equal(t, int64(1), st["restartCount"])
			assert.NotNil(t, app.NestedMap(st, "state", "running"))
		})
	}
	t.Run("graceful delete: killed at the end of the grace period, then deleted", func(t *testing.T) {
		pod := scripted(map[string]string{StopSecondsAnnotation: "60"}, "", 0) // ignores SIGTERM
		step(pod, t0)
		step(pod, t0)
		at := api.NewTime(t0.Add(40 * time.Second))
		grace := int64(30)
		pod.SetDeletionTimestamp(&at)
		pod.SetDeletionGracePeriodSeconds(&grace)
		a, w, _ := step(pod, t0.Add(10*time.Second))
		assert.Equal(t, actNone, a)
		assert.Equal(t, 30*time.Second, w)
		a, _, st := step(pod, t0.Add(40*time.Second))
		require.Equal(t, actStatus, a)
		code, _ := app.NestedInt64(st, "state", "terminated", "exitCode")
		assert.Equal(t, int64(137), code)
		assert.Equal(t, "Failed", app.PodPhase(pod))
		a, _, _ = step(pod, t0.Add(40*time.Second))
		assert.Equal(t, actDelete, a)
	})
	t.Run("graceful delete: stop-seconds shortens it, exit 0", func(t *testing.T) {
		pod := scripted(map[string]string{StopSecondsAnnotation: "2"}, "", 0)
		step(pod, t0)
		at := api.NewTime(t0.Add(40 * time.Second))
		grace := int64(30)
		pod.SetDeletionTimestamp(&at)
		pod.SetDeletionGracePeriodSeconds(&grace)
		a, w, _ := step(pod, t0.Add(10*time.Second))
		assert.Equal(t, actNone, a)
		assert.Equal(t, 2*time.Second, w)
		a, _, _ = step(pod, t0.Add(12*time.Second))
		require.Equal(t, actStatus, a)
		assert.Equal(t, "Succeeded", app.PodPhase(pod))
	})
	t.Run("deleted before it started: deleted at once", func(t *testing.T) {
		pod := scripted(nil, "", 0)
		at := api.NewTime(t0.Add(30 * time.Second))
		pod.SetDeletionTimestamp(&at)
		a, _, _ := step(pod, t0)
		assert.Equal(t, actDelete, a)
	})
}

// TestCh14_Kubelet_Backoff: 10 s doubling to 5 min.
func TestCh14_Kubelet_Backoff(t *testing.T) {
	for restarts, want := range []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second, 300 * time.Second, 300 * time.Second} {
		assert.Equal(t, want, backoff(int64(restarts)), "restarts=%d", restarts)
	}
}

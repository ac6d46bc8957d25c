package kubelet

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The annotations a pod's author sets to script its containers (contract 4); nothing in
// client-go mirrors them: they are ours, as KWOK's stages are its own.
const (
	RunSecondsAnnotation  = "sim.informer-lab.dev/run-seconds"
	ExitCodeAnnotation    = "sim.informer-lab.dev/exit-code"
	StopSecondsAnnotation = "sim.informer-lab.dev/stop-seconds"

	// DefaultStop is how long a container takes to stop after a delete when no annotation
	// says: a second, as a server that handles SIGTERM (nginx) takes, so a deleted pod of a
	// workshop goes within a second or two instead of after its whole grace period.
	DefaultStop = time.Second
)

// action is what a sync of one pod does.
type action int

const (
	actNone   action = iota
	actStatus        // post the new status
	actDelete        // the final delete with gracePeriodSeconds 0
)

// podEnv is what a pod's status needs from its node.
type podEnv struct {
	node, hostIP, podIP string
	now                 time.Time
}

// computePodStatus mirrors the kubelet's generateAPIPodStatus for a simulated runtime: the
// status pod should have at env.now, what to do, and when to look again (0: not before the
// next event). pod is a private copy; its status is changed in place.
func computePodStatus(pod *api.Unstructured, env podEnv) (action, time.Duration, string) {
	phase := app.PodPhase(pod)
	deleting := pod.GetDeletionTimestamp() != nil
	if phase == "Succeeded" || phase == "Failed" {
		if deleting {
			return actDelete, 0, "terminal pod is being deleted"
		}
		return actNone, 0, ""
	}
	status := app.NestedMap(pod.Object, "status")
	if status == nil {
		status = map[string]any{}
		pod.Object["status"] = status
	}
	before := api.DeepCopyJSONValue(status)
	started := len(asList(status["containerStatuses"])) > 0
	if deleting && !started {
		return actDelete, 0, "pod deleted before its containers started"
	}
	if !started {
		startPod(pod, status, env)
		return actStatus, 0, "containers started"
	}
	var wait time.Duration
	cause := "containers progressed"
	if deleting {
		var stopped string
		if wait, stopped = stopPod(pod, status, env.now); stopped != "" {
			cause = stopped
		}
	} else {
		wait = progressContainers(pod, status, env.now)
	}
	setConditions(pod, status, env.now)
	if reflect.DeepEqual(before, status) {
		return actNone, wait, ""
	}
	return actStatus, wait, cause
}

// startPod posts the first Running status: sandbox ready, init containers done, containers
// running but not yet ready.
func startPod(pod *api.Unstructured, status map[string]any, env podEnv) {
	now := stamp(env.now)
	status["phase"] = "Running"
	status["startTime"] = now
	status["hostIP"] = env.hostIP
	status["hostIPs"] = []any{map[string]any{"ip": env.hostIP}}
	status["podIP"] = env.podIP
	status["podIPs"] = []any{map[string]any{"ip": env.podIP}}
	var inits []any
	for _, c := range containers(pod, "initContainers") {
		st := containerStatus(pod, c, 0)
		st["state"] = map[string]any{"terminated": map[string]any{"exitCode": int64(0), "reason": "Completed",
			"startedAt": now, "finishedAt": now, "containerID": st["containerID"]}}
		st["ready"] = true
		st["started"] = false
		inits = append(inits, st)
	}
	if inits != nil {
		status["initContainerStatuses"] = inits
	}
	var cs []any
	for _, c := range containers(pod, "containers") {
		st := containerStatus(pod, c, 0)
		st["state"] = map[string]any{"running": map[string]any{"startedAt": now}}
		cs = append(cs, st)
	}
	status["containerStatuses"] = cs
	setConditions(pod, status, env.now)
}

// containerStatus is a ContainerStatus of c, not ready, for its restart'th instance.
func containerStatus(pod *api.Unstructured, c map[string]any, restart int64) map[string]any {
	name, _ := c["name"].(string)
	image, _ := c["image"].(string)
	return map[string]any{
		"name": name, "image": image, "imageID": imageID(image),
		"containerID":  containerID(pod.GetUID(), name, restart),
		"ready":        false,
		"started":      true,
		"restartCount": restart,
	}
}

// progressContainers runs the containers' scripts: readiness after the probe's initial
// delay, exits after run-seconds, restarts after the back-off. It returns the time to the
// next change.
func progressContainers(pod *api.Unstructured, status map[string]any, now time.Time) time.Duration {
	ann := pod.GetAnnotations()
	run, hasRun := annotationSeconds(ann, RunSecondsAnnotation)
	code, _ := strconv.ParseInt(ann[ExitCodeAnnotation], 10, 64)
	policy := app.NestedString(pod.Object, "spec", "restartPolicy")
	specs := map[string]map[string]any{}
	for _, c := range containers(pod, "containers") {
		n, _ := c["name"].(string)
		specs[n] = c
	}
	var next []time.Duration
	for _, x := range asList(status["containerStatuses"]) {
		st, _ := x.(map[string]any)
		spec := specs[fmt.Sprint(st["name"])]
		state, _ := st["state"].(map[string]any)
		restarts, _ := app.NestedInt64(st, "restartCount")
		switch {
		case state["running"] != nil:
			startedAt := parseTime(app.NestedString(state, "running", "startedAt"))
			if hasRun && !now.Before(startedAt.Add(run)) {
				exitContainer(pod, st, startedAt, now, code, policy)
				if d := restartWait(st, now); d > 0 {
					next = append(next, d)
				}
				continue
			}
			if hasRun {
				next = append(next, startedAt.Add(run).Sub(now))
			}
			ready := startedAt.Add(readinessDelay(spec))
			st["ready"] = !now.Before(ready)
			if now.Before(ready) {
				next = append(next, ready.Sub(now))
			}
		case state["waiting"] != nil:
			if d := restartWait(st, now); d > 0 {
				next = append(next, d)
				continue
			}
			st["restartCount"] = restarts + 1
			st["containerID"] = containerID(pod.GetUID(), fmt.Sprint(st["name"]), restarts+1)
			st["state"] = map[string]any{"running": map[string]any{"startedAt": stamp(now)}}
			st["started"] = true
			st["ready"] = readinessDelay(spec) == 0
			next = append(next, time.Nanosecond) // look again: readiness and the next exit
		}
	}
	if allTerminated(status) {
		status["phase"] = terminalPhase(status)
	}
	return earliest(next)
}

// exitContainer ends a running container with code at now; a restartable one waits in
// CrashLoopBackOff with its last state kept.
func exitContainer(pod *api.Unstructured, st map[string]any, startedAt, now time.Time, code int64, policy string) {
	reason := "Completed"
	if code != 0 {
		reason = "Error"
	}
	term := map[string]any{"exitCode": code, "reason": reason, "startedAt": stamp(startedAt),
		"finishedAt": stamp(now), "containerID": st["containerID"]}
	st["ready"] = false
	st["started"] = false
	restart := policy == "" || policy == "Always" || (policy == "OnFailure" && code != 0)
	if !restart {
		st["state"] = map[string]any{"terminated": term}
		return
	}
	st["lastState"] = map[string]any{"terminated": term}
	restarts, _ := app.NestedInt64(st, "restartCount")
	st["state"] = map[string]any{"waiting": map[string]any{"reason": "CrashLoopBackOff",
		"message": fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)",
			backoff(restarts), st["name"], pod.GetName(), pod.GetNamespace(), pod.GetUID())}}
}

// backoff mirrors the kubelet's container restart back-off: 10 s doubling, at most 5 min.
func backoff(restarts int64) time.Duration {
	d := 10 * time.Second
	for range min(restarts, 5) {
		d *= 2
	}
	return min(d, 5*time.Minute)
}

// restartWait is how long a container waiting in CrashLoopBackOff still waits (≤ 0: now).
func restartWait(st map[string]any, now time.Time) time.Duration {
	fin := app.NestedString(st, "lastState", "terminated", "finishedAt")
	if fin == "" || app.NestedMap(st, "state", "waiting") == nil {
		return 0
	}
	restarts, _ := app.NestedInt64(st, "restartCount")
	return parseTime(fin).Add(backoff(restarts)).Sub(now)
}

// stopPod plays the containers' stop after a delete: at the stop time every container
// still running is terminated (0 when it stopped by itself within stop-seconds, 137 when
// killed at the end of the grace period) and the pod takes its terminal phase.
func stopPod(pod *api.Unstructured, status map[string]any, now time.Time) (time.Duration, string) {
	deadline := pod.GetDeletionTimestamp().Time
	code, reason := int64(137), "Error"
	stop, ok := annotationSeconds(pod.GetAnnotations(), StopSecondsAnnotation)
	if !ok {
		stop = DefaultStop
	}
	grace := int64(0)
	if g := pod.GetDeletionGracePeriodSeconds(); g != nil {
		grace = *g
	}
	if at := deadline.Add(-time.Duration(grace) * time.Second).Add(stop); at.Before(deadline) {
		deadline, code, reason = at, 0, "Completed"
	}
	if now.Before(deadline) {
		return deadline.Sub(now), ""
	}
	for _, x := range asList(status["containerStatuses"]) {
		st, _ := x.(map[string]any)
		state, _ := st["state"].(map[string]any)
		if state["terminated"] != nil {
			continue
		}
		startedAt := parseTime(app.NestedString(state, "running", "startedAt"))
		if startedAt.IsZero() {
			startedAt = now
		}
		st["state"] = map[string]any{"terminated": map[string]any{"exitCode": code, "reason": reason,
			"startedAt": stamp(startedAt), "finishedAt": stamp(now), "containerID": st["containerID"]}}
		st["ready"] = false
		st["started"] = false
	}
	status["phase"] = terminalPhase(status)
	return 0, "containers stopped after the delete"
}

// setConditions mirrors the kubelet's pod conditions: PodReadyToStartContainers,
// Initialized, ContainersReady and Ready (no readiness gates), keeping PodScheduled and the
// transition times of conditions whose status did not change.
func setConditions(pod *api.Unstructured, status map[string]any, now time.Time) {
	var unready []string
	terminal := status["phase"] == "Succeeded" || status["phase"] == "Failed"
	for _, x := range asList(status["containerStatuses"]) {
		st, _ := x.(map[string]any)
		if st["ready"] != true {
			unready = append(unready, fmt.Sprint(st["name"]))
		}
	}
	ready := cond("True", "", "")
	switch {
	case terminal:
		ready = cond("False", "PodCompleted", "")
	case len(unready) > 0:
		ready = cond("False", "ContainersNotReady", "containers with unready status: ["+strings.Join(unready, " ")+"]")
	}
	sandbox := "True"
	if terminal {
		sandbox = "False"
	}
	want := map[string]map[string]any{
		"PodReadyToStartContainers": cond(sandbox, "", ""),
		"Initialized":               cond("True", "", ""),
		"ContainersReady":           ready,
		"Ready":                     maps.Clone(ready),
	}
	old := map[string]map[string]any{}
	var out []any
	if !hasCondition(asList(status["conditions"]), "PodScheduled") {
		// a pod created bound (spec.nodeName) never went through a binding
		out = append(out, map[string]any{"type": "PodScheduled", "status": "True", "lastTransitionTime": stamp(now)})
	}
	for _, x := range asList(status["conditions"]) {
		c, _ := x.(map[string]any)
		t := fmt.Sprint(c["type"])
		if _, ours := want[t]; ours {
			old[t] = c
			continue
		}
		out = append(out, c)
	}
	for _, t := range []string{"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady"} {
		c := want[t]
		c["type"] = t
		c["lastTransitionTime"] = stamp(now)
		if o := old[t]; o != nil && o["status"] == c["status"] {
			c["lastTransitionTime"] = o["lastTransitionTime"]
		}
		out = append(out, c)
	}
	status["conditions"] = out
}

func cond(status, reason, message string) map[string]any {
	c := map[string]any{"status": status}
	if reason != "" {
		c["reason"] = reason
	}
	if message != "" {
		c["message"] = message
	}
	return c
}

func hasCondition(list []any, t string) bool {
	for _, x := range list {
		if c, _ := x.(map[string]any); c["type"] == t {
			return true
		}
	}
	return false
}

// allTerminated reports whether every container has terminated for good.
func allTerminated(status map[string]any) bool {
	list := asList(status["containerStatuses"])
	for _, x := range list {
		st, _ := x.(map[string]any)
		if app.NestedMap(st, "state", "terminated") == nil {
			return false
		}
	}
	return len(list) > 0
}

// terminalPhase mirrors getPhase for a pod whose containers all ended: Succeeded when every
// one exited 0, else Failed.
func terminalPhase(status map[string]any) string {
	for _, x := range asList(status["containerStatuses"]) {
		st, _ := x.(map[string]any)
		if c, _ := app.NestedInt64(st, "state", "terminated", "exitCode"); c != 0 {
			return "Failed"
		}
	}
	return "Succeeded"
}

func readinessDelay(spec map[string]any) time.Duration {
	if spec == nil || spec["readinessProbe"] == nil {
		return 0
	}
	s, _ := app.NestedInt64(spec, "readinessProbe", "initialDelaySeconds")
	return time.Duration(s) * time.Second
}

func containers(pod *api.Unstructured, list string) []map[string]any {
	var out []map[string]any
	for _, x := range asList(app.NestedMap(pod.Object, "spec")[list]) {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func annotationSeconds(ann map[string]string, key string) (time.Duration, bool) {
	v, ok := ann[key]
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

func asList(v any) []any { l, _ := v.([]any); return l }

func earliest(ds []time.Duration) time.Duration {
	var out time.Duration
	for _, d := range ds {
		if d > 0 && (out == 0 || d < out) {
			out = d
		}
	}
	return out
}

// stamp formats a status time as the API does, to the second.
func stamp(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func parseTime(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }

// imageID and containerID are stable digests, as a runtime reports them.
func imageID(image string) string {
	ref := image
	if !strings.Contains(strings.Split(image, "/")[0], ".") {
		ref = "docker.io/library/" + image
	}
	ref, _, _ = strings.Cut(ref, ":")
	return ref + "@sha256:" + digest(image)
}

func containerID(uid, name string, restart int64) string {
	return "containerd://" + digest(fmt.Sprintf("%s/%s/%d", uid, name, restart))
}

func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// SimulatedNodeAnnotation marks a Node whose kubelet is simulated (it is set to "true" by
// the simulated kubelet when it registers its Node). For a pod on such a node the log
// subresource answers from the pod's status instead of calling a kubelet, since no kubelet
// listens (simulatedLog). Nothing in Kubernetes mirrors it; KWOK marks its nodes the same way
// with kwok.x-k8s.io/node. It is ours.
const SimulatedNodeAnnotation = "sim.informer-lab.dev/simulated"

// simulatedLog writes the log of a container on a simulated node: one line per start of the
// container, derived from its status (restartCount, state and lastState), in the form
//
//	Started container <name> (image <image>) on node <node>, restart <i>
//
// for i from 0 to restartCount (with previous=true, up to restartCount-1: the earlier
// instances). With timestamps=true each line begins with the start's time in RFC 3339 with
// nanoseconds, as the kubelet prefixes lines; a start older than the last two, whose time the
// status no longer holds, carries status.startTime. tailLines and limitBytes apply; follow,
// sinceSeconds and sinceTime are accepted and ignored. It reports false when the node is not
// simulated (the caller then answers as for a real kubelet).
func (s *endpoints) simulatedLog(w http.ResponseWriter, r *http.Request, node, container string, pod map[string]any, opts podLogOptions) bool {
	n, err := s.getObject(r, "nodes", "", node)
	if err != nil {
		return false
	}
	meta, _ := n["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	if ann[SimulatedNodeAnnotation] != "true" {
		return false
	}
	podName := ""
	if pm, _ := pod["metadata"].(map[string]any); pm != nil {
		podName, _ = pm["name"].(string)
	}
	status, _ := pod["status"].(map[string]any)
	cs := containerStatusOf(status, container)
	running := startOf(cs["state"])
	if cs == nil || running.IsZero() {
		if opts.previous {
			writeError(w, api.NewBadRequest(fmt.Sprintf("previous terminated container %q in pod %q not found", container, podName)))
			return true
		}
		reason := "ContainerCreating"
		if st, _ := cs["state"].(map[string]any); st != nil {
			if wt, _ := st["waiting"].(map[string]any); wt != nil {
				if r, _ := wt["reason"].(string); r != "" {
					reason = r
				}
			}
		}
		writeError(w, api.NewBadRequest(fmt.Sprintf("container %q in pod %q is waiting to start: %s", container, podName, reason)))
		return true
	}
	restarts := intMember(cs, "restartCount")
	last := restarts
	if opts.previous {
		if restarts == 0 {
			writeError(w, api.NewBadRequest(fmt.Sprintf("previous terminated container %q in pod %q not found", container, podName)))
			return true
		}
		last = restarts - 1
	}
	image, _ := cs["image"].(string)
	podStart, _ := time.Parse(time.RFC3339, fmt.Sprint(status["startTime"]))
	previous := startOf(cs["lastState"])
	var lines []string
	for i := 0; i <= last; i++ {
		at := podStart
		switch i {
		case restarts:
			at = running
		case restarts - 1:
			if !previous.IsZero() {
				at = previous
			}
		}
		line := fmt.Sprintf("Started container %s (image %s) on node %s, restart %d\n", container, image, node, i)
		if opts.timestamps {
			line = at.UTC().Format(time.RFC3339Nano) + " " + line
		}
		lines = append(lines, line)
	}
	if opts.tailLines != nil && int64(len(lines)) > *opts.tailLines {
		lines = lines[int64(len(lines))-*opts.tailLines:]
	}
	out := strings.Join(lines, "")
	if opts.limitBytes != nil && int64(len(out)) > *opts.limitBytes {
		out = out[:*opts.limitBytes]
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(out))
	return true
}

// containerStatusOf finds the status of the named container among the pod's init, regular
// and ephemeral container statuses.
func containerStatusOf(status map[string]any, name string) map[string]any {
	for _, list := range []string{"initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"} {
		items, _ := status[list].([]any)
		for _, c := range items {
			if m, _ := c.(map[string]any); m != nil && m["name"] == name {
				return m
			}
		}
	}
	return nil
}

// startOf reads startedAt of a ContainerState's running or terminated member.
func startOf(state any) time.Time {
	st, _ := state.(map[string]any)
	for _, k := range []string{"running", "terminated"} {
		if m, _ := st[k].(map[string]any); m != nil {
			if s, _ := m["startedAt"].(string); s != "" {
				if t, err := time.Parse(time.RFC3339, s); err == nil {
					return t
				}
			}
		}
	}
	return time.Time{}
}

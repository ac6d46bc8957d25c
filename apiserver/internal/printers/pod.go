package printers

import (
	"net"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

var podPrinter = &Printer{
	specs: []col{
		nameColumn(),
		column("Ready", "string", text("The aggregate readiness state of this pod for accepting traffic.")),
		column("Status", "string", text("The aggregate status of the containers in this pod.")),
		column("Restarts", "string", text("The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.")),
		ageColumn(),
		wide("IP", "string", doc(coreV1+"PodStatus", "podIP")),
		wide("Node", "string", doc(coreV1+"PodSpec", "nodeName")),
		wide("Nominated Node", "string", doc(coreV1+"PodStatus", "nominatedNodeName")),
		wide("Readiness Gates", "string", doc(coreV1+"PodSpec", "readinessGates")),
	},
	cells: podCells,
}

// The row conditions of a pod that has finished, as printPod sets them.
var (
	podSucceededConditions = []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue, Reason: "Succeeded", Message: "The pod has completed successfully."}}
	podFailedConditions    = []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue, Reason: "Failed", Message: "The pod failed."}}
)

// podCells mirrors printPod: READY counts the containers that are ready and running (sidecar
// init containers included), STATUS is the phase unless a container status explains more,
// RESTARTS adds up the restart counts.
func podCells(o object, now time.Time) ([]any, []api.TableRowCondition) {
	spec, status := o.obj("spec"), o.obj("status")
	// kube-apiserver sets phase Pending when it creates a pod, so a stored pod always has one.
	phase := status.str("phase")
	if phase == "" {
		phase = "Pending"
	}
	reason := phase
	if r := status.str("reason"); r != "" {
		reason = r
	}
	conditions := status.objects("conditions")
	for _, c := range conditions {
		if c.str("type") == "PodScheduled" && c.str("reason") == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	var rowConds []api.TableRowCondition
	switch phase {
	case "Succeeded":
		rowConds = podSucceededConditions
	case "Failed":
		rowConds = podFailedConditions
	}

	initSpecs := spec.objects("initContainers")
	total := len(spec.list("containers"))
	sidecars := map[string]bool{} // init containers with restartPolicy Always
	for _, c := range initSpecs {
		if c.str("restartPolicy") == "Always" {
			sidecars[c.str("name")] = true
			total++
		}
	}

	var (
		restarts, sidecarRestarts int64
		lastRestart, lastSidecar  time.Time
		ready                     int
		initializing              bool
	)
	for i, cs := range status.objects("initContainerStatuses") {
		n := cs.int("restartCount")
		finished, _ := cs.time("lastState", "terminated", "finishedAt")
		restarts += n
		lastRestart = later(lastRestart, finished)
		sidecar := sidecars[cs.str("name")]
		if sidecar {
			sidecarRestarts += n
			lastSidecar = later(lastSidecar, finished)
		}
		terminated, waiting := cs.obj("state", "terminated"), cs.obj("state", "waiting")
		started, _ := cs.boolean("started")
		if terminated != nil && terminated.int("exitCode") == 0 {
			continue
		}
		if sidecar && started {
			if isReady, _ := cs.boolean("ready"); isReady {
				ready++
			}
			continue
		}
		// This init container has not finished: the pod is still initializing.
		initializing = true
		switch {
		case terminated != nil:
			reason = "Init:" + exitReason(terminated)
		case waiting.str("reason") != "" && waiting.str("reason") != "PodInitializing":
			reason = "Init:" + waiting.str("reason")
		default:
			reason = "Init:" + strconv.Itoa(i) + "/" + strconv.Itoa(len(initSpecs))
		}
		break
	}

	if !initializing || conditionTrue(conditions, "Initialized") {
		restarts, lastRestart = sidecarRestarts, lastSidecar
		hasRunning, errorReason := false, ""
		statuses := status.objects("containerStatuses")
		for i := len(statuses) - 1; i >= 0; i-- {
			cs := statuses[i]
			restarts += cs.int("restartCount")
			finished, _ := cs.time("lastState", "terminated", "finishedAt")
			lastRestart = later(lastRestart, finished)
			terminated, waiting := cs.obj("state", "terminated"), cs.obj("state", "waiting")
			isReady, _ := cs.boolean("ready")
			switch {
			case waiting.str("reason") != "":
				reason = waiting.str("reason")
			case terminated != nil:
				reason = exitReason(terminated)
				if terminated.int("exitCode") != 0 {
					errorReason = reason
				}
			case isReady && cs.has("state", "running"):
				hasRunning = true
				ready++
			}
		}
		// A pod whose last container to report completed but which still runs others is
		// not Completed.
		if reason == "Completed" {
			switch {
			case hasRunning && conditionTrue(conditions, "Ready"):
				reason = "Running"
			case errorReason != "":
				reason = errorReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}

	if o.deleting() {
		if status.str("reason") == "NodeLost" {
			reason = "Unknown"
		} else if phase != "Succeeded" && phase != "Failed" {
			reason = "Terminating"
		}
	}

	restartCell := strconv.FormatInt(restarts, 10)
	if restarts != 0 && !lastRestart.IsZero() {
		restartCell += " (" + since(lastRestart, true, now) + " ago)"
	}

	return []any{
		o.name(),
		strconv.Itoa(ready) + "/" + strconv.Itoa(total),
		reason,
		restartCell,
		age(o, now),
		orNone(podIP(status)),
		orNone(spec.str("nodeName")),
		orNone(status.str("nominatedNodeName")),
		readinessGates(spec, conditions),
	}, rowConds
}

// exitReason is how a terminated container reads: its reason, else its signal, else its
// exit code.
func exitReason(terminated object) string {
	if r := terminated.str("reason"); r != "" {
		return r
	}
	if sig := terminated.int("signal"); sig != 0 {
		return "Signal:" + strconv.FormatInt(sig, 10)
	}
	return "ExitCode:" + strconv.FormatInt(terminated.int("exitCode"), 10)
}

// podIP is the pod's first IP. The v1 podIP wins over podIPs when both are set, as the v1 to
// internal conversion decides.
func podIP(status object) string {
	if ip := status.str("podIP"); ip != "" {
		return ip
	}
	if ips := status.objects("podIPs"); len(ips) > 0 {
		return ips[0].str("ip")
	}
	return ""
}

// readinessGates is "true/total" over spec.readinessGates, or "<none>" without gates.
func readinessGates(spec object, conditions []object) string {
	gates := spec.objects("readinessGates")
	if len(gates) == 0 {
		return "<none>"
	}
	n := 0
	for _, g := range gates {
		if conditionTrue(conditions, g.str("conditionType")) {
			n++
		}
	}
	return strconv.Itoa(n) + "/" + strconv.Itoa(len(gates))
}

// conditionTrue reports whether the first condition of type typ has status True.
func conditionTrue(conditions []object, typ string) bool {
	for _, c := range conditions {
		if c.str("type") == typ {
			return c.str("status") == "True"
		}
	}
	return false
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// hostPort joins an address and a port as net.JoinHostPort does (brackets for IPv6).
func hostPort(ip string, port int64) string {
	return net.JoinHostPort(ip, strconv.FormatInt(port, 10))
}

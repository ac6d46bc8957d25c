package podautoscaler

import (
	"fmt"
	"math"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The defaults of kube-controller-manager's flags the calculator follows.
const (
	defaultTolerance              = 0.1             // --horizontal-pod-autoscaler-tolerance
	cpuInitializationPeriod       = 5 * time.Minute // --horizontal-pod-autoscaler-cpu-initialization-period
	delayOfInitialReadinessStatus = 30 * time.Second
)

// podGroups mirrors what groupPods returns.
type podGroups struct {
	ready            int
	unready, missing map[string]bool
	ignored          map[string]bool
}

// groupPods mirrors groupPods: deleting and failed pods are ignored, pending ones unready,
// pods without a reading missing; for cpu a pod also counts as unready while it starts
// (within the initialization period and not ready, or never ready yet). Simulated readings
// have no collection window, so a reading is never older than a readiness change.
func groupPods(pods []*api.Unstructured, readings map[string]podReading, resource string, now time.Time) podGroups {
	g := podGroups{unready: map[string]bool{}, missing: map[string]bool{}, ignored: map[string]bool{}}
	for _, pod := range pods {
		name := pod.GetName()
		phase := app.PodPhase(pod)
		if pod.GetDeletionTimestamp() != nil || phase == "Failed" {
			g.ignored[name] = true
			continue
		}
		if phase == "Pending" {
			g.unready[name] = true
			continue
		}
		if _, ok := readings[name]; !ok {
			g.missing[name] = true
			continue
		}
		if resource == "cpu" {
			status, transition := readyCondition(pod)
			start, hasStart := timeAt(pod, "status", "startTime")
			unready := false
			switch {
			case status == "" || !hasStart:
				unready = true
			case start.Add(cpuInitializationPeriod).After(now):
				unready = status == "False"
			default:
				unready = status == "False" && start.Add(delayOfInitialReadinessStatus).After(transition)
			}
			if unready {
				g.unready[name] = true
				continue
			}
		}
		g.ready++
	}
	return g
}

func readyCondition(pod *api.Unstructured) (string, time.Time) {
	list, _ := app.Nested(pod.Object, "status", "conditions")
	items, _ := list.([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		if m["type"] == "Ready" {
			s, _ := m["status"].(string)
			ts, _ := m["lastTransitionTime"].(string)
			t, _ := time.Parse(time.RFC3339, ts)
			return s, t
		}
	}
	return "", time.Time{}
}

func timeAt(u *api.Unstructured, path ...string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, app.NestedString(u.Object, path...))
	return t, err == nil
}

// podRequest mirrors calculatePodRequests for one pod: the sum of its containers' requests of
// resource, in milli-units.
func podRequest(pod *api.Unstructured, resource string) (int64, error) {
	cs, _ := app.Nested(pod.Object, "spec", "containers")
	list, _ := cs.([]any)
	var sum int64
	for _, c := range list {
		cm, _ := c.(map[string]any)
		q, _ := app.Nested(cm, "resources", "requests", resource)
		s, ok := q.(string)
		if !ok {
			if n, isNum := api.AsInt64(q); isNum {
				s, ok = fmt.Sprint(n), true
			}
		}
		if !ok {
			return 0, fmt.Errorf("missing request for %s in container %s of Pod %s", resource, cm["name"], pod.GetName())
		}
		v, err := parseMilli(s)
		if err != nil {
			return 0, err
		}
		sum += v
	}
	return sum, nil
}

// usage returns the reading as milli-units: a utilization is a share of the request.
func (r podReading) usage(request int64) int64 {
	if r.utilization != nil {
		return request * *r.utilization / 100
	}
	return r.milli
}

// resourceReplicas mirrors ReplicaCalculator.GetResourceReplicas with a utilization target
// (target > 0) or an average-value target (targetMilli > 0): the proposed replica count, the
// utilization (percent of request) and the average usage (milli-units).
func resourceReplicas(current int32, target int32, targetMilli int64, resource string, pods []*api.Unstructured, readings map[string]podReading, now time.Time) (int32, int32, int64, error) {
	if len(pods) == 0 {
		return 0, 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	g := groupPods(pods, readings, resource, now)
	usage := map[string]int64{}
	requests := map[string]int64{}
	for _, pod := range pods {
		name := pod.GetName()
		req, err := podRequest(pod, resource)
		if err != nil && (target > 0 || readings[name].utilization != nil) {
			return 0, 0, 0, err
		}
		requests[name] = req
		if r, ok := readings[name]; ok && !g.ignored[name] && !g.unready[name] {
			usage[name] = r.usage(req)
		}
	}
	if len(usage) == 0 {
		return 0, 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	ratioOf := func(u map[string]int64) (float64, int32, int64) {
		var sumUsage, sumReq int64
		for name, v := range u {
			sumUsage += v
			sumReq += requests[name]
		}
		avg := sumUsage / int64(len(u))
		if target > 0 {
			if sumReq == 0 {
				return 0, 0, avg
			}
			util := int32(sumUsage * 100 / sumReq)
			return float64(util) / float64(target), util, avg
		}
		return float64(sumUsage) / (float64(targetMilli) * float64(len(u))), 0, avg
	}
	ratio, util, avg := ratioOf(usage)
	scaleUpWithUnready := len(g.unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(g.missing) == 0 {
		if math.Abs(1.0-ratio) <= defaultTolerance {
			return current, util, avg, nil
		}
		return int32(math.Ceil(ratio * float64(g.ready))), util, avg, nil
	}
	// missing pods count at their request (scaling down) or nothing (scaling up); unready
	// pods count as nothing when scaling up
	for name := range g.missing {
		if ratio < 1.0 {
			if target > 0 {
				usage[name] = requests[name] * int64(max(100, target)) / 100
			} else {
				usage[name] = targetMilli
			}
		} else {
			usage[name] = 0
		}
	}
	if scaleUpWithUnready {
		for name := range g.unready {
			usage[name] = 0
		}
	}
	newRatio, _, _ := ratioOf(usage)
	if math.Abs(1.0-newRatio) <= defaultTolerance || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return current, util, avg, nil
	}
	n := int32(math.Ceil(newRatio * float64(len(usage))))
	if (newRatio < 1.0 && n > current) || (newRatio > 1.0 && n < current) {
		return current, util, avg, nil
	}
	return n, util, avg, nil
}

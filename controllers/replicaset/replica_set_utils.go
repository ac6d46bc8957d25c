package replicaset

import (
	"context"
	"log/slog"
	"reflect"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Status is apps/v1 ReplicaSetStatus's JSON shape.
type Status struct {
	Replicas             int32       `json:"replicas"`
	FullyLabeledReplicas int32       `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32       `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32       `json:"availableReplicas,omitempty"`
	TerminatingReplicas  *int32      `json:"terminatingReplicas,omitempty"`
	ObservedGeneration   int64       `json:"observedGeneration,omitempty"`
	Conditions           []Condition `json:"conditions,omitempty"`
}

// Condition is apps/v1 ReplicaSetCondition's JSON shape.
type Condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// ReplicaFailure is apps.ReplicaSetReplicaFailure.
const ReplicaFailure = "ReplicaFailure"

// replicaSet is the typed view of the fields the controller reads.
type replicaSet struct {
	replicas        int32
	minReadySeconds int32
	template        map[string]any
	status          Status
}

func newReplicaSet(u *api.Unstructured) *replicaSet {
	rs := &replicaSet{replicas: 1, template: app.NestedMap(u.Object, "spec", "template")}
	if n, ok := app.NestedInt64(u.Object, "spec", "replicas"); ok {
		rs.replicas = int32(n)
	}
	if n, ok := app.NestedInt64(u.Object, "spec", "minReadySeconds"); ok {
		rs.minReadySeconds = int32(n)
	}
	rs.status = StatusOf(u)
	return rs
}

// StatusOf reads a ReplicaSet's status (zero when absent or malformed).
func StatusOf(u *api.Unstructured) Status {
	st := app.NestedMap(u.Object, "status")
	if st == nil {
		return Status{}
	}
	s, err := app.FromUnstructured[Status](&api.Unstructured{Object: st})
	if err != nil {
		return Status{}
	}
	return *s
}

// calculateStatus mirrors calculateStatus: count the active pods, those carrying every
// template label, the ready and the available ones, and set or clear ReplicaFailure.
func calculateStatus(rs *replicaSet, u *api.Unstructured, active, terminating []*api.Unstructured, manageErr error, now time.Time) Status {
	st := rs.status
	st.Conditions = append([]Condition(nil), st.Conditions...)
	tmplLabels := labels.SelectorFromSet(labels.Set(stringMap(app.NestedMap(rs.template, "metadata", "labels"))))
	var full, ready, avail int32
	for _, p := range active {
		if tmplLabels.Matches(labels.Set(p.GetLabels())) {
			full++
		}
		if app.IsPodReady(p) {
			ready++
			if IsPodAvailable(p, rs.minReadySeconds, now) {
				avail++
			}
		}
	}
	failure := getCondition(st, ReplicaFailure)
	switch {
	case manageErr != nil && failure == nil:
		reason := ""
		if diff := len(active) - int(rs.replicas); diff < 0 {
			reason = "FailedCreate"
		} else if diff > 0 {
			reason = "FailedDelete"
		}
		setCondition(&st, Condition{Type: ReplicaFailure, Status: "True", LastTransitionTime: formatTime(now), Reason: reason, Message: manageErr.Error()})
	case manageErr == nil && failure != nil:
		st.Conditions = filterOutCondition(st.Conditions, ReplicaFailure)
	}
	st.Replicas = int32(len(active))
	st.FullyLabeledReplicas = full
	st.ReadyReplicas = ready
	st.AvailableReplicas = avail
	t := int32(len(terminating))
	st.TerminatingReplicas = &t
	return st
}

// updateReplicaSetStatus mirrors updateReplicaSetStatus: write status unless nothing
// changed, retrying once on a fresh read.
func (c *Controller) updateReplicaSetStatus(ctx context.Context, u *api.Unstructured, rs *replicaSet, st Status) (*replicaSet, error) {
	cur := rs.status
	if cur.Replicas == st.Replicas && cur.FullyLabeledReplicas == st.FullyLabeledReplicas &&
		cur.ReadyReplicas == st.ReadyReplicas && cur.AvailableReplicas == st.AvailableReplicas &&
		eqInt32(cur.TerminatingReplicas, st.TerminatingReplicas) &&
		u.GetGeneration() == cur.ObservedGeneration && reflect.DeepEqual(cur.Conditions, st.Conditions) {
		return rs, nil
	}
	st.ObservedGeneration = u.GetGeneration()
	client := c.cc.Client.Resource(app.ReplicaSets).Namespace(u.GetNamespace())
	var err error
	for i := 0; ; i++ {
		m, _ := app.ToUnstructured(st)
		u.Object["status"] = m.Object
		var out *api.Unstructured
		out, err = client.UpdateStatus(ctx, u, api.UpdateOptions{})
		trace.Hop(c.cc.Logger, "replicaset", "update-status", keyOf(u), u.GetResourceVersion(),
			slog.String("cause", "observed pods"), slog.Int("replicas", int(st.Replicas)),
			slog.Int("ready", int(st.ReadyReplicas)), slog.Int("available", int(st.AvailableReplicas)), slog.Any("err", err))
		if err == nil {
			return newReplicaSet(out), nil
		}
		if i >= 1 { // statusUpdateRetries
			return nil, err
		}
		fresh, gerr := client.Get(ctx, u.GetName(), api.GetOptions{})
		if gerr != nil {
			return nil, gerr
		}
		u = fresh
	}
}

func eqInt32(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func getCondition(st Status, t string) *Condition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			return &st.Conditions[i]
		}
	}
	return nil
}

// setCondition mirrors SetCondition: a condition of the same status and reason is kept.
func setCondition(st *Status, c Condition) {
	if cur := getCondition(*st, c.Type); cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	st.Conditions = append(filterOutCondition(st.Conditions, c.Type), c)
}

func filterOutCondition(cs []Condition, t string) []Condition {
	var out []Condition
	for _, c := range cs {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

func formatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func stringMap(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// readyCondition returns the lastTransitionTime of a pod's Ready=True condition, if any.
func readyTime(p *api.Unstructured) (time.Time, bool) {
	v, _ := app.Nested(p.Object, "status", "conditions")
	list, _ := v.([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		if m["type"] == "Ready" && m["status"] == "True" {
			s, _ := m["lastTransitionTime"].(string)
			t, err := time.Parse(time.RFC3339, s)
			return t, err == nil
		}
	}
	return time.Time{}, false
}

// IsPodAvailable mirrors podutil.IsPodAvailable: ready for at least minReadySeconds.
func IsPodAvailable(p *api.Unstructured, minReadySeconds int32, now time.Time) bool {
	if !app.IsPodReady(p) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	t, ok := readyTime(p)
	return ok && !t.IsZero() && t.Add(time.Duration(minReadySeconds)*time.Second).Before(now)
}

// nextAvailabilityCheck mirrors FindMinNextPodAvailabilityCheck: how long until the next
// ready pod becomes available.
func nextAvailabilityCheck(pods []*api.Unstructured, minReadySeconds int32, now time.Time) (time.Duration, bool) {
	var best time.Duration
	found := false
	for _, p := range pods {
		if !app.IsPodReady(p) {
			continue
		}
		t, ok := readyTime(p)
		if !ok || t.IsZero() {
			continue
		}
		// availability is strictly after the deadline, so look a moment past it
		d := t.Add(time.Duration(minReadySeconds)*time.Second).Sub(now) + time.Millisecond
		if d > time.Millisecond/2 && (!found || d < best) {
			best, found = d, true
		}
	}
	return best, found
}

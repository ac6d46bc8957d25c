package deployment

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// Status is apps/v1 DeploymentStatus's JSON shape.
type Status struct {
	ObservedGeneration  int64       `json:"observedGeneration,omitempty"`
	Replicas            int32       `json:"replicas,omitempty"`
	UpdatedReplicas     int32       `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32       `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32       `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32       `json:"unavailableReplicas,omitempty"`
	TerminatingReplicas *int32      `json:"terminatingReplicas,omitempty"`
	Conditions          []Condition `json:"conditions,omitempty"`
	CollisionCount      *int32      `json:"collisionCount,omitempty"`
}

// Condition is apps/v1 DeploymentCondition's JSON shape.
type Condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastUpdateTime     string `json:"lastUpdateTime,omitempty"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// The condition types of apps/v1.
const (
	Available      = "Available"
	Progressing    = "Progressing"
	ReplicaFailure = "ReplicaFailure"
)

// deployment is the typed view of a Deployment the sync works on. u is a deep copy of the
// cached object: the sync changes its annotations, template and status and writes it.
type deployment struct {
	u                       *api.Unstructured
	replicas                int32
	strategy                string // RollingUpdate or Recreate
	maxSurge                any    // an int or a percentage string, nil when unset
	maxUnavailable          any
	minReadySeconds         int32
	revisionHistoryLimit    *int32
	progressDeadlineSeconds *int32
	paused                  bool
	status                  Status
}

func newDeployment(cached *api.Unstructured) (*deployment, error) {
	u := cached.DeepCopy()
	d := &deployment{u: u, replicas: specReplicas(u), strategy: app.NestedString(u.Object, "spec", "strategy", "type")}
	if d.strategy == "" {
		d.strategy = "RollingUpdate"
	}
	ru := app.NestedMap(u.Object, "spec", "strategy", "rollingUpdate")
	d.maxSurge, d.maxUnavailable = ru["maxSurge"], ru["maxUnavailable"]
	if n, ok := app.NestedInt64(u.Object, "spec", "minReadySeconds"); ok {
		d.minReadySeconds = int32(n)
	}
	if n, ok := app.NestedInt64(u.Object, "spec", "revisionHistoryLimit"); ok {
		v := int32(n)
		d.revisionHistoryLimit = &v
	}
	if n, ok := app.NestedInt64(u.Object, "spec", "progressDeadlineSeconds"); ok {
		v := int32(n)
		d.progressDeadlineSeconds = &v
	}
	p, _ := app.Nested(u.Object, "spec", "paused")
	d.paused, _ = p.(bool)
	if st := app.NestedMap(u.Object, "status"); st != nil {
		s, err := app.FromUnstructured[Status](&api.Unstructured{Object: st})
		if err != nil {
			return nil, err
		}
		d.status = *s
	}
	return d, nil
}

func (d *deployment) key() string { return d.u.GetNamespace() + "/" + d.u.GetName() }
func (d *deployment) template() map[string]any {
	return app.NestedMap(d.u.Object, "spec", "template")
}

// setStatus writes st into the object to send.
func (d *deployment) setStatus(st Status) {
	m, _ := app.ToUnstructured(st)
	d.u.Object["status"] = m.Object
	d.status = st
}

// setAnnotation sets one annotation, reporting whether it changed.
func (d *deployment) setAnnotation(k, v string) bool {
	a := d.u.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	if cur, ok := a[k]; ok && cur == v {
		return false
	}
	a[k] = v
	d.u.SetAnnotations(a)
	return true
}

func (d *deployment) isRollingUpdate() bool { return d.strategy == "RollingUpdate" }

// MaxSurge mirrors MaxSurge: 0 unless rolling.
func (d *deployment) MaxSurge() int32 {
	if !d.isRollingUpdate() {
		return 0
	}
	s, _, _ := ResolveFenceposts(d.maxSurge, d.maxUnavailable, d.replicas)
	return s
}

// MaxUnavailable mirrors MaxUnavailable: 0 unless rolling with replicas, and never more
// than the replicas.
func (d *deployment) MaxUnavailable() int32 {
	if !d.isRollingUpdate() || d.replicas == 0 {
		return 0
	}
	_, u, _ := ResolveFenceposts(d.maxSurge, d.maxUnavailable, d.replicas)
	return min(u, d.replicas)
}

// ResolveFenceposts mirrors ResolveFenceposts: maxSurge rounds up, maxUnavailable down, and
// if both come to 0, one pod may be unavailable (or nothing could ever move).
func ResolveFenceposts(maxSurge, maxUnavailable any, desired int32) (int32, int32, error) {
	surge, err := ScaledValue(maxSurge, int(desired), true)
	if err != nil {
		return 0, 0, err
	}
	unavail, err := ScaledValue(maxUnavailable, int(desired), false)
	if err != nil {
		return 0, 0, err
	}
	if surge == 0 && unavail == 0 {
		unavail = 1
	}
	return int32(surge), int32(unavail), nil
}

// ScaledValue mirrors intstr.GetScaledValueFromIntOrPercent for an int-or-string in its
// JSON shape: an integer as it is, "N%" of total rounded up or down; nil is 0.
func ScaledValue(v any, total int, roundUp bool) (int, error) {
	switch t := v.(type) {
	case nil:
		return 0, nil
	case int64:
		return int(t), nil
	case float64:
		return int(t), nil
	case int:
		return t, nil
	case string:
		s, ok := strings.CutSuffix(t, "%")
		if !ok {
			return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
		}
		p, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("invalid value %q: %v", t, err)
		}
		if roundUp {
			return int(math.Ceil(float64(p) * float64(total) / 100)), nil
		}
		return int(math.Floor(float64(p) * float64(total) / 100)), nil
	}
	return 0, fmt.Errorf("invalid type for IntOrString: %T", v)
}

// getCondition mirrors GetDeploymentCondition.
func getCondition(st Status, t string) *Condition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			c := st.Conditions[i]
			return &c
		}
	}
	return nil
}

// newCondition mirrors NewDeploymentCondition.
func newCondition(t, status, reason, msg string, now time.Time) Condition {
	ts := formatTime(now)
	return Condition{Type: t, Status: status, LastUpdateTime: ts, LastTransitionTime: ts, Reason: reason, Message: msg}
}

// setCondition mirrors SetDeploymentCondition: the same status and reason change nothing;
// the same status keeps its transition time.
func setCondition(st *Status, c Condition) {
	cur := getCondition(*st, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	st.Conditions = append(removeCondition(st.Conditions, c.Type), c)
}

func removeCondition(cs []Condition, t string) []Condition {
	var out []Condition
	for _, c := range cs {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// hasProgressDeadline mirrors HasProgressDeadline.
func (d *deployment) hasProgressDeadline() bool { return hasLimit(d.progressDeadlineSeconds) }

// deploymentComplete mirrors DeploymentComplete.
func (d *deployment) deploymentComplete(st *Status) bool {
	return st.UpdatedReplicas == d.replicas && st.Replicas == d.replicas &&
		st.AvailableReplicas == d.replicas && st.ObservedGeneration >= d.u.GetGeneration()
}

// deploymentProgressing mirrors DeploymentProgressing: more updated, fewer old, more ready
// or more available replicas than the stored status says.
func (d *deployment) deploymentProgressing(st *Status) bool {
	old := d.status
	return st.UpdatedReplicas > old.UpdatedReplicas ||
		st.Replicas-st.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		st.ReadyReplicas > old.ReadyReplicas || st.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut mirrors DeploymentTimedOut: the Progressing condition has not been
// updated for progressDeadlineSeconds.
func (d *deployment) deploymentTimedOut(st *Status, now time.Time) bool {
	if !d.hasProgressDeadline() {
		return false
	}
	c := getCondition(*st, Progressing)
	if c == nil || c.Reason == NewRSAvailableReason {
		return false
	}
	if c.Reason == TimedOutReason {
		return true
	}
	from, err := time.Parse(time.RFC3339, c.LastUpdateTime)
	if err != nil {
		return false
	}
	return from.Add(time.Duration(*d.progressDeadlineSeconds) * time.Second).Before(now)
}

// newRSNewReplicas mirrors NewRSNewReplicas: how big the new ReplicaSet may be now.
func (d *deployment) newRSNewReplicas(allRSs []*api.Unstructured, newRS *api.Unstructured) (int32, error) {
	switch d.strategy {
	case "RollingUpdate":
		surge, err := ScaledValue(d.maxSurge, int(d.replicas), true)
		if err != nil {
			return 0, err
		}
		current := sumSpec(allRSs)
		maxTotal := d.replicas + int32(surge)
		if current >= maxTotal {
			return specReplicas(newRS), nil
		}
		up := min(maxTotal-current, d.replicas-specReplicas(newRS))
		return specReplicas(newRS) + up, nil
	case "Recreate":
		return d.replicas, nil
	}
	return 0, fmt.Errorf("deployment type %v isn't supported", d.strategy)
}

// isSaturated mirrors IsSaturated: the new ReplicaSet has all the replicas, all available.
func (d *deployment) isSaturated(rs *api.Unstructured) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.GetAnnotations()[DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	return specReplicas(rs) == d.replicas && int32(desired) == d.replicas && rsStatus(rs).AvailableReplicas == d.replicas
}

// annotationInt32 mirrors getNonNegativeInt32FromAnnotation.
func annotationInt32(rs *api.Unstructured, key string) (int32, bool) {
	v, ok := rs.GetAnnotations()[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}

// replicaSetProportion mirrors GetReplicaSetProportion: this ReplicaSet's share of a
// proportional scale, within what is still to add (or remove).
func (d *deployment) replicaSetProportion(rs *api.Unstructured, toAdd, added int32) int32 {
	if rs == nil || specReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := d.replicaSetFraction(rs)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// replicaSetFraction mirrors getReplicaSetFraction: the ReplicaSet's size scaled from the
// Deployment's old maximum (the max-replicas annotation) to its new one, rounded.
func (d *deployment) replicaSetFraction(rs *api.Unstructured) int32 {
	if d.replicas == 0 {
		return -specReplicas(rs)
	}
	maxNow := d.replicas + d.MaxSurge()
	before, ok := annotationInt32(rs, MaxReplicasAnnotation)
	if !ok || before == 0 {
		before = d.status.Replicas
		if before == 0 {
			return 0
		}
	}
	size := float64(specReplicas(rs)*maxNow) / float64(before)
	return int32(math.Floor(size+0.5)) - specReplicas(rs) // integer.RoundToInt32
}

package deployment

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"reflect"
	"sort"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/controllers/replicaset"
)

// The annotations and label of k8s.io/kubernetes pkg/controller/deployment/util and
// k8s.io/api/apps/v1, which kubectl rollout history and undo read.
const (
	RevisionAnnotation        = "deployment.kubernetes.io/revision"
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	MaxReplicasAnnotation     = "deployment.kubernetes.io/max-replicas"
	// DeprecatedRollbackTo is the extensions/v1beta1 rollback request, still honoured.
	DeprecatedRollbackTo = "deprecated.deployment.rollback.to"
	// DefaultDeploymentUniqueLabelKey is the label every ReplicaSet and pod of a Deployment
	// carries: the hash of its template.
	DefaultDeploymentUniqueLabelKey = "pod-template-hash"
)

// The Progressing and Available condition reasons of deployment/util.
const (
	ReplicaSetUpdatedReason    = "ReplicaSetUpdated"
	FailedRSCreateReason       = "ReplicaSetCreateError"
	NewReplicaSetReason        = "NewReplicaSetCreated"
	FoundNewRSReason           = "FoundNewReplicaSet"
	NewRSAvailableReason       = "NewReplicaSetAvailable"
	TimedOutReason             = "ProgressDeadlineExceeded"
	PausedDeployReason         = "DeploymentPaused"
	ResumedDeployReason        = "DeploymentResumed"
	MinimumReplicasAvailable   = "MinimumReplicasAvailable"
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"
	RollbackRevisionNotFound   = "DeploymentRollbackRevisionNotFound"
	RollbackTemplateUnchanged  = "DeploymentRollbackTemplateUnchanged"
	RollbackDone               = "DeploymentRollback"
)

// annotationsToSkip mirrors annotationsToSkip: the annotations a Deployment never copies to
// its ReplicaSets (nor back on rollback).
var annotationsToSkip = map[string]bool{
	"kubectl.kubernetes.io/last-applied-configuration": true,
	RevisionAnnotation:        true,
	RevisionHistoryAnnotation: true,
	DesiredReplicasAnnotation: true,
	MaxReplicasAnnotation:     true,
	DeprecatedRollbackTo:      true,
}

// alphanums mirrors k8s.io/apimachinery/pkg/util/rand's alphabet for SafeEncodeString: no
// vowels (no words) and no confusable characters.
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// ComputeHash mirrors controller.ComputeHash, with one difference said plainly: upstream
// hashes (FNV-32a) the Go-printed form of the typed PodTemplateSpec; our template is JSON,
// so we hash (FNV-32a) its encoding/json form, which sorts map keys and is therefore stable.
// The collision count is mixed in as upstream does, and the sum is written in upstream's
// safe alphabet, so a hash looks like upstream's ("5d4f8c9b7") but differs in value.
func ComputeHash(template map[string]any, collisionCount *int32) string {
	h := fnv.New32a()
	b, _ := json.Marshal(template)
	h.Write(b)
	if collisionCount != nil {
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	s := strconv.FormatUint(uint64(h.Sum32()), 10)
	out := make([]byte, len(s))
	for i := range len(s) {
		out[i] = alphanums[int(s[i])%len(alphanums)]
	}
	return string(out)
}

// EqualIgnoreHash mirrors EqualIgnoreHash: two templates are the same but for the
// pod-template-hash label. Like apiequality.Semantic, an empty map or list equals none.
func EqualIgnoreHash(a, b map[string]any) bool {
	return reflect.DeepEqual(normalize(withoutHash(a)), normalize(withoutHash(b)))
}

func withoutHash(t map[string]any) map[string]any {
	c := deepCopy(t)
	if l := app.NestedMap(c, "metadata", "labels"); l != nil {
		delete(l, DefaultDeploymentUniqueLabelKey)
	}
	return c
}

// normalize drops null, empty maps and empty lists, and makes every number a float64.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if n := normalize(e); n != nil {
				out[k] = n
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(t) == 0 {
			return nil
		}
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalize(e)
		}
		return out
	case int64:
		return float64(t)
	case int:
		return float64(t)
	case int32:
		return float64(t)
	}
	return v
}

func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	u := (&api.Unstructured{Object: m}).DeepCopy()
	return u.Object
}

// Revision mirrors Revision: the revision annotation of an object, 0 when absent.
func Revision(u *api.Unstructured) (int64, error) {
	v, ok := u.GetAnnotations()[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// MaxRevision mirrors MaxRevision.
func MaxRevision(rss []*api.Unstructured) int64 {
	var m int64
	for _, rs := range rss {
		if v, err := Revision(rs); err == nil && v > m {
			m = v
		}
	}
	return m
}

// LastRevision mirrors LastRevision: the second highest revision.
func LastRevision(rss []*api.Unstructured) int64 {
	var mx, second int64
	for _, rs := range rss {
		v, err := Revision(rs)
		if err != nil {
			continue
		}
		if v >= mx {
			second, mx = mx, v
		} else if v > second {
			second = v
		}
	}
	return second
}

// specReplicas is a ReplicaSet's (or Deployment's) spec.replicas, 1 when unset.
func specReplicas(u *api.Unstructured) int32 {
	if u == nil {
		return 0
	}
	if n, ok := app.NestedInt64(u.Object, "spec", "replicas"); ok {
		return int32(n)
	}
	return 1
}

func rsStatus(u *api.Unstructured) replicaset.Status {
	if u == nil {
		return replicaset.Status{}
	}
	return replicaset.StatusOf(u)
}

func rsTemplate(u *api.Unstructured) map[string]any {
	return app.NestedMap(u.Object, "spec", "template")
}

// sortByCreation mirrors controller.ReplicaSetsByCreationTimestamp: oldest first, then by
// name.
func sortByCreation(rss []*api.Unstructured) {
	sort.SliceStable(rss, func(i, j int) bool {
		ti, tj := rss[i].GetCreationTimestamp().Time, rss[j].GetCreationTimestamp().Time
		if ti.Equal(tj) {
			return rss[i].GetName() < rss[j].GetName()
		}
		return ti.Before(tj)
	})
}

// sortBySizeNewer mirrors ReplicaSetsBySizeNewer: larger first, then newer.
func sortBySizeNewer(rss []*api.Unstructured) {
	sort.SliceStable(rss, func(i, j int) bool {
		if a, b := specReplicas(rss[i]), specReplicas(rss[j]); a != b {
			return a > b
		}
		return rss[j].GetCreationTimestamp().Before(rss[i].GetCreationTimestamp().Time)
	})
}

// sortBySizeOlder mirrors ReplicaSetsBySizeOlder: larger first, then older.
func sortBySizeOlder(rss []*api.Unstructured) {
	sort.SliceStable(rss, func(i, j int) bool {
		if a, b := specReplicas(rss[i]), specReplicas(rss[j]); a != b {
			return a > b
		}
		return rss[i].GetCreationTimestamp().Before(rss[j].GetCreationTimestamp().Time)
	})
}

// sortByRevision mirrors ReplicaSetsByRevision.
func sortByRevision(rss []*api.Unstructured) {
	sort.SliceStable(rss, func(i, j int) bool {
		ri, e1 := Revision(rss[i])
		rj, e2 := Revision(rss[j])
		if e1 != nil || e2 != nil || ri == rj {
			ti, tj := rss[i].GetCreationTimestamp().Time, rss[j].GetCreationTimestamp().Time
			if ti.Equal(tj) {
				return rss[i].GetName() < rss[j].GetName()
			}
			return ti.Before(tj)
		}
		return ri < rj
	})
}

// FindNewReplicaSet mirrors FindNewReplicaSet: the oldest ReplicaSet whose template is the
// Deployment's.
func FindNewReplicaSet(template map[string]any, rss []*api.Unstructured) *api.Unstructured {
	sorted := append([]*api.Unstructured(nil), rss...)
	sortByCreation(sorted)
	for _, rs := range sorted {
		if EqualIgnoreHash(rsTemplate(rs), template) {
			return rs
		}
	}
	return nil
}

// FindOldReplicaSets mirrors FindOldReplicaSets, returning all the old ones.
func FindOldReplicaSets(template map[string]any, rss []*api.Unstructured) []*api.Unstructured {
	newRS := FindNewReplicaSet(template, rss)
	var old []*api.Unstructured
	for _, rs := range rss {
		if newRS != nil && rs.GetUID() == newRS.GetUID() {
			continue
		}
		old = append(old, rs)
	}
	return old
}

func filterActive(rss []*api.Unstructured) []*api.Unstructured {
	var out []*api.Unstructured
	for _, rs := range rss {
		if rs != nil && specReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// The sums of getReplicaCountForReplicaSets and its Actual, Ready and Available siblings.
func sumSpec(rss []*api.Unstructured) (n int32) {
	for _, rs := range rss {
		if rs != nil {
			n += specReplicas(rs)
		}
	}
	return n
}

func sumStatus(rss []*api.Unstructured, f func(replicaset.Status) int32) (n int32) {
	for _, rs := range rss {
		if rs != nil {
			n += f(rsStatus(rs))
		}
	}
	return n
}

func actual(s replicaset.Status) int32    { return s.Replicas }
func ready(s replicaset.Status) int32     { return s.ReadyReplicas }
func available(s replicaset.Status) int32 { return s.AvailableReplicas }

// terminatingCount mirrors GetTerminatingReplicaCountForReplicaSets: unknown (nil) when a
// ReplicaSet that has been synced does not report it.
func terminatingCount(rss []*api.Unstructured) *int32 {
	var n int32
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		s := rsStatus(rs)
		switch {
		case s.ObservedGeneration == 0 && s.TerminatingReplicas == nil:
		case s.TerminatingReplicas == nil:
			return nil
		default:
			n += *s.TerminatingReplicas
		}
	}
	return &n
}

func formatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func hasLimit(p *int32) bool { return p != nil && *p != math.MaxInt32 }

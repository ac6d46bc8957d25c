package statefulset

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controllers/app"
)

// The labels a StatefulSet puts on its pods (apps.StatefulSetPodNameLabel,
// apps.PodIndexLabel, apps.StatefulSetRevisionLabel).
const (
	podNameLabel  = "statefulset.kubernetes.io/pod-name"
	podIndexLabel = "apps.kubernetes.io/pod-index"
	revisionLabel = app.ControllerRevisionHashLabel
)

// The policy and strategy names of apps/v1.
const (
	parallelPodManagement = "Parallel"
	rollingUpdate         = "RollingUpdate"
	onDelete              = "OnDelete"
	retainPolicy          = "Retain"
	deletePolicy          = "Delete"
)

// statefulSet is the part of apps/v1 StatefulSet the controller reads. The template and the
// claim templates stay JSON-shaped so every field the server stores reaches the pods.
type statefulSet struct {
	u    *api.Unstructured
	Spec struct {
		Replicas             *int32             `json:"replicas"`
		Selector             *app.LabelSelector `json:"selector"`
		Template             map[string]any     `json:"template"`
		VolumeClaimTemplates []map[string]any   `json:"volumeClaimTemplates"`
		ServiceName          string             `json:"serviceName"`
		PodManagementPolicy  string             `json:"podManagementPolicy"`
		UpdateStrategy       struct {
			Type          string `json:"type"`
			RollingUpdate *struct {
				Partition      *int32 `json:"partition"`
				MaxUnavailable any    `json:"maxUnavailable"`
			} `json:"rollingUpdate"`
		} `json:"updateStrategy"`
		RevisionHistoryLimit                 *int32 `json:"revisionHistoryLimit"`
		MinReadySeconds                      int32  `json:"minReadySeconds"`
		PersistentVolumeClaimRetentionPolicy *struct {
			WhenDeleted string `json:"whenDeleted"`
			WhenScaled  string `json:"whenScaled"`
		} `json:"persistentVolumeClaimRetentionPolicy"`
		Ordinals *struct {
			Start int32 `json:"start"`
		} `json:"ordinals"`
	} `json:"spec"`
	Status setStatus `json:"status"`
}

// setStatus is apps/v1 StatefulSetStatus without conditions, which the controller keeps as
// it finds them.
type setStatus struct {
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	Replicas           int32  `json:"replicas"`
	ReadyReplicas      int32  `json:"readyReplicas,omitempty"`
	CurrentReplicas    int32  `json:"currentReplicas,omitempty"`
	UpdatedReplicas    int32  `json:"updatedReplicas,omitempty"`
	CurrentRevision    string `json:"currentRevision,omitempty"`
	UpdateRevision     string `json:"updateRevision,omitempty"`
	CollisionCount     *int32 `json:"collisionCount,omitempty"`
	AvailableReplicas  int32  `json:"availableReplicas"`
}

func parseSet(u *api.Unstructured) (*statefulSet, error) {
	s, err := app.FromUnstructured[statefulSet](u)
	if err != nil {
		return nil, err
	}
	s.u = u
	if s.Spec.Replicas == nil {
		one := int32(1)
		s.Spec.Replicas = &one
	}
	if s.Spec.UpdateStrategy.Type == "" {
		s.Spec.UpdateStrategy.Type = rollingUpdate
	}
	return s, nil
}

func (s *statefulSet) name() string      { return s.u.GetName() }
func (s *statefulSet) namespace() string { return s.u.GetNamespace() }
func (s *statefulSet) replicas() int     { return int(*s.Spec.Replicas) }

// startOrdinal mirrors getStartOrdinal (spec.ordinals.start, 0 by default).
func (s *statefulSet) startOrdinal() int {
	if s.Spec.Ordinals != nil {
		return int(s.Spec.Ordinals.Start)
	}
	return 0
}

// endOrdinal mirrors getEndOrdinal: the last ordinal in range (start-1 when scaled to 0).
func (s *statefulSet) endOrdinal() int { return s.startOrdinal() + s.replicas() - 1 }

func (s *statefulSet) partition() int {
	if r := s.Spec.UpdateStrategy.RollingUpdate; r != nil && r.Partition != nil {
		return int(*r.Partition)
	}
	return 0
}

// retention mirrors getPersistentVolumeClaimRetentionPolicy: Retain/Retain unless set.
func (s *statefulSet) retention() (whenDeleted, whenScaled string) {
	whenDeleted, whenScaled = retainPolicy, retainPolicy
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		if p.WhenDeleted != "" {
			whenDeleted = p.WhenDeleted
		}
		if p.WhenScaled != "" {
			whenScaled = p.WhenScaled
		}
	}
	return
}

// controllerRef is the owner reference every pod, claim and revision of the set carries.
func (s *statefulSet) controllerRef() api.OwnerReference {
	ref := app.NewControllerRef(s.u)
	ref.APIVersion, ref.Kind = "apps/v1", "StatefulSet"
	return ref
}

var statefulPodRegex = regexp.MustCompile("(.*)-([0-9]+)$")

// parentAndOrdinal mirrors getParentNameAndOrdinal: "web-2" is ("web", 2); -1 when the
// name has no ordinal.
func parentAndOrdinal(podName string) (string, int) {
	m := statefulPodRegex.FindStringSubmatch(podName)
	if len(m) < 3 {
		return "", -1
	}
	i, err := strconv.ParseInt(m[2], 10, 32)
	if err != nil {
		return m[1], -1
	}
	return m[1], int(i)
}

func ordinalOf(pod *api.Unstructured) int { _, o := parentAndOrdinal(pod.GetName()); return o }

func podName(s *statefulSet, ordinal int) string { return fmt.Sprintf("%s-%d", s.name(), ordinal) }

func claimName(s *statefulSet, template string, ordinal int) string {
	return fmt.Sprintf("%s-%s-%d", template, s.name(), ordinal)
}

func inOrdinalRange(s *statefulSet, pod *api.Unstructured) bool {
	o := ordinalOf(pod)
	return o >= s.startOrdinal() && o <= s.endOrdinal()
}

func isMemberOf(s *statefulSet, pod *api.Unstructured) bool {
	p, _ := parentAndOrdinal(pod.GetName())
	return p == s.name()
}

// identityMatches mirrors identityMatches: the pod's name, namespace and pod-name label
// are the set's for its ordinal.
func identityMatches(s *statefulSet, pod *api.Unstructured) bool {
	p, o := parentAndOrdinal(pod.GetName())
	return o >= 0 && p == s.name() && pod.GetNamespace() == s.namespace() &&
		pod.GetLabels()[podNameLabel] == pod.GetName() && pod.GetLabels()[podIndexLabel] == strconv.Itoa(o)
}

// updateIdentity mirrors updateIdentity: the pod-name and pod-index labels.
func updateIdentity(pod *api.Unstructured) {
	l := pod.GetLabels()
	if l == nil {
		l = map[string]string{}
	}
	l[podNameLabel] = pod.GetName()
	l[podIndexLabel] = strconv.Itoa(ordinalOf(pod))
	pod.SetLabels(l)
}

func templateName(t map[string]any) string { return app.NestedString(t, "metadata", "name") }

// newPod mirrors newStatefulSetPod: a pod from the template, named for ordinal, with its
// identity (labels, hostname, subdomain) and a volume for each claim template.
func newPod(s *statefulSet, ordinal int, revision string) *api.Unstructured {
	ref := s.controllerRef()
	pod := app.GetPodFromTemplate(s.Spec.Template, s.u, &ref)
	pod.SetGenerateName("")
	pod.SetName(podName(s, ordinal))
	updateIdentity(pod)
	l := pod.GetLabels()
	l[revisionLabel] = revision
	pod.SetLabels(l)
	spec := app.NestedMap(pod.Object, "spec")
	if spec == nil {
		spec = map[string]any{}
		pod.Object["spec"] = spec
	}
	spec["hostname"] = pod.GetName()
	if s.Spec.ServiceName != "" {
		spec["subdomain"] = s.Spec.ServiceName
	}
	if len(s.Spec.VolumeClaimTemplates) > 0 {
		claimed := map[string]bool{}
		var vols []any
		for _, t := range s.Spec.VolumeClaimTemplates {
			n := templateName(t)
			claimed[n] = true
			vols = append(vols, map[string]any{"name": n, "persistentVolumeClaim": map[string]any{"claimName": claimName(s, n, ordinal)}})
		}
		old, _ := spec["volumes"].([]any)
		for _, v := range old {
			if m, ok := v.(map[string]any); ok && !claimed[app.NestedString(m, "name")] {
				vols = append(vols, v)
			}
		}
		spec["volumes"] = vols
	}
	return pod
}

// newClaims mirrors getPersistentVolumeClaims: the claims of ordinal, one per template,
// labelled with the template's labels and the set's matchLabels.
func newClaims(s *statefulSet, ordinal int) []*api.Unstructured {
	var out []*api.Unstructured
	for _, t := range s.Spec.VolumeClaimTemplates {
		b, _ := json.Marshal(t)
		c := &api.Unstructured{}
		if err := c.UnmarshalJSON(b); err != nil {
			continue
		}
		n := templateName(t)
		c.Object["apiVersion"], c.Object["kind"] = "v1", "PersistentVolumeClaim"
		delete(c.Object, "status")
		c.SetName(claimName(s, n, ordinal))
		c.SetNamespace(s.namespace())
		l := c.GetLabels()
		if l == nil {
			l = map[string]string{}
		}
		if s.Spec.Selector != nil {
			for k, v := range s.Spec.Selector.MatchLabels {
				l[k] = v
			}
		}
		c.SetLabels(l)
		out = append(out, c)
	}
	return out
}

// revisionPatch mirrors getPatch: the data a ControllerRevision keeps, the pod template
// marked to replace the set's own when applied.
func revisionPatch(s *statefulSet) map[string]any {
	b, _ := json.Marshal(s.Spec.Template)
	var t map[string]any
	_ = json.Unmarshal(b, &t)
	if t == nil {
		t = map[string]any{}
	}
	t["$patch"] = "replace"
	return map[string]any{"spec": map[string]any{"template": t}}
}

// applyRevision mirrors ApplyRevision: the set as it was at revision, its template
// replaced by the one the revision recorded.
func applyRevision(s *statefulSet, rev *api.Unstructured) *statefulSet {
	t := app.NestedMap(rev.Object, "data", "spec", "template")
	if t == nil {
		return s
	}
	cp := *s
	b, _ := json.Marshal(t)
	var nt map[string]any
	_ = json.Unmarshal(b, &nt)
	delete(nt, "$patch")
	cp.Spec.Template = nt
	return &cp
}

// sortRevisions mirrors history.SortControllerRevisions: by revision, then creation, then
// name.
func sortRevisions(rs []*api.Unstructured) {
	sort.SliceStable(rs, func(i, j int) bool {
		ri, rj := app.RevisionNumber(rs[i]), app.RevisionNumber(rs[j])
		if ri != rj {
			return ri < rj
		}
		ti, tj := rs[i].GetCreationTimestamp(), rs[j].GetCreationTimestamp()
		if !ti.Time.Equal(tj.Time) {
			return ti.Time.Before(tj.Time)
		}
		return rs[i].GetName() < rs[j].GetName()
	})
}

// revisionData returns a revision's data as canonical JSON, for comparison.
func revisionData(rev *api.Unstructured) []byte {
	b, _ := json.Marshal(rev.Object["data"])
	return b
}

func canonical(v any) []byte {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return b
}

// templateLabels returns a copy of the template's labels.
func templateLabels(t map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range app.NestedMap(t, "metadata", "labels") {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

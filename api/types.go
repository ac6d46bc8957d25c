package api

// This file holds the typed views of core/v1 Pod, ConfigMap and Namespace (Node is in
// types_node.go). Field names, field order and omitempty follow k8s.io/api core/v1. The
// views model only what the chapters use; the server stores every object whole, and a view
// decoded from JSON keeps the fields it does not model (preserve.go), so nothing is lost on
// the way back.

// Pod mirrors core/v1 Pod in k8s.io/api.
type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`

	Spec   PodSpec   `json:"spec,omitempty"`
	Status PodStatus `json:"status,omitempty"`

	// Unmodeled keeps the JSON the object was decoded from (types_json.go).
	Unmodeled Unmodeled `json:"-"`
}

// PodSpec mirrors core/v1 PodSpec, limited to the fields that field selectors and the
// examples use.
type PodSpec struct {
	// Containers has no omitempty upstream: an empty spec encodes "containers":null.
	Containers         []Container   `json:"containers"`
	RestartPolicy      RestartPolicy `json:"restartPolicy,omitempty"`
	ServiceAccountName string        `json:"serviceAccountName,omitempty"`
	NodeName           string        `json:"nodeName,omitempty"`
	HostNetwork        bool          `json:"hostNetwork,omitempty"`
	SchedulerName      string        `json:"schedulerName,omitempty"`
}

// Container mirrors core/v1 Container, limited to name and image.
type Container struct {
	Name  string `json:"name"`
	Image string `json:"image,omitempty"`
}

// RestartPolicy mirrors core/v1 RestartPolicy.
type RestartPolicy string

const (
	// RestartPolicyAlways mirrors core/v1 RestartPolicyAlways.
	RestartPolicyAlways RestartPolicy = "Always"
	// RestartPolicyOnFailure mirrors core/v1 RestartPolicyOnFailure.
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	// RestartPolicyNever mirrors core/v1 RestartPolicyNever.
	RestartPolicyNever RestartPolicy = "Never"
)

// PodStatus mirrors core/v1 PodStatus, limited to phase, conditions and podIP.
type PodStatus struct {
	Phase      PodPhase       `json:"phase,omitempty"`
	Conditions []PodCondition `json:"conditions,omitempty"`
	PodIP      string         `json:"podIP,omitempty"`
}

// PodPhase mirrors core/v1 PodPhase.
type PodPhase string

const (
	// PodPending mirrors core/v1 PodPending: accepted, but not every container runs yet.
	PodPending PodPhase = "Pending"
	// PodRunning mirrors core/v1 PodRunning: bound to a node, at least one container running.
	PodRunning PodPhase = "Running"
	// PodSucceeded mirrors core/v1 PodSucceeded: every container exited with success.
	PodSucceeded PodPhase = "Succeeded"
	// PodFailed mirrors core/v1 PodFailed: every container exited, at least one with failure.
	PodFailed PodPhase = "Failed"
	// PodUnknown mirrors core/v1 PodUnknown: the state could not be obtained.
	PodUnknown PodPhase = "Unknown"
)

// PodCondition mirrors core/v1 PodCondition.
type PodCondition struct {
	Type   PodConditionType `json:"type"`
	Status ConditionStatus  `json:"status"`
	// The times are values, not pointers, as upstream: a zero time travels as null.
	LastProbeTime      Time   `json:"lastProbeTime,omitempty"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// PodConditionType mirrors core/v1 PodConditionType.
type PodConditionType string

const (
	// PodScheduled mirrors core/v1 PodScheduled.
	PodScheduled PodConditionType = "PodScheduled"
	// PodInitialized mirrors core/v1 PodInitialized.
	PodInitialized PodConditionType = "Initialized"
	// ContainersReady mirrors core/v1 ContainersReady.
	ContainersReady PodConditionType = "ContainersReady"
	// PodReady mirrors core/v1 PodReady.
	PodReady PodConditionType = "Ready"
)

// ConditionStatus mirrors core/v1 ConditionStatus (metav1.ConditionStatus has the same values).
type ConditionStatus string

const (
	// ConditionTrue mirrors core/v1 ConditionTrue.
	ConditionTrue ConditionStatus = "True"
	// ConditionFalse mirrors core/v1 ConditionFalse.
	ConditionFalse ConditionStatus = "False"
	// ConditionUnknown mirrors core/v1 ConditionUnknown.
	ConditionUnknown ConditionStatus = "Unknown"
)

// PodList mirrors core/v1 PodList.
type PodList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`

	// Items has no omitempty: a server must send [] for an empty list (docs/behaviour/wire.md L1), so
	// code that builds lists should start from a non-nil slice.
	Items []Pod `json:"items"`
}

// ConfigMap mirrors core/v1 ConfigMap in k8s.io/api.
type ConfigMap struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`

	Immutable  *bool             `json:"immutable,omitempty"`
	Data       map[string]string `json:"data,omitempty"`
	BinaryData map[string][]byte `json:"binaryData,omitempty"` // base64 on the wire

	// Unmodeled keeps the JSON the object was decoded from (types_json.go).
	Unmodeled Unmodeled `json:"-"`
}

// ConfigMapList mirrors core/v1 ConfigMapList.
type ConfigMapList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`

	Items []ConfigMap `json:"items"`
}

// Namespace mirrors core/v1 Namespace in k8s.io/api.
type Namespace struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`

	Spec   NamespaceSpec   `json:"spec,omitempty"`
	Status NamespaceStatus `json:"status,omitempty"`

	// Unmodeled keeps the JSON the object was decoded from (types_json.go).
	Unmodeled Unmodeled `json:"-"`
}

// NamespaceSpec mirrors core/v1 NamespaceSpec. Upstream types the finalizers as FinalizerName;
// plain strings carry the same JSON.
type NamespaceSpec struct {
	Finalizers []string `json:"finalizers,omitempty"`
}

// FinalizerKubernetes mirrors core/v1 FinalizerKubernetes: the spec finalizer every namespace
// gets, which the namespace controller removes once the namespace is empty.
const FinalizerKubernetes = "kubernetes"

// NamespaceStatus mirrors core/v1 NamespaceStatus, without conditions.
type NamespaceStatus struct {
	Phase NamespacePhase `json:"phase,omitempty"`
}

// NamespacePhase mirrors core/v1 NamespacePhase.
type NamespacePhase string

const (
	// NamespaceActive mirrors core/v1 NamespaceActive.
	NamespaceActive NamespacePhase = "Active"
	// NamespaceTerminating mirrors core/v1 NamespaceTerminating: deletion has started and
	// new objects may not be created in it (docs/behaviour/wire.md NS2).
	NamespaceTerminating NamespacePhase = "Terminating"
)

// NamespaceList mirrors core/v1 NamespaceList.
type NamespaceList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`

	Items []Namespace `json:"items"`
}

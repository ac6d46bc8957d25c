package api

// Node mirrors core/v1 Node in k8s.io/api, limited to what the chapters read: the
// unschedulable flag, the Ready condition and the kubelet version. Like every typed view, a
// Node decoded from JSON keeps the fields it does not model (preserve.go).
type Node struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`

	Spec   NodeSpec   `json:"spec,omitempty"`
	Status NodeStatus `json:"status,omitempty"`

	// Unmodeled keeps the JSON the object was decoded from (types_json.go).
	Unmodeled Unmodeled `json:"-"`
}

// NodeSpec mirrors core/v1 NodeSpec, limited to podCIDR, providerID and unschedulable.
type NodeSpec struct {
	PodCIDR       string `json:"podCIDR,omitempty"`
	ProviderID    string `json:"providerID,omitempty"`
	Unschedulable bool   `json:"unschedulable,omitempty"`
}

// NodeStatus mirrors core/v1 NodeStatus, limited to conditions and nodeInfo.
type NodeStatus struct {
	Conditions []NodeCondition `json:"conditions,omitempty"`
	NodeInfo   NodeSystemInfo  `json:"nodeInfo,omitempty"`
}

// NodeCondition mirrors core/v1 NodeCondition, without the heartbeat and transition times.
type NodeCondition struct {
	Type    string          `json:"type"`
	Status  ConditionStatus `json:"status"`
	Reason  string          `json:"reason,omitempty"`
	Message string          `json:"message,omitempty"`
}

// NodeSystemInfo mirrors core/v1 NodeSystemInfo, limited to the kubelet version.
type NodeSystemInfo struct {
	KubeletVersion string `json:"kubeletVersion,omitempty"`
}

// NodeList mirrors core/v1 NodeList.
type NodeList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`

	Items []Node `json:"items"`
}

// DeepCopyInto mirrors the generated core/v1 Node.DeepCopyInto. The kept JSON is shared: it
// is never changed.
func (in *Node) DeepCopyInto(out *Node) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]NodeCondition(nil), in.Status.Conditions...)
}

// DeepCopy mirrors the generated core/v1 Node.DeepCopy.
func (in *Node) DeepCopy() *Node { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 Node.DeepCopyObject.
func (in *Node) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto mirrors the generated core/v1 NodeList.DeepCopyInto.
func (in *NodeList) DeepCopyInto(out *NodeList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepCopySlice(in.Items)
}

// DeepCopy mirrors the generated core/v1 NodeList.DeepCopy.
func (in *NodeList) DeepCopy() *NodeList { return deepCopyOf(in) }

// DeepCopyObject mirrors the generated core/v1 NodeList.DeepCopyObject.
func (in *NodeList) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// GetItems mirrors meta.ExtractList for a NodeList.
func (in *NodeList) GetItems() []Object { return itemsOf(in.Items) }

// SetItems mirrors meta.SetList for a NodeList.
func (in *NodeList) SetItems(objs []Object) (err error) {
	in.Items, err = setItems(in.Items, objs)
	return err
}

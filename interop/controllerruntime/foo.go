package controllerruntime

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion mirrors SchemeGroupVersion in sample-controller's
// pkg/apis/samplecontroller/v1alpha1/register.go: the group and version of Foo.
var GroupVersion = schema.GroupVersion{Group: "samplecontroller.k8s.io", Version: "v1alpha1"}

// Foo mirrors Foo in sample-controller's pkg/apis/samplecontroller/v1alpha1/types.go. It is
// written by hand, with its deep copies below, instead of by deepcopy-gen: a scheme only needs
// a runtime.Object per kind, and this one has three fields.
type Foo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   FooSpec   `json:"spec"`
	Status FooStatus `json:"status,omitempty"`
}

// FooSpec mirrors FooSpec: the Deployment a Foo asks for. Replicas is nil when unset (the CRD
// of chapter 13 makes it optional).
type FooSpec struct {
	DeploymentName string `json:"deploymentName"`
	Replicas       *int32 `json:"replicas,omitempty"`
}

// FooStatus mirrors FooStatus, with the observedGeneration chapter 13 adds.
type FooStatus struct {
	AvailableReplicas  int32 `json:"availableReplicas"`
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// FooList mirrors FooList.
type FooList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`

	Items []Foo `json:"items"`
}

// AddToScheme mirrors AddToScheme in register.go: it registers Foo and FooList under
// GroupVersion, with the meta types (ListOptions, WatchEvent, ...) a client of the group needs.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Foo{}, &FooList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// DeepCopyInto mirrors the generated Foo.DeepCopyInto (zz_generated.deepcopy.go).
func (in *Foo) DeepCopyInto(out *Foo) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Replicas != nil {
		n := *in.Spec.Replicas
		out.Spec.Replicas = &n
	}
}

// DeepCopy mirrors the generated Foo.DeepCopy.
func (in *Foo) DeepCopy() *Foo {
	if in == nil {
		return nil
	}
	out := new(Foo)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject mirrors the generated Foo.DeepCopyObject: what makes Foo a runtime.Object.
func (in *Foo) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyInto mirrors the generated FooList.DeepCopyInto.
func (in *FooList) DeepCopyInto(out *FooList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Foo, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopyObject mirrors the generated FooList.DeepCopyObject.
func (in *FooList) DeepCopyObject() runtime.Object {
	if in == nil {
		return nil
	}
	out := new(FooList)
	in.DeepCopyInto(out)
	return out
}

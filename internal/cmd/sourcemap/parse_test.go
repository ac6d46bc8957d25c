package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		names   []string
		comment string
		want    Statement
	}{
		{"empty", []string{"X"}, "", Statement{}},
		{"no statement", []string{"Close"}, "Close closes it.\n", Statement{}},
		{
			"mirrors with file", []string{"Pop"},
			"Pop mirrors DeltaFIFO.Pop in client-go tools/cache/delta_fifo.go.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/tools/cache", File: "delta_fifo.go", Ident: "DeltaFIFO.Pop"},
		},
		{
			"location across a line break", []string{"DeltaFIFO"},
			"DeltaFIFO mirrors cache.DeltaFIFO in client-go\ntools/cache/delta_fifo.go: a queue of keys.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/tools/cache", File: "delta_fifo.go", Ident: "cache.DeltaFIFO"},
		},
		{
			"qualifier gives the package", []string{"Status"},
			"Status mirrors metav1.Status in apimachinery: the body of every non-2xx response.",
			Statement{Kind: Mirrors, Package: "k8s.io/apimachinery/pkg/apis/meta/v1", Ident: "metav1.Status"},
		},
		{
			"full import path", []string{"AndSelectors"},
			"AndSelectors mirrors fields.AndSelectors in k8s.io/apimachinery/pkg/fields: all must match.",
			Statement{Kind: Mirrors, Package: "k8s.io/apimachinery/pkg/fields", Ident: "fields.AndSelectors"},
		},
		{
			"import path with file", []string{"TypedRingGrowing"},
			"TypedRingGrowing mirrors buffer.TypedRingGrowing in k8s.io/utils/buffer/ring_growing.go: a ring.",
			Statement{Kind: Mirrors, Package: "k8s.io/utils/buffer", File: "ring_growing.go", Ident: "buffer.TypedRingGrowing"},
		},
		{
			"group/version prefix and adjective", []string{"DeepCopyObject"},
			"DeepCopyObject mirrors the generated core/v1 Namespace.DeepCopyObject.",
			Statement{Kind: Mirrors, Package: "k8s.io/api/core/v1", Ident: "Namespace.DeepCopyObject", Note: "generated"},
		},
		{
			"deprecated, with a qualifier and a Deprecated sentence", []string{"NewInformer"},
			"NewInformer mirrors the deprecated cache.NewInformer, the constructor the articles use.\n\nDeprecated: use NewInformerWithOptions.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/tools/cache", Ident: "cache.NewInformer",
				Note: "deprecated; the constructor the articles use; Deprecated: use NewInformerWithOptions."},
		},
		{
			"qualifier after a comma", []string{"Interface"},
			"Interface mirrors kubernetes.Interface in client-go kubernetes/clientset.go, reduced to the groups we serve.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/kubernetes", File: "clientset.go", Ident: "kubernetes.Interface",
				Note: "reduced to the groups we serve"},
		},
		{
			"spec reference in parentheses is not a note", []string{"ListAllByNamespace"},
			"ListAllByNamespace mirrors cache.ListAllByNamespace (L-2): namespace \"\" means all.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/tools/cache", Ident: "cache.ListAllByNamespace"},
		},
		{
			"aside in parentheses is a note", []string{"GetUID"},
			"GetUID mirrors ObjectMeta.GetUID (a plain string here instead of types.UID).",
			Statement{Kind: Mirrors, Ident: "ObjectMeta.GetUID", Note: "(a plain string here instead of types.UID)"},
		},
		{
			"It mirrors, later in the comment", []string{"ResourceInfo"},
			"ResourceInfo describes one served resource. It mirrors metav1.APIResource.",
			Statement{Kind: Mirrors, Package: "k8s.io/apimachinery/pkg/apis/meta/v1", Ident: "metav1.APIResource"},
		},
		{
			"subjectless Mirrors sentence", []string{"APIVersion"},
			"APIVersion returns the apiVersion string. Mirrors GroupVersion.String.",
			Statement{Kind: Mirrors, Ident: "GroupVersion.String"},
		},
		{
			"group: they mirror", []string{"A", "B"},
			"Values of ListOptions.ResourceVersionMatch; they mirror metav1.ResourceVersionMatch.",
			Statement{Kind: Mirrors, Package: "k8s.io/apimachinery/pkg/apis/meta/v1", Ident: "metav1.ResourceVersionMatch"},
		},
		{
			"group: mirroring", []string{"TransactionTypeAdd"},
			"The transaction types, mirroring cache.TransactionTypeAdd and friends.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/tools/cache", Ident: "cache.TransactionTypeAdd", Note: "and friends"},
		},
		{
			"not an identifier", []string{"Register"},
			"Register serves a resource. It mirrors what creating a CustomResourceDefinition does.",
			Statement{Kind: Mirrors, Note: "mirrors what creating a CustomResourceDefinition does"},
		},
		{
			"in, but not a location", []string{"Operator"},
			"Operator mirrors selection.Operator in its own package so labels and fields can share it.",
			Statement{Kind: Mirrors, Package: "k8s.io/apimachinery/pkg/selection", Ident: "selection.Operator",
				Note: "in its own package so labels and fields can share it"},
		},
		{
			"fields that are ours are a note", []string{"ReflectorOptions"},
			"ReflectorOptions mirrors cache.ReflectorOptions. UseWatchList is ours: it replaces the gate.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/tools/cache", Ident: "cache.ReflectorOptions",
				Note: "UseWatchList is ours: it replaces the gate."},
		},
		{
			"profile sentence is a note", []string{"ThreadSafeStoreWithTransaction"},
			"ThreadSafeStoreWithTransaction mirrors cache.ThreadSafeStoreWithTransaction: several writes. Only the Current profile uses it.",
			Statement{Kind: Mirrors, Package: "k8s.io/client-go/tools/cache", Ident: "cache.ThreadSafeStoreWithTransaction",
				Note: "Only the Current profile uses it."},
		},
		{
			"is ours, with the reason", []string{"Name"},
			"Name is ours: the listener's name in traces.",
			Statement{Kind: Ours, Note: "the listener's name in traces."},
		},
		{
			"ours wins over a later mirrors", []string{"RequestedResyncPeriod"},
			"RequestedResyncPeriod is ours. It mirrors processorListener.requestedResyncPeriod.",
			Statement{Kind: Ours},
		},
		{
			"is ours, with no counterpart", []string{"Pauser"},
			"Pauser is ours, with no client-go counterpart: a switch.",
			Statement{Kind: Ours, Note: "a switch."},
		},
		{"nothing in client-go mirrors it", []string{"Tape"}, "Tape reads choices. Nothing in client-go mirrors it.", Statement{Kind: Ours}},
		{"has no client-go counterpart", []string{"FaultState"}, "FaultState is what /debug/faults shows. It has no client-go counterpart.", Statement{Kind: Ours}},
		{
			"are ours about other names is not ours", []string{"Options"},
			"Options configure a Server. Profile, Clock and Logger are ours.",
			Statement{Note: "Profile, Clock and Logger are ours."},
		},
		{
			"e.g. does not end a sentence", []string{"String"},
			"String mirrors GroupVersionKind.String, e.g. \"/v1, Kind=Pod\".",
			Statement{Kind: Mirrors, Ident: "GroupVersionKind.String"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.names, tt.comment)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) mismatch (-want +got):\n%s", tt.comment, diff)
			}
		})
	}
}

func TestSplitSentences(t *testing.T) {
	got := splitSentences(`A mirrors v1.Pod, e.g. kubectl. It is "x". 2 more, e.g. "y". Done`)
	want := []string{`A mirrors v1.Pod, e.g. kubectl.`, `It is "x".`, `2 more, e.g. "y".`, `Done`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

package protobuf

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// filler fills objects with random values that are valid for the specially encoded types:
// canonical quantities, int-or-strings of either kind, whole-second times, microsecond
// micro-times and small embedded JSON documents.
func filler(seed int64) *randfill.Filler {
	suffixes := []string{"", "m", "k", "M", "Ki", "Mi", "Gi"}
	return randfill.New().RandSource(rand.NewSource(seed)).NilChance(0.3).NumElements(0, 2).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(fmt.Sprintf("%d%s", c.Int63n(5000), suffixes[c.Intn(len(suffixes))]))
			*q = resource.MustParse(q.String())
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31() - 1<<30)
			} else {
				*v = intstr.FromString(c.String(8))
			}
		},
		func(t *metav1.Time, c randfill.Continue) {
			if c.Intn(4) == 0 {
				*t = metav1.Time{}
				return
			}
			*t = metav1.NewTime(time.Unix(c.Int63n(4e9), 0))
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			if c.Intn(4) == 0 {
				*t = metav1.MicroTime{}
				return
			}
			*t = metav1.NewMicroTime(time.Unix(c.Int63n(4e9), c.Int63n(1e6)*1000))
		},
		func(d *metav1.Duration, c randfill.Continue) {
			d.Duration = time.Duration(c.Int63n(1e13))
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.SetRawString(fmt.Sprintf(`{"f:k%d":{}}`, c.Intn(100)))
			if c.Intn(5) == 0 {
				f.SetRawBytes(nil)
			}
		},
		func(r *k8sruntime.RawExtension, c randfill.Continue) {
			if c.Bool() {
				r.Raw = []byte(fmt.Sprintf(`{"n":%d}`, c.Int63()))
			}
		},
	)
}

// TestCh02_ProtobufPropertyRandomObjects fills objects of every served kind at random and
// checks our codec against the generated code. The random object may use fields newer than
// the descriptors, so the property is stated on what our encoder writes: the real decoder
// reads it, the generated Marshal of what it read gives the very same bytes, our Encode of
// its JSON gives them too, and our Decode of them gives its JSON.
func TestCh02_ProtobufPropertyRandomObjects(t *testing.T) {
	c := codec(t)
	kinds := []func() k8sruntime.Object{
		func() k8sruntime.Object { return &corev1.Pod{} }, func() k8sruntime.Object { return &corev1.ConfigMap{} },
		func() k8sruntime.Object { return &corev1.Namespace{} }, func() k8sruntime.Object { return &corev1.Node{} },
		func() k8sruntime.Object { return &corev1.Service{} },
		//lint:ignore SA1019 Endpoints is deprecated upstream but still a served kind
		func() k8sruntime.Object { return &corev1.Endpoints{} },
		func() k8sruntime.Object { return &corev1.Secret{} }, func() k8sruntime.Object { return &corev1.ServiceAccount{} },
		func() k8sruntime.Object { return &corev1.Event{} }, func() k8sruntime.Object { return &corev1.PersistentVolumeClaim{} },
		func() k8sruntime.Object { return &corev1.PodList{} },
		func() k8sruntime.Object { return &appsv1.Deployment{} }, func() k8sruntime.Object { return &appsv1.ReplicaSet{} },
		func() k8sruntime.Object { return &appsv1.StatefulSet{} }, func() k8sruntime.Object { return &appsv1.DaemonSet{} },
		func() k8sruntime.Object { return &batchv1.Job{} }, func() k8sruntime.Object { return &batchv1.CronJob{} },
		func() k8sruntime.Object { return &coordinationv1.Lease{} }, func() k8sruntime.Object { return &eventsv1.Event{} },
		func() k8sruntime.Object { return &discoveryv1.EndpointSlice{} }, func() k8sruntime.Object { return &autoscalingv1.Scale{} },
		func() k8sruntime.Object { return &metav1.Status{} }, func() k8sruntime.Object { return &metav1.DeleteOptions{} },
	}
	const perKind = 40
	for _, newObj := range kinds {
		sample := newObj()
		gvks, _, err := clientScheme.ObjectKinds(sample)
		require.NoError(t, err)
		gvk := gvks[0]
		t.Run(gvk.Kind+"."+gvk.Group, func(t *testing.T) {
			for seed := int64(0); seed < perKind; seed++ {
				obj := newObj()
				filler(seed).Fill(obj)
				obj.GetObjectKind().SetGroupVersionKind(gvk)
				dropSkew(obj)
				ourGVK := gvkOf(obj)

				ourBytes, err := c.Encode(ourGVK, tree(t, obj))
				require.NoError(t, err, "seed %d", seed)
				back := realDecode(t, ourBytes)
				back.GetObjectKind().SetGroupVersionKind(gvk)
				want := realEncode(t, back)
				if !bytes.Equal(want, ourBytes) {
					t.Fatalf("seed %d: our bytes are not the generated code's\n%s", seed, firstDiff(want, ourBytes))
				}
				again, err := c.Encode(ourGVK, tree(t, back))
				require.NoError(t, err)
				if !bytes.Equal(want, again) {
					t.Fatalf("seed %d: Encode of the decoded object differs\n%s", seed, firstDiff(want, again))
				}
				_, decoded, err := c.Decode(want)
				require.NoError(t, err)
				if diff := cmp.Diff(tree(t, back), decoded); diff != "" {
					t.Fatalf("seed %d: Decode differs (-want +got):\n%s", seed, diff)
				}
				checkTyped(t, back) // the typed path, for the kinds with a typed view
			}
		})
	}
}

// dropSkew clears the fields whose JSON changed between v1.36 (the descriptors) and the
// k8s.io/api these tests import, so the JSON trees compare. It also makes nil []byte map
// values empty: the generated code writes a nil one without its value and reads that back
// as empty, so a nil value does not survive its own round trip.
func dropSkew(obj k8sruntime.Object) {
	fill := func(m map[string][]byte) {
		for k, v := range m {
			if v == nil {
				m[k] = []byte{}
			}
		}
	}
	clearPod := func(p *corev1.Pod) { p.Status.NodeAllocatableResourceClaimStatuses = nil }
	switch o := obj.(type) {
	case *corev1.Pod:
		clearPod(o)
	case *corev1.Secret:
		fill(o.Data)
	case *corev1.ConfigMap:
		fill(o.BinaryData)
	case *corev1.PodList:
		for i := range o.Items {
			clearPod(&o.Items[i])
		}
	}
}

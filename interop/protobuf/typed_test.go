package protobuf

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/informer-lab/informer-lab/api"
)

// typedOf returns a new typed view of the kind, when the main module's Scheme has one
// (Pod, ConfigMap, Namespace, Node and their lists).
func typedOf(gvk api.GroupVersionKind) (api.Object, bool) {
	obj, err := api.DefaultScheme.New(gvk)
	if err == nil {
		return obj, true
	}
	if list, err := api.DefaultScheme.NewList(api.GroupVersionKind{Group: gvk.Group, Version: gvk.Version,
		Kind: gvk.Kind[:max(0, len(gvk.Kind)-len("List"))]}); err == nil && len(gvk.Kind) > 4 && gvk.Kind[len(gvk.Kind)-4:] == "List" {
		return list, true
	}
	return nil, false
}

// dropUnmodeled forgets the message a typed object (or each item of a typed list) keeps,
// so it encodes as if built in Go.
func dropUnmodeled(obj any) {
	v := reflect.ValueOf(obj).Elem()
	if f := v.FieldByName("Unmodeled"); f.IsValid() {
		f.SetZero()
	}
	if items := v.FieldByName("Items"); items.IsValid() {
		for i := range items.Len() {
			if f := items.Index(i).FieldByName("Unmodeled"); f.IsValid() {
				f.SetZero()
			}
		}
	}
}

// checkTyped is the byte-for-byte property of the typed path for one object whose kind has
// a typed view: (1) the real bytes decoded into the view and encoded again are the same
// bytes; (2) the view equals the one decoded from the real object's JSON; (3) the view
// built in Go (no kept message) encodes as the real serializer encodes the object its JSON
// describes. Lists and Status keep no message of their own, so the list metadata they
// do not model is cleared first.
func checkTyped(t *testing.T, obj k8sruntime.Object) {
	t.Helper()
	c := codec(t)
	gvk := gvkOf(obj)
	typed, ok := typedOf(gvk)
	if !ok {
		return
	}
	want := realEncode(t, obj)
	if lm := reflect.ValueOf(obj).Elem().FieldByName("ListMeta"); lm.IsValid() {
		// our lists and Status keep no message of their own: the list metadata the view does
		// not model (selfLink, which no server sets since v1.20, and shardInfo) is not carried
		obj = obj.DeepCopyObject()
		lm = reflect.ValueOf(obj).Elem().FieldByName("ListMeta")
		lm.Set(reflect.ValueOf(metav1.ListMeta{ResourceVersion: lm.Interface().(metav1.ListMeta).ResourceVersion,
			Continue: lm.Interface().(metav1.ListMeta).Continue, RemainingItemCount: lm.Interface().(metav1.ListMeta).RemainingItemCount}))
		want = realEncode(t, obj)
	}
	gotGVK, err := c.DecodeInto(want, typed)
	require.NoError(t, err)
	require.Equal(t, gvk, gotGVK)
	got, err := c.EncodeTyped(gvk, typed)
	require.NoError(t, err)
	if !bytes.Equal(want, got) {
		t.Fatalf("typed round trip differs from the real serializer\n%s", firstDiff(want, got))
	}

	fromJSON := reflect.New(reflect.TypeOf(typed).Elem()).Interface().(api.Object)
	js, err := json.Marshal(realDecode(t, want))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, fromJSON))
	if diff := cmp.Diff(fromJSON, typed); diff != "" {
		t.Fatalf("typed decode differs from the JSON decode (-json +protobuf):\n%s", diff)
	}

	dropUnmodeled(typed)
	got, err = c.EncodeTyped(gvk, typed)
	require.NoError(t, err)
	js, err = json.Marshal(typed)
	require.NoError(t, err)
	sub, _, err := scheme.Codecs.UniversalDeserializer().Decode(js, nil, nil)
	require.NoError(t, err)
	if want := realEncode(t, sub); !bytes.Equal(want, got) {
		t.Fatalf("typed view built in Go differs from the real serializer\n%s", firstDiff(want, got))
	}
}

// TestCh02_ProtobufTypedMatchesGeneratedCode runs checkTyped on every fixture with a typed
// view.
func TestCh02_ProtobufTypedMatchesGeneratedCode(t *testing.T) {
	n := 0
	for name, obj := range fixtures() {
		if _, ok := typedOf(gvkOf(obj)); !ok {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) { checkTyped(t, obj) })
	}
	require.GreaterOrEqual(t, n, 3, "fixtures with a typed view")
}

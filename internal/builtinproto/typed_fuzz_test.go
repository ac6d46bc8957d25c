package builtinproto

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/informer-lab/informer-lab/api"
)

// FuzzDecodeTyped feeds arbitrary bytes to the typed path, into each typed view: DecodeInto
// returns an error or an object, never panics or hangs; an object it returns encodes, and
// that encoding decodes to an equal object.
func FuzzDecodeTyped(f *testing.F) {
	for _, name := range []string{"Pod.pb", "PodList.pb", "Status.pb"} {
		f.Add(readFile(f, name))
	}
	f.Add([]byte("k8s\x00"))
	f.Add(envelope("ConfigMap", pbField(1, pbField(1, []byte("cfg")))))
	f.Add(envelope("Namespace", pbField(2, pbField(1, []byte("kubernetes")))))
	f.Add(envelope("Node", pbField(3, pbField(4, pbField(1, []byte("Ready"))))))
	views := []func() api.Object{
		func() api.Object { return &api.Pod{} }, func() api.Object { return &api.PodList{} },
		func() api.Object { return &api.ConfigMap{} }, func() api.Object { return &api.ConfigMapList{} },
		func() api.Object { return &api.Namespace{} }, func() api.Object { return &api.Node{} },
		func() api.Object { return &api.Status{} },
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, newObj := range views {
			obj := newObj()
			gvk, err := Codec().DecodeInto(data, obj)
			if err != nil {
				continue
			}
			again, err := Codec().EncodeTyped(gvk, obj)
			if err != nil {
				t.Fatalf("%T decoded but does not encode: %v", obj, err)
			}
			back := newObj()
			if _, err := Codec().DecodeInto(again, back); err != nil {
				t.Fatalf("%T: our own encoding does not decode: %v", obj, err)
			}
			if diff := cmp.Diff(obj, back); diff != "" {
				t.Fatalf("%T: decode, encode, decode changed it (-first +second):\n%s", obj, diff)
			}
		}
	})
}

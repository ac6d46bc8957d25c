package decode

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// Benchmarks of Object against what the same body costs without a schema: encoding/json
// into map[string]any, and api.Unstructured (exact numbers), the decode a schema-less
// create does today.

var benchBodies = []struct {
	name string
	gvk  api.GroupVersionKind
	body []byte
}{
	{"Deployment3KB", decodeDeployGVK, []byte(fullDeploymentJSON)},
	{"ConfigMap512B", decodeConfigMapGVK, []byte(smallConfigMapJSON)},
}

func BenchmarkDecodeObject(b *testing.B) {
	for _, bb := range benchBodies {
		s := mustSchema(b, bb.gvk)
		for _, fv := range []string{api.FieldValidationStrict, api.FieldValidationWarn} {
			b.Run(bb.name+"/"+fv, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(bb.body)))
				for b.Loop() {
					if _, _, err := Object(bb.body, s, bb.gvk, fv); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDecodeObjectSchemaCost isolates the schema's share: the same reader with no
// schema (every member free-form) builds the same tree without any check.
func BenchmarkDecodeObjectSchemaCost(b *testing.B) {
	for _, bb := range benchBodies {
		b.Run(bb.name+"/NoSchema", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bb.body)))
			for b.Loop() {
				if _, _, err := Object(bb.body, nil, bb.gvk, api.FieldValidationStrict); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeObjectVsUnmarshal runs Object and json.Unmarshal into map[string]any
// alternately on one body and reports both and their ratio, so that a busy machine slows
// both alike.
func BenchmarkDecodeObjectVsUnmarshal(b *testing.B) {
	for _, bb := range benchBodies {
		s := mustSchema(b, bb.gvk)
		b.Run(bb.name, func(b *testing.B) {
			var object, plain time.Duration
			for b.Loop() {
				t0 := time.Now()
				if _, _, err := Object(bb.body, s, bb.gvk, api.FieldValidationStrict); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				var m map[string]any
				if err := json.Unmarshal(bb.body, &m); err != nil {
					b.Fatal(err)
				}
				object += t1.Sub(t0)
				plain += time.Since(t1)
			}
			b.ReportMetric(float64(object.Nanoseconds())/float64(b.N), "object-ns/op")
			b.ReportMetric(float64(plain.Nanoseconds())/float64(b.N), "unmarshal-ns/op")
			b.ReportMetric(float64(object)/float64(plain), "object/unmarshal")
		})
	}
}

func BenchmarkDecodeObjectBaseline(b *testing.B) {
	for _, bb := range benchBodies {
		b.Run(bb.name+"/json.Unmarshal", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bb.body)))
			for b.Loop() {
				var m map[string]any
				if err := json.Unmarshal(bb.body, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bb.name+"/Unstructured", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bb.body)))
			for b.Loop() {
				var u api.Unstructured
				if err := u.UnmarshalJSON(bb.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func FuzzDecodeObject(f *testing.F) {
	f.Add([]byte(fullDeploymentJSON), "Strict", 1)
	f.Add([]byte(smallConfigMapJSON), "Warn", 2)
	f.Add([]byte(`{"spec":{"containers":[{"name":"c","imagePullPolicyy":1,"ports":[{"containerPort":"80"}]}],"zz":[{"a":1,"a":2}]}}`), "", 0)
	f.Add([]byte(`{"metadata":{"name":"a","name":"b","labels":null},"spec":{"containers":[null,{"resources":{"limits":{"cpu":"1x"}}}]}}`), "Ignore", 0)
	f.Add([]byte(`{"data":{"k":"aGk=","k":"!!"},"metadata":{"creationTimestamp":"now"}}`), "Strict", 3)
	f.Add([]byte("{\"data\":{\"\\ud800\":\"\xff\"}}"), "Warn", 2)
	f.Add([]byte(`{"spec":{"replicas":1e400,"template":{"spec":{"containers":[{"name":"c"}]}},"selector":{}}}`), "Warn", 1)
	f.Add([]byte(`null`), "", 0)
	gvks := []api.GroupVersionKind{decodePodGVK, decodeDeployGVK, decodeConfigMapGVK, decodeSecretGVK}
	for _, gvk := range gvks {
		mustSchema(f, gvk)
	}
	f.Fuzz(func(t *testing.T, body []byte, fv string, which int) {
		gvk := gvks[uint(which)%uint(len(gvks))]
		s := mustSchema(t, gvk)
		u, _, err := Object(body, s, gvk, fv)
		if err != nil {
			if c := api.CodeForError(err); c != 400 && c != 422 {
				t.Fatalf("error is not a 400/422 Status: %v", err)
			}
			if strings.Contains(err.Error(), "could not be read as a JSON object") {
				t.Fatalf("the reader refused what encoding/json accepts: %v", err)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		if got := u.GroupVersionKind(); got != gvk {
			t.Fatalf("decoded kind %v, want %v", got, gvk)
		}
		// What was stored decodes again, under Strict, to the same JSON.
		first, err := json.Marshal(u.Object)
		if err != nil {
			t.Fatalf("stored object does not encode: %v", err)
		}
		again, warnings, err := Object(first, s, gvk, api.FieldValidationStrict)
		if err != nil || len(warnings) > 0 {
			t.Fatalf("stored object %s does not decode again: %v %v", first, err, warnings)
		}
		second, _ := json.Marshal(again.Object)
		if string(first) != string(second) {
			t.Fatalf("decode is not stable:\n%s\n%s", first, second)
		}
	})
}

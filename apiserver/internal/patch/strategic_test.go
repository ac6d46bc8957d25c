package patch

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
)

const smpPod = `{"apiVersion":"v1","kind":"Pod",
 "metadata":{"name":"web","namespace":"default","labels":{"app":"web","tier":"fe"},"finalizers":["x","y"],
   "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u1"}]},
 "spec":{"containers":[
   {"name":"a","image":"a:1","ports":[{"containerPort":80,"name":"http"}],"env":[{"name":"X","value":"1"},{"name":"Y","value":"1"}],
    "volumeMounts":[{"name":"data","mountPath":"/data"}]},
   {"name":"b","image":"b:1"}],
  "volumes":[{"name":"data","emptyDir":{}}]},
 "status":{"phase":"Running","conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`

// TestCh01_StrategicMergePatch covers docs/behaviour/wire.md X1 and X3: lists merged by key, the
// directives, and the bodies kubectl sends.
func TestCh01_StrategicMergePatch(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		check func(t *testing.T, got map[string]any)
	}{
		{"containers merge by name", `{"spec":{"containers":[{"name":"b","image":"b:2"}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"a:1", "b:2"}, smpPluck(got, "spec", "containers", "image"))
		}},
		{"a new container goes first (upstream order rule)", `{"spec":{"containers":[{"name":"c","image":"c:1"}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"c", "a", "b"}, smpPluck(got, "spec", "containers", "name"))
		}},
		{"$patch delete in a list", `{"spec":{"containers":[{"name":"a","$patch":"delete"}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"b"}, smpPluck(got, "spec", "containers", "name"))
		}},
		{"$patch replace in a list", `{"spec":{"containers":[{"name":"z","image":"z:1"},{"$patch":"replace"}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"z"}, smpPluck(got, "spec", "containers", "name"))
		}},
		{"$patch replace on an object", `{"metadata":{"labels":{"$patch":"replace","new":"1"}}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, map[string]any{"new": "1"}, smpDig(got, "metadata", "labels"))
		}},
		{"$patch delete on an object", `{"metadata":{"labels":{"$patch":"delete"}}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, map[string]any{}, smpDig(got, "metadata", "labels"))
		}},
		{"null deletes", `{"metadata":{"labels":{"tier":null}},"status":{"phase":null}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, map[string]any{"app": "web"}, smpDig(got, "metadata", "labels"))
			assert.NotContains(t, smpDig(got, "status"), "phase")
		}},
		{"ports by containerPort, env by name, volumeMounts by mountPath",
			`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":8080}],"env":[{"name":"Y","value":"2"}],"volumeMounts":[{"mountPath":"/data","readOnly":true}]}]}}`,
			func(t *testing.T, got map[string]any) {
				c := smpDig(got, "spec", "containers").([]any)[0].(map[string]any)
				assert.JSONEq(t, `[{"containerPort":80,"name":"http","protocol":"TCP"},{"containerPort":8080}]`, smpJSON(t, c["ports"]))
				assert.JSONEq(t, `[{"name":"X","value":"1"},{"name":"Y","value":"2"}]`, smpJSON(t, c["env"]))
				assert.JSONEq(t, `[{"name":"data","mountPath":"/data","readOnly":true}]`, smpJSON(t, c["volumeMounts"]))
			}},
		{"$retainKeys on a volume", `{"spec":{"volumes":[{"name":"data","$retainKeys":["name","hostPath"],"hostPath":{"path":"/x"}}]}}`, func(t *testing.T, got map[string]any) {
			assert.JSONEq(t, `[{"name":"data","hostPath":{"path":"/x"}}]`, smpJSON(t, smpDig(got, "spec", "volumes")))
		}},
		{"$setElementOrder", `{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"a:2"}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"b", "a"}, smpPluck(got, "spec", "containers", "name"))
			assert.Equal(t, []any{"b:1", "a:2"}, smpPluck(got, "spec", "containers", "image"))
		}},
		{"$setElementOrder with a new item", `{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"c"},{"name":"b"}],"containers":[{"name":"c","image":"c:1"}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"a", "c", "b"}, smpPluck(got, "spec", "containers", "name"))
		}},
		{"$deleteFromPrimitiveList", `{"metadata":{"$deleteFromPrimitiveList/finalizers":["y"]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"x"}, smpDig(got, "metadata", "finalizers"))
		}},
		{"finalizers merge as a set", `{"metadata":{"finalizers":["w","x"]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"w", "x", "y"}, smpDig(got, "metadata", "finalizers"))
		}},
		{"ownerReferences by uid", `{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"X","name":"n","uid":"u2"},{"uid":"u1","controller":true}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"u2", "u1"}, smpPluck(got, "metadata", "ownerReferences", "uid"))
			assert.Equal(t, []any{nil, true}, smpPluck(got, "metadata", "ownerReferences", "controller"))
		}},
		{"status conditions by type", `{"status":{"conditions":[{"type":"Ready","status":"True"}]}}`, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"True", "True"}, smpPluck(got, "status", "conditions", "status"))
			assert.Equal(t, []any{"Ready", "PodScheduled"}, smpPluck(got, "status", "conditions", "type"))
		}},
		{"a list without a strategy is replaced", `{"spec":{"tolerations":[{"key":"k"}]}}`, func(t *testing.T, got map[string]any) {
			assert.JSONEq(t, `[{"key":"k"}]`, smpJSON(t, smpDig(got, "spec", "tolerations")))
		}},
		{"directives do not leak into new values", `{"spec":{"initContainers":[{"name":"i","image":"i:1"},{"name":"gone","$patch":"delete"}]}}`, func(t *testing.T, got map[string]any) {
			assert.JSONEq(t, `[{"name":"i","image":"i:1"}]`, smpJSON(t, smpDig(got, "spec", "initContainers")))
		}},
		// X2: the body kubectl apply (client-side) sends for a changed image and label.
		{"kubectl client-side apply", `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}\n"},"labels":{"tier":"be"}},"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],"containers":[{"image":"a:2","name":"a"}]}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, map[string]any{"app": "web", "tier": "be"}, smpDig(got, "metadata", "labels"))
				assert.Contains(t, smpDig(got, "metadata", "annotations"), "kubectl.kubernetes.io/last-applied-configuration")
				assert.Equal(t, []any{"a:2", "b:1"}, smpPluck(got, "spec", "containers", "image"))
				assert.NotContains(t, smpDig(got, "spec"), "$setElementOrder/containers")
			}},
		{"null patch changes nothing", `null`, func(t *testing.T, got map[string]any) {
			var want map[string]any
			require.NoError(t, json.Unmarshal([]byte(smpPod), &want))
			assert.JSONEq(t, smpJSON(t, want), smpJSON(t, got))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := applyStrategicMergePatch([]byte(smpPod), []byte(tc.patch), gvkPod)
			require.NoError(t, err)
			var got map[string]any
			require.NoError(t, json.Unmarshal(out, &got))
			tc.check(t, got)
			// The result still decodes as a Pod.
			_, _, err = decode.Body(api.DefaultScheme, out, api.GroupVersionKind{Version: "v1", Kind: "Pod"}, api.FieldValidationIgnore)
			require.NoError(t, err)
		})
	}
}

func TestCh01_StrategicMergePatchOtherKinds(t *testing.T) {
	out, err := applyStrategicMergePatch([]byte(`{"kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1","b":"2"}}`), []byte(`{"data":{"a":null,"c":"3"}}`), gvkConfigMap)
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"ConfigMap","metadata":{"name":"c"},"data":{"b":"2","c":"3"}}`, string(out))

	out, err = applyStrategicMergePatch([]byte(`{"kind":"Namespace","metadata":{"name":"n"},"spec":{"finalizers":["kubernetes"]},"status":{"conditions":[{"type":"A","status":"True"}]}}`),
		[]byte(`{"spec":{"finalizers":[]},"status":{"conditions":[{"type":"B","status":"False"}]}}`), gvkNamespace)
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"Namespace","metadata":{"name":"n"},"spec":{"finalizers":[]},"status":{"conditions":[{"type":"B","status":"False"},{"type":"A","status":"True"}]}}`, string(out),
		"spec.finalizers has no merge strategy: replaced; status.conditions merge by type")
}

// TestCh01_StrategicMergePatchErrors checks E22, E23 and the SMP error mapping.
func TestCh01_StrategicMergePatchErrors(t *testing.T) {
	tests := []struct {
		name, doc, patch string
		gvk              api.GroupVersionKind
		code             int32
		msg              string
	}{
		{"E22 custom kind", `{}`, `{}`, api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Foo"}, 415,
			"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"},
		{"E23", smpPod, `{"spec":`, gvkPod, 400, "invalid JSON patch"},
		{"not an object", smpPod, `[1]`, gvkPod, 400, "json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{"bad $retainKeys", smpPod, `{"metadata":{"$retainKeys":"name"}}`, gvkPod, 400, "invalid patch format of retainKeys"},
		{"$retainKeys not covering the patch", smpPod, `{"metadata":{"$retainKeys":["name"],"labels":{"a":"b"}}}`, gvkPod, 400, "invalid patch format of retainKeys"},
		{"bad $deleteFromPrimitiveList", smpPod, `{"metadata":{"$deleteFromPrimitiveList":["x"]}}`, gvkPod, 400, "invalid patch format of primitive list"},
		{"list of lists", `{"metadata":{"finalizers":[]}}`, `{"metadata":{"finalizers":[["x"]]}}`, gvkPod, 422, "the server rejected our request due to an error in our request"},
		{"unknown $patch", smpPod, `{"metadata":{"$patch":"bogus"}}`, gvkPod, 500, "unknown patch type: bogus in map: map[$patch:bogus]"},
		{"$patch merge on an object", smpPod, `{"metadata":{"labels":{"$patch":"merge"}}}`, gvkPod, 500, "unknown patch type: merge in map: map[$patch:merge]"},
		{"missing merge key", smpPod, `{"spec":{"containers":[{"image":"x"}]}}`, gvkPod, 500, "map: map[image:x] does not contain declared merge key: name"},
		{"mixed element types", smpPod, `{"metadata":{"finalizers":[1]}}`, gvkPod, 500, "list element types are not identical: [[x y] [1]]"},
		{"$setElementOrder not covering the patch", smpPod, `{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"b","image":"b:2"}]}}`, gvkPod, 500,
			"The order in patch list:\n[map[image:b:2 name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n"},
		// Upstream looks a $setElementOrder list up in the Go type before anything else, so a
		// name that is not a list field of that level is a 500, never a silent no-op.
		{"$setElementOrder of an unknown field", smpPod, `{"spec":{"$setElementOrder/bogus":[]}}`, gvkPod, 500,
			`unable to find api field in struct PodSpec for the json field "bogus"`},
		{"$setElementOrder without a field name", smpPod, `{"metadata":{"$setElementOrder/":[]}}`, gvkPod, 500,
			`unable to find api field in struct ObjectMeta for the json field ""`},
		{"$setElementOrder at the top", smpPod, `{"$setElementOrder/bogus":[]}`, gvkPod, 500,
			`unable to find api field in struct Pod for the json field "bogus"`},
		{"$setElementOrder in a container", smpPod, `{"spec":{"containers":[{"name":"a","$setElementOrder/bogus":[]}]}}`, gvkPod, 500,
			`unable to find api field in struct Container for the json field "bogus"`},
		{"$setElementOrder in an ephemeral container", `{"spec":{"ephemeralContainers":[{"name":"e"}]}}`,
			`{"spec":{"ephemeralContainers":[{"name":"e","$setElementOrder/bogus":[]}]}}`, gvkPod, 500,
			`unable to find api field in struct EphemeralContainer for the json field "bogus"`},
		{"$setElementOrder in a volume", smpPod, `{"spec":{"volumes":[{"name":"data","$setElementOrder/bogus":[]}]}}`, gvkPod, 500,
			`unable to find api field in struct Volume for the json field "bogus"`},
		{"$setElementOrder in a volume source", smpPod, `{"spec":{"volumes":[{"name":"data","emptyDir":{"$setElementOrder/bogus":[]}}]}}`, gvkPod, 500,
			`unable to find api field in struct EmptyDirVolumeSource for the json field "bogus"`},
		{"$setElementOrder in a status condition", smpPod, `{"status":{"conditions":[{"type":"Ready","$setElementOrder/bogus":[]}]}}`, gvkPod, 500,
			`unable to find api field in struct PodCondition for the json field "bogus"`},
		{"$setElementOrder in a configmap", `{"kind":"ConfigMap","metadata":{"name":"c"}}`, `{"$setElementOrder/bogus":[]}`, gvkConfigMap, 500,
			`unable to find api field in struct ConfigMap for the json field "bogus"`},
		{"$setElementOrder in a namespace status", `{"kind":"Namespace","status":{"phase":"Active"}}`, `{"status":{"$setElementOrder/bogus":[]}}`, gvkNamespace, 500,
			`unable to find api field in struct NamespaceStatus for the json field "bogus"`},
		{"$setElementOrder of a field that is no list", smpPod, `{"spec":{"$setElementOrder/nodeName":[]}}`, gvkPod, 500,
			"expected slice or array type, but got: struct"},
		{"$setElementOrder matching a field in another case", smpPod, `{"spec":{"$setElementOrder/NodeName":[]}}`, gvkPod, 500,
			"expected slice or array type, but got: struct"},
		{"$setElementOrder in a map", smpPod, `{"metadata":{"labels":{"$setElementOrder/x":[]}}}`, gvkPod, 500,
			"merging an object in json but data type is not struct, instead is: map"},
		// The patch handler decodes integers as int64 and other numbers as float64, and the
		// messages show it.
		{"$setElementOrder an integer", smpPod, `{"spec":{"$setElementOrder/containers":1}}`, gvkPod, 500,
			"expected a []interface {}, but received a int64"},
		{"$setElementOrder a fraction", smpPod, `{"spec":{"$setElementOrder/containers":1.5}}`, gvkPod, 500,
			"expected a []interface {}, but received a float64"},
		// Upstream formats an unknown $patch with %s: only a string prints plainly.
		{"$patch a number", smpPod, `{"metadata":{"$patch":1}}`, gvkPod, 500, "unknown patch type: %!s(int64=1) in map: map[$patch:1]"},
		{"$patch a fraction", smpPod, `{"$patch":1.5}`, gvkPod, 500, "unknown patch type: %!s(float64=1.5) in map: map[$patch:1.5]"},
		{"$patch null", smpPod, `{"metadata":{"$patch":null}}`, gvkPod, 500, "unknown patch type: %!s(<nil>) in map: map[$patch:<nil>]"},
		{"$patch an object", smpPod, `{"metadata":{"$patch":{"a":1}}}`, gvkPod, 500, "unknown patch type: map[a:%!s(int64=1)] in map: map[$patch:map[a:1]]"},
		{"$patch a bool in a list", smpPod, `{"spec":{"containers":[{"name":"a","$patch":true}]}}`, gvkPod, 500,
			"unknown patch type: %!s(bool=true) in map: map[$patch:true name:a]"},
		{"$patch a number in a nested list", smpPod, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":81,"$patch":1}]}]}}`, gvkPod, 500,
			"unknown patch type: %!s(int64=1) in map: map[$patch:1 containerPort:81]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := applyStrategicMergePatch([]byte(tc.doc), []byte(tc.patch), tc.gvk)
			require.Error(t, err)
			assert.Equal(t, tc.code, api.CodeForError(err))
			assert.EqualError(t, err, tc.msg)
			if tc.code == 500 {
				assert.Equal(t, api.StatusReasonUnknown, api.ReasonForError(err), "upstream sends these as non-Status errors")
			}
		})
	}
}

// TestCh01_StrategicMergePatchLenientDirectives pins what upstream accepts without a word:
// a $deleteFromPrimitiveList whose value is not a list (mergeMap skips it when the types of
// the two sides differ, and the handler answers 200 with the object unchanged), and a
// $setElementOrder of a list field neither side has.
func TestCh01_StrategicMergePatchLenientDirectives(t *testing.T) {
	for _, tc := range []struct{ name, patch string }{
		{"$deleteFromPrimitiveList a string", `{"metadata":{"$deleteFromPrimitiveList/finalizers":"y"}}`},
		{"$deleteFromPrimitiveList a number", `{"metadata":{"$deleteFromPrimitiveList/finalizers":1}}`},
		{"$deleteFromPrimitiveList an object", `{"metadata":{"$deleteFromPrimitiveList/finalizers":{"y":true}}}`},
		{"$deleteFromPrimitiveList a bool", `{"metadata":{"$deleteFromPrimitiveList/finalizers":true}}`},
		{"$deleteFromPrimitiveList of a missing list", `{"metadata":{"$deleteFromPrimitiveList/bogus":"y"}}`},
		{"$deleteFromPrimitiveList of a map", `{"metadata":{"$deleteFromPrimitiveList/labels":"app"}}`},
		{"$deleteFromPrimitiveList of containers, by name", `{"spec":{"$deleteFromPrimitiveList/containers":"a"}}`},
		{"$deleteFromPrimitiveList an empty list", `{"metadata":{"$deleteFromPrimitiveList/finalizers":[]}}`},
		{"$setElementOrder of an absent list", `{"spec":{"$setElementOrder/tolerations":[]}}`},
		{"$setElementOrder of a pointer field", `{"spec":{"$setElementOrder/securityContext":[]}}`},
		{"$setElementOrder matching a list in another case", `{"spec":{"$setElementOrder/Containers":[]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := applyStrategicMergePatch([]byte(smpPod), []byte(tc.patch), gvkPod)
			require.NoError(t, err)
			var want map[string]any
			require.NoError(t, json.Unmarshal([]byte(smpPod), &want))
			assert.JSONEq(t, smpJSON(t, want), string(out))
		})
	}
}

// TestCh01_StrategicMergePatchSchemaFields: in every kind's schema, every field with patch
// metadata is one of its level's fields, only lists merge, and the levels name the Go types
// upstream reports.
func TestCh01_StrategicMergePatchSchemaFields(t *testing.T) {
	var walk func(path string, s *smpSchema)
	seen := map[*smpSchema]bool{}
	walk = func(path string, s *smpSchema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.isMap {
			assert.Empty(t, s.special, path)
			return
		}
		assert.NotEmpty(t, s.goType, path)
		for name, f := range s.special {
			assert.Contains(t, s.fields, name, "%s.%s", path, name)
			if f.strategy == smpMerge {
				assert.Equal(t, "[]", s.fields[name], "%s.%s: only lists merge by strategy", path, name)
			}
			if f.mergeKey != "" {
				require.NotNil(t, f.sub, "%s.%s: a merge key needs the element's fields", path, name)
				assert.Contains(t, f.sub.fields, f.mergeKey, "%s.%s", path, name)
			}
			walk(path+"."+name, f.sub)
		}
	}
	idx := loadSMPIndex()
	for _, gvk := range servedKinds {
		s := idx.byGVK[gvk]
		require.NotNil(t, s, gvk.String())
		assert.Equal(t, gvk.Kind, s.goType)
		walk(gvk.Kind, s)
	}
}

// dig walks nested objects.
func smpDig(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		cm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = cm[p]
	}
	return cur
}

// pluck returns field of every object in the list at path.
func smpPluck(m map[string]any, pathAndField ...string) []any {
	path, field := pathAndField[:len(pathAndField)-1], pathAndField[len(pathAndField)-1]
	list, _ := smpDig(m, path...).([]any)
	out := make([]any, len(list))
	for i, e := range list {
		if em, ok := e.(map[string]any); ok {
			out[i] = em[field]
		}
	}
	return out
}

func smpJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func BenchmarkApplyStrategicMergePatchPod(b *testing.B) {
	patch := []byte(`{"metadata":{"labels":{"tier":"be"}},"spec":{"containers":[{"name":"b","image":"b:2"}]}}`)
	orig := []byte(smpPod)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := applyStrategicMergePatch(orig, patch, gvkPod); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzApplyStrategicMergePatch(f *testing.F) {
	f.Add([]byte(smpPod), []byte(`{"spec":{"containers":[{"name":"b","image":"b:2"},{"name":"a","$patch":"delete"}]}}`))
	f.Add([]byte(smpPod), []byte(`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"a:2"}]}}`))
	f.Add([]byte(smpPod), []byte(`{"metadata":{"$deleteFromPrimitiveList/finalizers":["y"],"finalizers":["z"],"labels":{"$patch":"replace"}}}`))
	f.Add([]byte(smpPod), []byte(`{"spec":{"volumes":[{"name":"data","$retainKeys":["name"]}]},"status":{"conditions":[{"type":"X"},{"$patch":"replace"}]}}`))
	f.Add([]byte(`{"metadata":{"finalizers":[]}}`), []byte(`{"metadata":{"finalizers":[["x"],null]}}`))
	f.Fuzz(func(t *testing.T, doc, patch []byte) {
		out, err := applyStrategicMergePatch(doc, patch, gvkPod)
		if err != nil {
			var st *api.Status
			if !errorsAsStatus(err, &st) {
				t.Fatalf("error is not a Status: %v", err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON result %q", out)
		}
	})
}

func errorsAsStatus(err error, st **api.Status) bool {
	s, ok := err.(*api.Status)
	*st = s
	return ok
}

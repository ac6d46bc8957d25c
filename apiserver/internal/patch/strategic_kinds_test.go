package patch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// smpDeployment is a live Deployment as the server holds it after one kubectl apply: the
// manifest, its last-applied annotation, the defaults and a status.
func smpDeployment(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "smp", "deployment.json"))
	require.NoError(t, err)
	return data
}

// TestCh01_SMP_BuiltinKinds covers docs/behaviour/wire.md X3 for kinds beyond Pod: each patch is what
// kubectl patch, label, scale or apply sends, and the patch metadata comes from the kind's
// OpenAPI schema.
func TestCh01_SMP_BuiltinKinds(t *testing.T) {
	deployment := string(smpDeployment(t))
	tests := []struct {
		name       string
		gvk        api.GroupVersionKind
		doc, patch string
		check      func(t *testing.T, got map[string]any)
	}{
		{"Deployment: an image change merges the container by name, env and ports stay", gvkDeployment, deployment,
			`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}`,
			func(t *testing.T, got map[string]any) {
				c := smpDig(got, "spec", "template", "spec", "containers").([]any)
				assert.Equal(t, []any{"nginx:1.27", "busybox:1.36"}, smpPluck(got, "spec", "template", "spec", "containers", "image"))
				assert.JSONEq(t, `[{"name":"A","value":"1"}]`, smpJSON(t, c[0].(map[string]any)["env"]))
				assert.JSONEq(t, `[{"containerPort":80,"protocol":"TCP"}]`, smpJSON(t, c[0].(map[string]any)["ports"]))
			}},
		{"Deployment: $setElementOrder/containers", gvkDeployment, deployment,
			`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"web"}],"containers":[{"name":"sidecar","image":"busybox:1.37"}]}}}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, []any{"sidecar", "web"}, smpPluck(got, "spec", "template", "spec", "containers", "name"))
				assert.Equal(t, []any{"busybox:1.37", "nginx:1.25"}, smpPluck(got, "spec", "template", "spec", "containers", "image"))
			}},
		{"Deployment: $patch delete of a container", gvkDeployment, deployment,
			`{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, []any{"web"}, smpPluck(got, "spec", "template", "spec", "containers", "name"))
			}},
		{"Deployment: $retainKeys on the strategy drops rollingUpdate", gvkDeployment, deployment,
			`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, map[string]any{"type": "Recreate"}, smpDig(got, "spec", "strategy"))
			}},
		{"Deployment: $retainKeys on a volume source swaps emptyDir for a configMap", gvkDeployment,
			`{"spec":{"template":{"spec":{"volumes":[{"name":"cfg","emptyDir":{}},{"name":"data","emptyDir":{"medium":"Memory"}}]}}}}`,
			`{"spec":{"template":{"spec":{"volumes":[{"name":"cfg","$retainKeys":["configMap","name"],"configMap":{"name":"app-config"}}]}}}}`,
			func(t *testing.T, got map[string]any) {
				assert.JSONEq(t, `[{"name":"cfg","configMap":{"name":"app-config"}},{"name":"data","emptyDir":{"medium":"Memory"}}]`,
					smpJSON(t, smpDig(got, "spec", "template", "spec", "volumes")))
			}},
		{"Deployment: selector labels are a map, merged", gvkDeployment, deployment,
			`{"spec":{"selector":{"matchLabels":{"tier":"fe"}}}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, map[string]any{"app": "web", "tier": "fe"}, smpDig(got, "spec", "selector", "matchLabels"))
			}},
		{"Service: ports merge by port", api.GroupVersionKind{Version: "v1", Kind: "Service"},
			`{"kind":"Service","spec":{"ports":[{"name":"http","port":80,"targetPort":8080,"protocol":"TCP"},{"name":"https","port":443,"protocol":"TCP"}]}}`,
			`{"spec":{"ports":[{"port":80,"targetPort":"web"},{"port":9090,"name":"metrics"}]}}`,
			func(t *testing.T, got map[string]any) {
				assert.JSONEq(t, `[{"name":"http","port":80,"targetPort":"web","protocol":"TCP"},{"port":9090,"name":"metrics"},{"name":"https","port":443,"protocol":"TCP"}]`,
					smpJSON(t, smpDig(got, "spec", "ports")))
			}},
		{"Node: kubectl label adds and removes labels", api.GroupVersionKind{Version: "v1", Kind: "Node"},
			`{"kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1","old":"x"}},"spec":{"taints":[{"key":"a","effect":"NoSchedule"}]}}`,
			`{"metadata":{"labels":{"disk":"ssd","old":null}},"spec":{"taints":[{"key":"b","effect":"NoExecute"}]}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, map[string]any{"kubernetes.io/hostname": "n1", "disk": "ssd"}, smpDig(got, "metadata", "labels"))
				assert.JSONEq(t, `[{"key":"b","effect":"NoExecute"}]`, smpJSON(t, smpDig(got, "spec", "taints")), "taints are atomic: replaced")
			}},
		{"Job: suspend, and env merged by name in the pod template", api.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"},
			`{"kind":"Job","spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl","env":[{"name":"N","value":"100"}]}]}}}}`,
			`{"spec":{"suspend":true,"template":{"spec":{"containers":[{"name":"pi","env":[{"name":"DEBUG","value":"1"}]}]}}}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, true, smpDig(got, "spec", "suspend"))
				c := smpDig(got, "spec", "template", "spec", "containers").([]any)[0].(map[string]any)
				assert.JSONEq(t, `[{"name":"DEBUG","value":"1"},{"name":"N","value":"100"}]`, smpJSON(t, c["env"]))
				assert.Equal(t, "perl", c["image"])
			}},
		{"CronJob: the job template's containers merge by name", api.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"},
			`{"kind":"CronJob","spec":{"schedule":"* * * * *","jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}}}}}}`,
			`{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"b:2"}]}}}}}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, []any{"a:1", "b:2"}, smpPluck(got, "spec", "jobTemplate", "spec", "template", "spec", "containers", "image"))
			}},
		{"Scale: spec.replicas", gvkScale,
			`{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","resourceVersion":"42"},"spec":{"replicas":2},"status":{"replicas":2,"selector":"app=web"}}`,
			`{"spec":{"replicas":5}}`,
			func(t *testing.T, got map[string]any) {
				assert.Equal(t, json.Number("5"), smpDig(got, "spec", "replicas"))
				assert.Equal(t, "app=web", smpDig(got, "status", "selector"))
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := ApplyFor(api.StrategicMergePatchType, []byte(tc.doc), []byte(tc.patch), tc.gvk, true)
			require.NoError(t, err)
			got, err := decodeJSONTree(out)
			require.NoError(t, err)
			tc.check(t, got.(map[string]any))
		})
	}
}

// TestCh01_SMP_KubectlApplyDeployment replays the second kubectl apply (client-side) of a
// Deployment. kubectl sends the three-way patch of the last-applied annotation, the new
// manifest and the live object: the changed fields, $setElementOrder for each merging list
// whose items it lists, "$patch": "delete" for items the manifest dropped, $retainKeys for
// a struct with that strategy, and the new annotation. The want files are the objects the
// real server returns.
func TestCh01_SMP_KubectlApplyDeployment(t *testing.T) {
	live := smpDeployment(t)
	t.Run("unchanged manifest", func(t *testing.T) {
		// The three-way patch is empty; kubectl skips the request, and an empty patch sent
		// anyway changes nothing.
		out, err := ApplyFor(api.StrategicMergePatchType, live, []byte(`{}`), gvkDeployment, true)
		require.NoError(t, err)
		assert.JSONEq(t, string(live), string(out))
	})
	t.Run("unchanged manifest after the live replicas drifted", func(t *testing.T) {
		drifted, err := ApplyFor(api.MergePatchType, live, []byte(`{"spec":{"replicas":5}}`), gvkDeployment, true)
		require.NoError(t, err)
		out, err := ApplyFor(api.StrategicMergePatchType, drifted, []byte(`{"spec":{"replicas":2}}`), gvkDeployment, true)
		require.NoError(t, err)
		assert.JSONEq(t, string(live), string(out))
	})
	for _, name := range []string{"changed", "recreate"} {
		t.Run(name, func(t *testing.T) {
			// changed: replicas 3, a new first container, a new image and env var for web.
			// recreate: the sidecar dropped, the strategy switched to Recreate.
			patch, err := os.ReadFile(filepath.Join("testdata", "smp", "deployment-apply-"+name+".patch.json"))
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join("testdata", "smp", "deployment-apply-"+name+".want.json"))
			require.NoError(t, err)
			out, err := ApplyFor(api.StrategicMergePatchType, live, patch, gvkDeployment, true)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(out))
		})
	}
}

// TestCh01_SMP_EveryServedKind: a label patch and a $setElementOrder of an unknown field
// work on every served kind, so each has a schema with its Go type names.
func TestCh01_SMP_EveryServedKind(t *testing.T) {
	for _, gvk := range servedKinds {
		t.Run(gvk.String(), func(t *testing.T) {
			doc := []byte(`{"kind":"` + gvk.Kind + `","metadata":{"name":"x","labels":{"a":"1"}}}`)
			out, err := ApplyFor(api.StrategicMergePatchType, doc, []byte(`{"metadata":{"labels":{"b":"2"}}}`), gvk, true)
			require.NoError(t, err)
			assert.JSONEq(t, `{"kind":"`+gvk.Kind+`","metadata":{"name":"x","labels":{"a":"1","b":"2"}}}`, string(out))
			_, err = ApplyFor(api.StrategicMergePatchType, doc, []byte(`{"$setElementOrder/bogus":[]}`), gvk, true)
			assert.EqualError(t, err, `unable to find api field in struct `+gvk.Kind+` for the json field "bogus"`)
		})
	}
}

// TestCh01_SMP_KindLookup covers how a kind is found: by GVK, by name alone (Apply), and
// never for a custom kind or an unknown group-version.
func TestCh01_SMP_KindLookup(t *testing.T) {
	coreEvent := smpSchemaFor(api.GroupVersionKind{Version: "v1", Kind: "Event"})
	eventsEvent := smpSchemaFor(api.GroupVersionKind{Group: "events.k8s.io", Version: "v1", Kind: "Event"})
	require.NotNil(t, coreEvent)
	require.NotNil(t, eventsEvent)
	assert.NotSame(t, coreEvent, eventsEvent)
	assert.Contains(t, coreEvent.fields, "involvedObject")
	assert.Contains(t, eventsEvent.fields, "regarding")
	assert.Same(t, coreEvent, smpSchemaForKind("Event"), "a name alone takes the core group")
	assert.Same(t, smpSchemaFor(gvkScale), smpSchemaForKind("Scale"))

	for _, gvk := range []api.GroupVersionKind{
		{Group: "example.com", Version: "v1", Kind: "Foo"},
		{Group: "apps", Version: "v1beta1", Kind: "Deployment"},
		{Version: "v1", Kind: "PodSpec"}, // a definition, not a kind
	} {
		_, err := ApplyFor(api.StrategicMergePatchType, []byte(`{}`), []byte(`{}`), gvk, true)
		assert.True(t, api.IsUnsupportedMediaType(err), gvk.String())
	}
	_, err := ApplyFor(api.StrategicMergePatchType, []byte(`{}`), []byte(`{}`), gvkDeployment, false)
	assert.True(t, api.IsUnsupportedMediaType(err), "a custom kind named like a built-in one")
	_, err = Apply(api.StrategicMergePatchType, []byte(`{}`), []byte(`{}`), "Foo", true)
	assert.True(t, api.IsUnsupportedMediaType(err))
}

// TestCh01_SMP_BuildIndex checks the index builder on its own inputs: a document that does
// not parse or is missing is skipped, the first definition of a name wins, and recursive
// definitions end.
func TestCh01_SMP_BuildIndex(t *testing.T) {
	docs := map[string]string{
		"a": `{"components":{"schemas":{
			"x.v1.Tree":{"type":"object","x-kubernetes-group-version-kind":[{"group":"x","version":"v1","kind":"Tree"}],
				"properties":{"children":{"type":"array","items":{"$ref":"#/components/schemas/x.v1.Tree"},"x-kubernetes-patch-strategy":"merge,retainKeys","x-kubernetes-patch-merge-key":"id"},
				"id":{"type":"string"},"raw":{"type":"string","format":"byte"},"grid":{"type":"array","items":{"type":"array","items":{"type":"string"}}},
				"tags":{"type":"object","additionalProperties":{"type":"string"}},"spec":{"allOf":[{"$ref":"#/components/schemas/x.v1.Spec"}],"default":{}},
				"opt":{"allOf":[{"$ref":"#/components/schemas/x.v1.Spec"}]},"dangling":{"$ref":"#/components/schemas/x.v1.Gone"}}},
			"x.v1.Spec":{"type":"object","properties":{"mode":{"type":"string"}}}}}}`,
		"b":   `{"components":{"schemas":{"x.v1.Spec":{"type":"object","properties":{"other":{"type":"string"}}}}}}`,
		"bad": `{"components":`,
	}
	idx := buildSMPIndex([]string{"a", "b", "bad", "missing"}, func(p string) ([]byte, bool) {
		d, ok := docs[p]
		return []byte(d), ok
	})
	tree := idx.byGVK[api.GroupVersionKind{Group: "x", Version: "v1", Kind: "Tree"}]
	require.NotNil(t, tree)
	assert.Equal(t, map[string]string{"children": "[]", "id": "", "raw": "[]", "grid": "[][]", "tags": "{}", "spec": "", "opt": "*", "dangling": ""}, tree.fields)
	assert.Same(t, tree, tree.special["children"].sub)
	assert.Equal(t, smpField{strategy: smpMerge, mergeKey: "id", sub: tree}, tree.special["children"])
	assert.Same(t, smpMapLevel, tree.special["tags"].sub)
	assert.Equal(t, "Spec", tree.special["spec"].sub.goType)
	assert.Contains(t, tree.special["spec"].sub.fields, "mode", "the first document's definition wins")
	assert.Same(t, tree.special["spec"].sub, tree.special["opt"].sub)
	assert.NotContains(t, tree.special, "dangling")
	assert.Same(t, tree, idx.byKind["Tree"])
}

// TestCh01_SMP_ConcurrentFirstUse: the schemas load once, whichever request comes first.
func TestCh01_SMP_ConcurrentFirstUse(t *testing.T) {
	live := smpDeployment(t)
	var wg sync.WaitGroup
	for _, gvk := range servedKinds {
		wg.Go(func() {
			_, err := ApplyFor(api.StrategicMergePatchType, live, []byte(`{"metadata":{"labels":{"x":"y"}}}`), gvk, true)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
}

// BenchmarkApplyStrategicMergePatchDeployment applies kubectl apply's three-way patch to a
// full Deployment.
func BenchmarkApplyStrategicMergePatchDeployment(b *testing.B) {
	live := smpDeployment(b)
	patch, err := os.ReadFile(filepath.Join("testdata", "smp", "deployment-apply-changed.patch.json"))
	require.NoError(b, err)
	loadSMPIndex() // the one-time load is BenchmarkBuildSMPIndex
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ApplyFor(api.StrategicMergePatchType, live, patch, gvkDeployment, true); err != nil {
			b.Fatal(err)
		}
	}
}

package typed

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/openapi"
)

// createdByCompare is what a create's updater made of Compare before CreatedFields: the
// empty set less Removed, with Modified and Added, less omit (stripMeta's Difference).
func createdByCompare(zero, obj any, a *Atom, omit *fp.Set) (*fp.Set, error) {
	c, err := Compare(zero, obj, a)
	if err != nil {
		return nil, err
	}
	s := fp.NewSet().Difference(c.Removed).Union(c.Modified).Union(c.Added)
	if omit != nil {
		s = s.Difference(omit)
	}
	return s, nil
}

// withoutEachMember is obj, then obj with one member of a map at depth 1 to 3 left out,
// for each such member: the same object with parts missing, each a create of its own.
func withoutEachMember(obj map[string]any) []map[string]any {
	out := []map[string]any{obj}
	var walk func(path []string, m map[string]any, depth int)
	walk = func(path []string, m map[string]any, depth int) {
		for k, v := range m {
			cp := api.DeepCopyJSONValue(obj).(map[string]any)
			at := cp
			for _, p := range path {
				at = at[p].(map[string]any)
			}
			delete(at, k)
			out = append(out, cp)
			if sub, ok := v.(map[string]any); ok && depth < 3 {
				walk(append(append([]string(nil), path...), k), sub, depth+1)
			}
		}
	}
	walk(nil, obj, 1)
	return out
}

// TestCh01_SSA_CreatedFieldsMatchCompare: the one walk a create's ownership now takes gives
// the set Compare with the kind's zero object gave, structure and FieldsV1 bytes alike,
// for built-in kinds (map-lists keyed by one field and by two with a default, sets, atomic
// maps and lists, int-or-string), custom resources (list types set, map and atomic,
// preserved unknown fields, a deduced type), empty maps and lists, nulls and duplicated
// items; with stripMeta's paths omitted and without. Where Compare fails or zero has list
// items, CreatedFields declines (ok false) and the caller compares as before.
func TestCh01_SSA_CreatedFieldsMatchCompare(t *testing.T) {
	builtin := func(group, version, kind string) (*Atom, func() map[string]any) {
		gvk := api.GroupVersionKind{Group: group, Version: version, Kind: kind}
		a, err := ForBuiltin(gvk, "")
		require.NoError(t, err)
		zero := ZeroObject(gvk)
		require.NotNil(t, zero, kind)
		return a, zero
	}
	var crdSchema map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
		"items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["id","zone"],
			"items":{"type":"object","properties":{"id":{"type":"integer"},"zone":{"type":"string","default":"a"},"v":{"x-kubernetes-int-or-string":true},
				"sub":{"type":"object","properties":{"x":{"type":"string"}}}}}},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"nums":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"number"}},
		"whole":{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"object","properties":{"a":{"type":"string"}}}},
		"plain":{"type":"array","items":{"type":"string"}},
		"atomicMap":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"a":{"type":"string"}}},
		"labels":{"type":"object","additionalProperties":{"type":"string"}},
		"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
		"flag":{"type":"boolean"}}}}}`), &crdSchema))
	crd, err := ForCustomResource(openapi.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", ListKind: "WidgetList", Plural: "widgets", Schema: crdSchema})
	require.NoError(t, err)
	emptyZero := func() map[string]any { return map[string]any{} }

	cm, cmZero := builtin("", "v1", "ConfigMap")
	pod, podZero := builtin("", "v1", "Pod")
	dep, depZero := builtin("apps", "v1", "Deployment")
	svc, svcZero := builtin("", "v1", "Service")
	ns, nsZero := builtin("", "v1", "Namespace")
	meta := `"metadata":{"name":"x","namespace":"default","uid":"u","creationTimestamp":"2026-01-01T00:00:00Z","resourceVersion":"1","generation":1,"labels":{"app":"a","tier":"b"},"annotations":{},"finalizers":["f1","f2"],"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"ou","controller":true}]}`
	tests := []struct {
		name string
		a    *Atom
		zero func() map[string]any
		obj  string
	}{
		{"configmap", cm, cmZero, `{"apiVersion":"v1","kind":"ConfigMap",` + meta + `,"data":{"k":"v","e":""},"binaryData":{"b":"AAE="},"immutable":false}`},
		{"configmap empty data and null labels", cm, cmZero, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","labels":null,"annotations":{"a":"b"}},"data":{}}`},
		{"configmap null data", cm, cmZero, `{"metadata":{"name":"x"},"data":null}`},
		{"configmap metadata only", cm, cmZero, `{"metadata":{}}`},
		{"configmap nothing", cm, cmZero, `{}`},
		{"configmap duplicated finalizers", cm, cmZero, `{"metadata":{"finalizers":["a","b","a"]}}`},
		{"pod", pod, podZero, `{"apiVersion":"v1","kind":"Pod",` + meta + `,"spec":{"containers":[
			{"name":"c","image":"i","args":["1","2"],"ports":[{"containerPort":80},{"containerPort":80,"protocol":"UDP"},{"containerPort":81,"name":"m"}],
			 "env":[{"name":"A","value":"1"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{}},
			 "volumeMounts":[{"name":"v","mountPath":"/v"}],"securityContext":{"capabilities":{"add":["NET_ADMIN"]}}},
			{"name":"d","image":"j"}],
			"initContainers":[],"volumes":[{"name":"v","emptyDir":{}},{"name":"w","configMap":{"name":"cm","items":[{"key":"k","path":"p"}]}}],
			"nodeSelector":{"a":"b"},"tolerations":[{"key":"k","operator":"Exists"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,
			"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"In","values":["v"]}]}]}}}},
			"status":{"phase":"Pending","conditions":[{"type":"Ready","status":"False"}]}}`},
		{"pod with null containers", pod, podZero, `{"metadata":{"name":"p"},"spec":{"containers":null}}`},
		{"pod with empty containers and status", pod, podZero, `{"metadata":{"name":"p"},"spec":{"containers":[]},"status":{}}`},
		{"pod with duplicated containers", pod, podZero, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"1"},{"name":"a","image":"2"},{"name":"b"}]}}`},
		{"pod with a port whose key defaults", pod, podZero, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80},{"containerPort":80,"protocol":"TCP"}]}]}}`},
		{"deployment", dep, depZero, `{"apiVersion":"apps/v1","kind":"Deployment",` + meta + `,"spec":{"replicas":3,"selector":{"matchLabels":{"app":"a"}},
			"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},
			"template":{"metadata":{"labels":{"app":"a"},"creationTimestamp":null},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`},
		{"deployment empty template", dep, depZero, `{"spec":{"template":{}}}`},
		{"deployment null strategy", dep, depZero, `{"spec":{"strategy":null,"selector":{}}}`},
		{"service", svc, svcZero, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80,"protocol":"TCP","targetPort":8080},{"port":80,"protocol":"UDP","targetPort":"http"}],
			"selector":{"app":"a"},"clusterIPs":["10.0.0.1"],"ipFamilies":["IPv4"],"type":"ClusterIP"},"status":{"loadBalancer":{}}}`},
		{"service status load balancer", svc, svcZero, `{"metadata":{"name":"s"},"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}}}`},
		{"namespace", ns, nsZero, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"},"spec":{"finalizers":["kubernetes"]}}`},
		{"custom resource", crd, emptyZero, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"}},"spec":{
			"items":[{"id":1,"zone":"b","v":"50%","sub":{"x":"y"}},{"id":1,"v":3},{"id":2,"sub":{}}],
			"tags":["x","y","x"],"nums":[1,2.5,1.0],"whole":[{"a":"1"},{"a":"1"}],"plain":["p","p"],"atomicMap":{"a":"b"},
			"labels":{"k":"v","e":""},"free":{"deep":{"k":1,"l":[1,{"m":null}]},"empty":{},"n":null},"flag":true}}`},
		{"custom resource empty lists and maps", crd, emptyZero, `{"spec":{"items":[],"tags":[],"whole":[],"atomicMap":{},"labels":{},"free":{}}}`},
		{"custom resource nulls", crd, emptyZero, `{"spec":{"items":null,"tags":null,"whole":null,"atomicMap":null,"labels":null,"free":null,"flag":null}}`},
		{"custom resource duplicated map-list items", crd, emptyZero, `{"spec":{"items":[{"id":7},{"id":7,"zone":"a"},{"id":8,"zone":"c"}]}}`},
		{"deduced", Deduced(), emptyZero, `{"apiVersion":"x/v1","kind":"X","metadata":{"name":"d"},"spec":{"a":{"b":[1,2]},"c":{},"d":null}}`},
	}
	omits := map[string]*fp.Set{
		"nothing omitted": nil,
		"stripMeta's paths": fp.NewSet(fp.MakePath("apiVersion"), fp.MakePath("kind"), fp.MakePath("metadata"), fp.MakePath("metadata", "name"),
			fp.MakePath("metadata", "namespace"), fp.MakePath("metadata", "creationTimestamp"), fp.MakePath("metadata", "uid"),
			fp.MakePath("metadata", "generation"), fp.MakePath("metadata", "managedFields"), fp.MakePath("metadata", "resourceVersion")),
	}
	compared := 0
	for _, tt := range tests {
		for _, obj := range withoutEachMember(tree(t, tt.obj)) {
			for omitName, omit := range omits {
				want, err := createdByCompare(tt.zero(), obj, tt.a, omit)
				require.NoError(t, err, "%s: %v", tt.name, obj)
				got, ok := CreatedFields(tt.zero(), obj, tt.a, omit)
				require.True(t, ok, "%s: %v", tt.name, obj)
				require.True(t, want.Equals(got), "%s, %s: %v\nwant:\n%v\ngot:\n%v", tt.name, omitName, obj, want, got)
				wantJSON, err := want.ToJSON()
				require.NoError(t, err)
				gotJSON, err := got.ToJSON()
				require.NoError(t, err)
				require.Equal(t, string(wantJSON), string(gotJSON), "%s, %s: %v", tt.name, omitName, obj)
				compared++
			}
		}
	}
	assert.Greater(t, compared, 300)

	t.Run("declines where Compare fails or zero has list items", func(t *testing.T) {
		for _, tc := range []struct {
			name      string
			zero, obj string
		}{
			{"undeclared field", `{}`, `{"spec":{"bogus":1}}`},
			{"undeclared field only in zero", `{"spec":{"bogus":1}}`, `{"metadata":{"name":"x"}}`},
			{"set item that is a map", `{}`, `{"metadata":{"finalizers":[{"a":1}]}}`},
			{"zero with containers", `{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"b"}]}}`},
		} {
			_, ok := CreatedFields(tree(t, tc.zero), tree(t, tc.obj), pod, nil)
			assert.False(t, ok, tc.name)
		}
		_, err := Compare(tree(t, `{}`), tree(t, `{"spec":{"bogus":1}}`), pod)
		assert.Error(t, err, "Compare fails where CreatedFields declines")
	})
}

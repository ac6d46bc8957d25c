package defaulting

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/informer-lab/informer-lab/api"
)

// FuzzDefault defaults random JSON objects as each known kind: Default never panics and is
// idempotent, both in place and after a JSON round trip.
func FuzzDefault(f *testing.F) {
	kinds := Kinds()
	index := map[Kind]uint8{}
	for i, k := range kinds {
		index[k] = uint8(i)
	}
	for _, tc := range allCases() {
		f.Add([]byte(tc.in), index[Kind{tc.group, tc.version, tc.kind}])
	}
	f.Add([]byte(`{"spec":{"template":{"spec":{"containers":[null,{"ports":[null]}]}}}}`), uint8(0))
	f.Add([]byte(`{"spec":{"clusterIP":"None","clusterIPs":[7],"ipFamilies":"x"}}`), index[Kind{"", "v1", "Service"}])
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		var u api.Unstructured
		if err := u.UnmarshalJSON(data); err != nil || u.Object == nil {
			return
		}
		kind := kinds[int(k)%len(kinds)]
		obj := u.Object
		Default(kind.Group, kind.Version, kind.Kind, obj)
		once := deepCopyJSON(obj).(map[string]any)
		Default(kind.Group, kind.Version, kind.Kind, obj)
		if d := cmp.Diff(once, obj); d != "" {
			t.Fatalf("%s: second Default in place changed (-once +twice):\n%s", kind.Kind, d)
		}
		b, err := json.Marshal(obj)
		if err != nil {
			t.Fatalf("%s: defaulted object does not encode: %v", kind.Kind, err)
		}
		var again api.Unstructured
		if err := again.UnmarshalJSON(b); err != nil {
			t.Fatalf("%s: defaulted object does not decode: %v", kind.Kind, err)
		}
		decoded := deepCopyJSON(again.Object).(map[string]any)
		Default(kind.Group, kind.Version, kind.Kind, again.Object)
		if d := cmp.Diff(decoded, again.Object); d != "" {
			t.Fatalf("%s: Default after a round trip changed (-once +twice):\n%s", kind.Kind, d)
		}
	})
}

// deepCopyJSON copies a JSON tree.
func deepCopyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(t))
		for k, e := range t {
			c[k] = deepCopyJSON(e)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = deepCopyJSON(e)
		}
		return c
	}
	return v
}

// benchDeployment is a realistic Deployment: three containers with ports, env, probes and
// resources, and four volumes.
const benchDeployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default",
"labels":{"app":"web"}},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
"spec":{"serviceAccountName":"web","volumes":[{"name":"cfg","configMap":{"name":"web"}},{"name":"tls","secret":{"secretName":"web-tls"}},
{"name":"cache"},{"name":"token","projected":{"sources":[{"serviceAccountToken":{"path":"token"}}]}}],
"initContainers":[{"name":"migrate","image":"registry.example.com/web:1.4.2","command":["/migrate"],
"env":[{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}],
"containers":[{"name":"web","image":"registry.example.com/web:1.4.2","ports":[{"name":"http","containerPort":8080},{"name":"metrics","containerPort":9090}],
"env":[{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}},{"name":"MODE","value":"prod"}],
"resources":{"limits":{"cpu":"1","memory":"512Mi"},"requests":{"cpu":"250m","memory":"256Mi"}},
"livenessProbe":{"httpGet":{"path":"/healthz","port":8080}},"readinessProbe":{"httpGet":{"path":"/ready","port":"http"},"periodSeconds":5},
"volumeMounts":[{"name":"cfg","mountPath":"/etc/web"},{"name":"tls","mountPath":"/tls"},{"name":"cache","mountPath":"/cache"}]},
{"name":"proxy","image":"envoyproxy/envoy","ports":[{"containerPort":15001}],"startupProbe":{"tcpSocket":{"port":15001}}},
{"name":"logs","image":"fluent/fluent-bit:3.1","lifecycle":{"preStop":{"httpGet":{"port":2020,"path":"/stop"}}}}]}}}}`

// BenchmarkDefaultDeployment defaults a full Deployment: "fresh" a newly decoded copy
// (the copy's cost is "copy-only"), "defaulted" one already defaulted, the cost of a
// write that changes nothing.
func BenchmarkDefaultDeployment(b *testing.B) {
	var u api.Unstructured
	if err := u.UnmarshalJSON([]byte(benchDeployment)); err != nil {
		b.Fatal(err)
	}
	b.Run("copy-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = deepCopyJSON(u.Object)
		}
	})
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			obj := deepCopyJSON(u.Object).(map[string]any)
			Default("apps", "v1", "Deployment", obj)
		}
	})
	b.Run("defaulted", func(b *testing.B) {
		obj := deepCopyJSON(u.Object).(map[string]any)
		Default("apps", "v1", "Deployment", obj)
		b.ReportAllocs()
		for b.Loop() {
			Default("apps", "v1", "Deployment", obj)
		}
	})
}

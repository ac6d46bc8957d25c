package patch

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

var (
	gvkPod        = api.GroupVersionKind{Version: "v1", Kind: "Pod"}
	gvkConfigMap  = api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	gvkNamespace  = api.GroupVersionKind{Version: "v1", Kind: "Namespace"}
	gvkDeployment = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	gvkScale      = api.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
)

// servedKinds are the built-in kinds the simulated apiserver serves, and the Scale of its
// scale subresource.
var servedKinds = []api.GroupVersionKind{
	gvkPod, gvkConfigMap, gvkNamespace,
	{Version: "v1", Kind: "Node"}, {Version: "v1", Kind: "Service"}, {Version: "v1", Kind: "Endpoints"},
	{Version: "v1", Kind: "Secret"}, {Version: "v1", Kind: "ServiceAccount"}, {Version: "v1", Kind: "Event"},
	{Version: "v1", Kind: "PersistentVolumeClaim"},
	gvkDeployment, {Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}, {Group: "apps", Version: "v1", Kind: "DaemonSet"},
	{Group: "batch", Version: "v1", Kind: "Job"}, {Group: "batch", Version: "v1", Kind: "CronJob"},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"},
	{Group: "events.k8s.io", Version: "v1", Kind: "Event"},
	{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"},
	gvkScale,
}

// TestCh01_SMP_SchemaMatchesHandWritten compares the schemas built from the OpenAPI
// documents with the ones once written out by hand: same Go type names, fields, kinds,
// strategies and merge keys, level by level. Two kinds of difference are expected:
//
//   - a pointer to a scalar, or to a struct the documents show as a string (Time), counts
//     as a plain value, since the documents do not say; only a $setElementOrder naming such
//     a field, with the field on neither side, notices (500 instead of nothing);
//   - the hand-written schemas followed k8s.io/api v0.37, the documents are v1.36's.
func TestCh01_SMP_SchemaMatchesHandWritten(t *testing.T) {
	var diffs []string
	seen := map[*smpSchema]bool{}
	var walk func(path string, hw, gen *smpSchema)
	walk = func(path string, hw, gen *smpSchema) {
		if hw == nil || seen[hw] {
			return // a level the hand-written schema left undescribed
		}
		seen[hw] = true
		require.NotNil(t, gen, path)
		require.Equal(t, hw.isMap, gen.isMap, path)
		require.Equal(t, hw.goType, gen.goType, path)
		for _, name := range slices.Sorted(maps.Keys(hw.fields)) {
			kind, ok := gen.fields[name]
			hf, gf := hw.special[name], gen.special[name]
			switch {
			case !ok:
				diffs = append(diffs, path+"."+name+" missing")
				continue
			case kind == "" && hw.fields[name] == "*" && gf.sub == nil:
			case kind != hw.fields[name]:
				diffs = append(diffs, fmt.Sprintf("%s.%s %q not %q", path, name, kind, hw.fields[name]))
			}
			if hf.strategy != gf.strategy || hf.mergeKey != gf.mergeKey {
				diffs = append(diffs, fmt.Sprintf("%s.%s %s/%s not %s/%s", path, name, gf.strategy, gf.mergeKey, hf.strategy, hf.mergeKey))
			}
			walk(path+"."+name, hf.sub, gf.sub)
		}
		for name := range gen.fields {
			if _, ok := hw.fields[name]; !ok {
				diffs = append(diffs, path+"."+name+" extra")
			}
		}
	}
	for kind, hw := range handWritten {
		walk(kind, hw, smpSchemaForKind(kind))
	}
	slices.Sort(diffs)
	assert.Equal(t, []string{
		"Pod.spec.containers.volumeMounts.bindMountOptions missing",                     // new in v1.37
		"Pod.spec.evictionResponders missing",                                           // new in v1.37
		"Pod.status.nodeAllocatableResourceClaimStatuses / not merge/resourceClaimName", // atomic in v1.36
		"Pod.status.volumeHealth missing",                                               // new in v1.37
	}, diffs)
}

// BenchmarkBuildSMPIndex is the one-time cost of the first strategic merge patch: parsing
// every embedded document and building every kind's schema.
func BenchmarkBuildSMPIndex(b *testing.B) {
	paths := schema.Paths()
	docs := map[string][]byte{}
	for _, p := range paths {
		docs[p], _ = schema.Document(p)
	}
	b.ReportAllocs()
	for b.Loop() {
		buildSMPIndex(paths, func(p string) ([]byte, bool) { d, ok := docs[p]; return d, ok })
	}
}

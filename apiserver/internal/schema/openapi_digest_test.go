package schema

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/sha256sums"
)

// sha256Sums is the digest list tools/cmd/openapi-gen writes beside the documents.
//
//go:embed openapi/SHA256SUMS
var sha256Sums []byte

// TestCh01_EmbeddedSchemasArePinned: every embedded document has the digest SHA256SUMS
// gives it, and SHA256SUMS lists exactly the embedded documents. A hand edit of a data
// file, or a generator run whose SHA256SUMS was not kept, fails here; make schemas
// rewrites both together.
func TestCh01_EmbeddedSchemasArePinned(t *testing.T) {
	want, err := sha256sums.Parse(sha256Sums)
	require.NoError(t, err)

	entries, err := openAPIFiles.ReadDir(openAPIDir)
	require.NoError(t, err)
	got := map[string]string{}
	for _, e := range entries {
		data, err := openAPIFiles.ReadFile(openAPIDir + "/" + e.Name())
		require.NoError(t, err)
		got[e.Name()] = sha256sums.Sum(data)
	}

	require.NotEmpty(t, got, "no embedded documents")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("embedded documents differ from SHA256SUMS (-SHA256SUMS +embedded); run make schemas:\n%s", diff)
	}
}

// TestCh01_EmbeddedSchemasHoldTheServedKinds: each document is an OpenAPI 3.0 document
// with empty paths whose components.schemas hold the kinds we serve, each carrying its
// x-kubernetes-group-version-kind, and the meta types every group-version's routes use.
func TestCh01_EmbeddedSchemasHoldTheServedKinds(t *testing.T) {
	const meta = "io.k8s.apimachinery.pkg.apis.meta.v1."
	tests := []struct {
		path   string
		prefix string   // definition name prefix of the group-version's kinds
		gv     gvkEntry // group and version of those kinds
		kinds  []string
		extra  []string // other definitions the document must hold
	}{
		{
			path: "api/v1", prefix: "io.k8s.api.core.v1.", gv: gvkEntry{"", "v1", ""},
			kinds: []string{"Pod", "ConfigMap", "Namespace", "Node", "Service", "Endpoints",
				"Secret", "ServiceAccount", "Event", "PersistentVolumeClaim"},
			extra: []string{"io.k8s.api.autoscaling.v1.Scale", "io.k8s.api.policy.v1.Eviction",
				"io.k8s.apimachinery.pkg.api.resource.Quantity",
				"io.k8s.apimachinery.pkg.util.intstr.IntOrString"},
		},
		{
			path: "apis/apps/v1", prefix: "io.k8s.api.apps.v1.", gv: gvkEntry{"apps", "v1", ""},
			kinds: []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "ControllerRevision"},
			extra: []string{"io.k8s.api.autoscaling.v1.Scale", "io.k8s.api.core.v1.PodTemplateSpec"},
		},
		{
			path: "apis/batch/v1", prefix: "io.k8s.api.batch.v1.", gv: gvkEntry{"batch", "v1", ""},
			kinds: []string{"Job", "CronJob"},
		},
		{
			path: "apis/coordination.k8s.io/v1", prefix: "io.k8s.api.coordination.v1.",
			gv: gvkEntry{"coordination.k8s.io", "v1", ""}, kinds: []string{"Lease"},
			extra: []string{meta + "MicroTime"},
		},
		{
			path: "apis/events.k8s.io/v1", prefix: "io.k8s.api.events.v1.",
			gv: gvkEntry{"events.k8s.io", "v1", ""}, kinds: []string{"Event"},
		},
		{
			path: "apis/discovery.k8s.io/v1", prefix: "io.k8s.api.discovery.v1.",
			gv: gvkEntry{"discovery.k8s.io", "v1", ""}, kinds: []string{"EndpointSlice"},
		},
		{
			path: "apis/apiextensions.k8s.io/v1", prefix: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.",
			gv: gvkEntry{"apiextensions.k8s.io", "v1", ""}, kinds: []string{"CustomResourceDefinition"},
			extra: []string{"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			raw, ok := Document(tt.path)
			require.True(t, ok)
			var doc struct {
				OpenAPI    string                     `json:"openapi"`
				Paths      map[string]json.RawMessage `json:"paths"`
				Components struct {
					Schemas map[string]struct {
						GVK []gvkEntry `json:"x-kubernetes-group-version-kind"`
					} `json:"schemas"`
				} `json:"components"`
			}
			require.NoError(t, json.Unmarshal(raw, &doc))
			assert.Equal(t, "3.0.0", doc.OpenAPI)
			assert.NotNil(t, doc.Paths, "paths must be present")
			assert.Empty(t, doc.Paths)

			schemas := doc.Components.Schemas
			for _, kind := range tt.kinds {
				for _, k := range []string{kind, kind + "List"} {
					s, ok := schemas[tt.prefix+k]
					if !assert.True(t, ok, "missing %s", tt.prefix+k) {
						continue
					}
					want := tt.gv
					want.Kind = k
					assert.Contains(t, s.GVK, want, "%s: x-kubernetes-group-version-kind", k)
				}
			}
			for _, name := range append(tt.extra, meta+"ObjectMeta", meta+"DeleteOptions",
				meta+"Status", meta+"StatusDetails", meta+"StatusCause", meta+"WatchEvent",
				meta+"APIResourceList", meta+"APIResource", meta+"Patch", meta+"Time") {
				assert.Contains(t, schemas, name)
			}
		})
	}
}

// gvkEntry is one entry of x-kubernetes-group-version-kind.
type gvkEntry struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

func TestCh01_DocumentByPath(t *testing.T) {
	tests := []struct {
		path string
		ok   bool
	}{
		{"api/v1", true},
		{"apis/apps/v1", true},
		{"apis/apiextensions.k8s.io/v1", true},
		{"apis/apps/v1beta1", false},
		{"apis/apps", false},
		{"", false},
		{"/api/v1", false},
		{"api/v1/", false},
		{"api__v1", false},
		{"../api/v1", false},
		{"api/../api/v1", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			doc, ok := Document(tt.path)
			require.Equal(t, tt.ok, ok)
			if !tt.ok {
				assert.Nil(t, doc)
				return
			}
			assert.True(t, json.Valid(doc))
		})
	}
}

func TestCh01_DocumentReturnsACopy(t *testing.T) {
	first, ok := Document("api/v1")
	require.True(t, ok)
	first[0] = 'x'
	second, ok := Document("api/v1")
	require.True(t, ok)
	assert.Equal(t, byte('{'), second[0], "a caller's edit must not reach the embedded bytes")
}

func TestCh01_PathsAnswerDocument(t *testing.T) {
	for _, p := range Paths() {
		_, ok := Document(p)
		assert.True(t, ok, p)
	}
}

func ExamplePaths() {
	for _, p := range Paths() {
		fmt.Println(p)
	}
	// Output:
	// api/v1
	// apis/admissionregistration.k8s.io/v1
	// apis/apiextensions.k8s.io/v1
	// apis/apiregistration.k8s.io/v1
	// apis/apps/v1
	// apis/authentication.k8s.io/v1
	// apis/authorization.k8s.io/v1
	// apis/autoscaling/v1
	// apis/autoscaling/v2
	// apis/batch/v1
	// apis/certificates.k8s.io/v1
	// apis/coordination.k8s.io/v1
	// apis/discovery.k8s.io/v1
	// apis/events.k8s.io/v1
	// apis/flowcontrol.apiserver.k8s.io/v1
	// apis/networking.k8s.io/v1
	// apis/node.k8s.io/v1
	// apis/policy/v1
	// apis/rbac.authorization.k8s.io/v1
	// apis/resource.k8s.io/v1
	// apis/scheduling.k8s.io/v1
	// apis/storage.k8s.io/v1
}

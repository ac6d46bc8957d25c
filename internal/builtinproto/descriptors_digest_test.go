package builtinproto

import (
	_ "embed"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/sha256sums"
)

// descriptorSums is the digest list tools/cmd/proto-gen writes beside the descriptors.
//
//go:embed descriptors/SHA256SUMS
var descriptorSums []byte

// TestCh02_ProtoDescriptorsArePinned: every embedded descriptor has the digest SHA256SUMS
// gives it, and SHA256SUMS lists exactly the embedded descriptors. A hand edit of a data
// file, or a generator run whose SHA256SUMS was not kept, fails here; make protos rewrites
// both together.
func TestCh02_ProtoDescriptorsArePinned(t *testing.T) {
	want, err := sha256sums.Parse(descriptorSums)
	require.NoError(t, err)

	entries, err := descriptorFiles.ReadDir(descriptorDir)
	require.NoError(t, err)
	got := map[string]string{}
	for _, e := range entries {
		data, err := descriptorFiles.ReadFile(descriptorDir + "/" + e.Name())
		require.NoError(t, err)
		got[e.Name()] = sha256sums.Sum(data)
	}

	require.NotEmpty(t, got, "no embedded descriptors")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("embedded descriptors differ from SHA256SUMS (-SHA256SUMS +embedded); run make protos:\n%s", diff)
	}
}

// descriptorFile is the shape of one descriptor file, as far as these tests read it.
type descriptorFile struct {
	Package  string `json:"package"`
	Messages map[string]struct {
		Special string `json:"special"`
		Fields  []struct {
			JSON      string `json:"json"`
			Number    int    `json:"number"`
			Kind      string `json:"kind"`
			Type      string `json:"type"`
			ValueType string `json:"valueType"`
		} `json:"fields"`
	} `json:"messages"`
}

// TestCh02_ProtoDescriptorsHoldTheServedKinds: each package's file parses, names its own
// package, holds the served kinds and their Lists, and every message a field names is
// described by some file.
func TestCh02_ProtoDescriptorsHoldTheServedKinds(t *testing.T) {
	const meta = "k8s.io.apimachinery.pkg.apis.meta.v1"
	want := map[string][]string{
		"k8s.io.api.core.v1": {"Pod", "ConfigMap", "Namespace", "Node", "Service", "Endpoints",
			"Secret", "ServiceAccount", "Event", "PersistentVolumeClaim"},
		"k8s.io.api.apps.v1":         {"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"},
		"k8s.io.api.batch.v1":        {"Job", "CronJob"},
		"k8s.io.api.coordination.v1": {"Lease"},
		"k8s.io.api.events.v1":       {"Event"},
		"k8s.io.api.discovery.v1":    {"EndpointSlice"},
	}
	specials := map[string]string{
		meta + ".Time": "Time", meta + ".MicroTime": "MicroTime", meta + ".Duration": "Duration",
		meta + ".FieldsV1": "FieldsV1", "k8s.io.apimachinery.pkg.api.resource.Quantity": "Quantity",
		"k8s.io.apimachinery.pkg.util.intstr.IntOrString": "IntOrString",
		"k8s.io.apimachinery.pkg.runtime.RawExtension":    "RawExtension",
		"k8s.io.apimachinery.pkg.runtime.Unknown":         "Unknown",
		meta + ".ObjectMeta":                              "",
		meta + ".ListMeta":                                "",
		meta + ".Status":                                  "",
		meta + ".WatchEvent":                              "",
		meta + ".DeleteOptions":                           "",
		"k8s.io.api.autoscaling.v1.Scale":                 "",
	}

	files := map[string]descriptorFile{}
	for _, pkg := range Packages() {
		data, ok := Descriptor(pkg)
		require.True(t, ok, pkg)
		var f descriptorFile
		require.NoError(t, json.Unmarshal(data, &f), pkg)
		assert.Equal(t, pkg, f.Package)
		files[pkg] = f
	}
	lookup := func(full string) (string, bool) {
		i := strings.LastIndexByte(full, '.')
		m, ok := files[full[:i]].Messages[full[i+1:]]
		return m.Special, ok
	}

	for pkg, kinds := range want {
		for _, k := range kinds {
			for _, name := range []string{k, k + "List"} {
				_, ok := lookup(pkg + "." + name)
				assert.True(t, ok, "missing %s.%s", pkg, name)
			}
		}
	}
	for name, special := range specials {
		got, ok := lookup(name)
		if assert.True(t, ok, "missing %s", name) {
			assert.Equal(t, special, got, "special of %s", name)
		}
	}
	for pkg, f := range files {
		for name, m := range f.Messages {
			last := 0
			for _, fd := range m.Fields {
				assert.Greater(t, fd.Number, last, "%s.%s: fields out of number order", pkg, name)
				last = fd.Number
				for _, ref := range []string{fd.Type, fd.ValueType} {
					if ref != "" {
						_, ok := lookup(ref)
						assert.True(t, ok, "%s.%s.%s names %s, which no file describes", pkg, name, fd.JSON, ref)
					}
				}
			}
		}
	}
}

func TestCh02_DescriptorByPackage(t *testing.T) {
	tests := []struct {
		pkg string
		ok  bool
	}{
		{"k8s.io.api.core.v1", true},
		{"k8s.io.apimachinery.pkg.apis.meta.v1", true},
		{"k8s.io.apimachinery.pkg.runtime", true},
		{"k8s.io.api.core.v2", false},
		{"", false},
		{"k8s.io.api.core.v1.json", false},
		{"../descriptors/k8s.io.api.core.v1", false},
		{"descriptors/k8s.io.api.core.v1", false},
		{"SHA256SUMS", false},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			data, ok := Descriptor(tt.pkg)
			require.Equal(t, tt.ok, ok)
			if !tt.ok {
				assert.Nil(t, data)
				return
			}
			assert.True(t, json.Valid(data))
		})
	}
}

func TestCh02_DescriptorReturnsACopy(t *testing.T) {
	first, ok := Descriptor("k8s.io.api.core.v1")
	require.True(t, ok)
	first[0] = 'x'
	second, ok := Descriptor("k8s.io.api.core.v1")
	require.True(t, ok)
	assert.Equal(t, byte('{'), second[0], "a caller's edit must not reach the embedded bytes")
}

func TestCh02_PackagesAnswerDescriptor(t *testing.T) {
	pkgs := Packages()
	assert.Contains(t, pkgs, "k8s.io.api.core.v1")
	assert.Contains(t, pkgs, "k8s.io.apimachinery.pkg.util.intstr")
	assert.IsNonDecreasing(t, pkgs)
	for _, p := range pkgs {
		_, ok := Descriptor(p)
		assert.True(t, ok, p)
	}
}

package protobuf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh02_ProtobufPackageOfGroup: a group's kinds are in the proto package named after
// their Go package, the group's first label under k8s.io/api, or apimachinery's,
// apiextensions-apiserver's and kube-aggregator's for the groups those modules define.
func TestCh02_ProtobufPackageOfGroup(t *testing.T) {
	tests := []struct{ group, version, want string }{
		{"", "v1", "k8s.io.api.core.v1"},
		{"apps", "v1", "k8s.io.api.apps.v1"},
		{"coordination.k8s.io", "v1", "k8s.io.api.coordination.v1"},
		{"rbac.authorization.k8s.io", "v1", "k8s.io.api.rbac.v1"},
		{"flowcontrol.apiserver.k8s.io", "v1", "k8s.io.api.flowcontrol.v1"},
		{"meta.k8s.io", "v1", "k8s.io.apimachinery.pkg.apis.meta.v1"},
		{"apiextensions.k8s.io", "v1", "k8s.io.apiextensions-apiserver.pkg.apis.apiextensions.v1"},
		{"apiregistration.k8s.io", "v1", "k8s.io.kube-aggregator.pkg.apis.apiregistration.v1"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, protoPackage(tt.group, tt.version), tt.group)
	}
}

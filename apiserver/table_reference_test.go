package apiserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// objectMetaNameDoc is ObjectMeta's documentation of name, which every Name column carries.
const objectMetaNameDoc = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"

// TestCh01_Table_ReferenceColumnDescriptions pins column descriptions to what
// kube-apiserver v1.36.3 answers (asked with curl for an empty list as a Table): a field's
// API documentation where its printer quotes one (without the enum list the OpenAPI
// description adds), the printer's own words elsewhere, the v1beta1 wording the RBAC
// printer quotes, and the empty text of RuntimeClass's Handler.
func TestCh01_Table_ReferenceColumnDescriptions(t *testing.T) {
	_, c := newServer(t, Options{})
	tests := []struct {
		path, column, want string
	}{
		{"/apis/apps/v1/namespaces/default/replicasets", "Name", objectMetaNameDoc},
		{"/apis/apps/v1/namespaces/default/replicasets", "Desired", "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset"},
		{"/apis/apps/v1/namespaces/default/replicasets", "Containers", "Names of each container in the template."},
		{"/apis/apps/v1/namespaces/default/replicasets", "Age", "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"},
		{"/api/v1/namespaces/default/services", "Type", "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types"},
		{"/api/v1/namespaces/default/pods", "Ready", "The aggregate readiness state of this pod for accepting traffic."},
		{"/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", "Role", "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."},
		{"/apis/node.k8s.io/v1/runtimeclasses", "Handler", ""},
		{"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "Created At", "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"},
	}
	for _, tc := range tests {
		t.Run(tc.path+" "+tc.column, func(t *testing.T) {
			r := c.do("GET", tc.path, nil, "Accept", "application/json;as=Table;g=meta.k8s.io;v=v1")
			require.Equal(t, 200, r.code, "%s", r.body)
			var tb wireTable
			r.decode(t, &tb)
			for _, col := range tb.ColumnDefinitions {
				if col.Name == tc.column {
					assert.Equal(t, tc.want, col.Description)
					return
				}
			}
			t.Errorf("no column %q in %v", tc.column, tb.columnNames())
		})
	}
}

// TestCh01_Table_ReferenceMediaTypes pins the Content-Type of the meta.k8s.io conversions to
// kube-apiserver v1.36.3's: plain application/json for a Table list, get and watch and for
// PartialObjectMetadata(List), with no as=, g= or v= parameters; a protobuf Table is 406.
func TestCh01_Table_ReferenceMediaTypes(t *testing.T) {
	s, c := newServer(t, Options{})
	const table = "application/json;as=Table;g=meta.k8s.io;v=v1"
	tests := []struct {
		path, accept string
		code         int
	}{
		{"/api/v1/namespaces", table, 200},
		{"/api/v1/namespaces", "application/json;as=Table;g=meta.k8s.io;v=v1beta1", 200},
		{"/api/v1/namespaces/default", table, 200},
		{"/api/v1/namespaces", "application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1, " + table, 200},
		{"/api/v1/namespaces", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", 200},
		{"/api/v1/namespaces/default", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", 200},
		{"/api/v1/namespaces", "application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1", 406},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			r := c.do("GET", tc.path, nil, "Accept", tc.accept)
			require.Equal(t, tc.code, r.code, "%s", r.body)
			assert.Equal(t, "application/json", r.header.Get("Content-Type"))
		})
	}
	st := c.watch("/api/v1/namespaces?watch=1&resourceVersion="+rvString(s), "Accept", table)
	assert.Equal(t, "application/json", st.resp.Header.Get("Content-Type"))
}

// TestCh01_Table_ColumnsMatchReference asks for every listable resource type's list as a
// Table and compares the columns (names, types, formats, priorities and descriptions) with
// what kube-apiserver v1.36.3 answered to the same request (testdata/reference).
func TestCh01_Table_ColumnsMatchReference(t *testing.T) {
	ref := readReference(t, "table-columns.json")
	require.GreaterOrEqual(t, len(ref), 60, "every listable resource type of the reference")
	_, c := newServer(t, Options{})
	for path, want := range ref {
		t.Run(path, func(t *testing.T) {
			r := c.do("GET", path, nil, "Accept", "application/json;as=Table;g=meta.k8s.io;v=v1")
			require.Equal(t, 200, r.code, "%s", r.body)
			var got struct {
				ColumnDefinitions any `json:"columnDefinitions"`
			}
			r.decode(t, &got)
			if diff := cmp.Diff(want, got.ColumnDefinitions); diff != "" {
				t.Errorf("columns (-reference +simulator):\n%s", diff)
			}
		})
	}
}

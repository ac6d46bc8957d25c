package negotiation

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_N3_Negotiate checks the choice of N3, N4 and K5 endpoint by endpoint: the first
// clause the endpoint can serve, by quality then order, and 406 when there is none.
func TestCh01_N3_Negotiate(t *testing.T) {
	const table = "application/json;as=Table;v=v1;g=meta.k8s.io"
	tests := []struct {
		name        string
		accept      []string // nil: no Accept header
		ep          Endpoint
		want        Output
		contentType string // "" with a zero want: 406
	}{
		{"no Accept", nil, EndpointList, Output{Shape: JSON}, "application/json"},
		{"empty Accept", []string{" "}, EndpointObject, Output{Shape: JSON}, "application/json"},
		{"wildcard", []string{"*/*"}, EndpointWrite, Output{Shape: JSON}, "application/json"},
		{"kubectl get", []string{table + ",application/json"}, EndpointList, Output{Shape: Table, Version: "v1", As: "Table"}, "application/json"},
		{"Table on a write is skipped", []string{table + ",application/json"}, EndpointWrite, Output{Shape: JSON}, "application/json"},
		{"quality first", []string{"application/json;q=0.5," + table}, EndpointObject, Output{Shape: Table, Version: "v1", As: "Table"}, "application/json"},
		{"q=0 is dropped", []string{"application/json;q=0,application/*"}, EndpointObject, Output{Shape: JSON}, "application/json"},
		{"partial list", []string{"application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io"}, EndpointList,
			Output{Shape: PartialObjectMetadata, Version: "v1beta1", As: "PartialObjectMetadataList"},
			"application/json"},
		{"partial object on a list", []string{"application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io"}, EndpointList, Output{}, ""},
		{"aggregated discovery", []string{"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"}, EndpointDiscovery,
			Output{Shape: DiscoveryList, Version: "v2", As: "APIGroupDiscoveryList"},
			"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
		{"protobuf first", []string{"application/vnd.kubernetes.protobuf,application/json"}, EndpointList, Output{Shape: JSON}, "application/json"},
		{"protobuf alone", []string{"application/vnd.kubernetes.protobuf"}, EndpointList, Output{}, ""},
		{"YAML alone", []string{"application/yaml"}, EndpointObject, Output{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/v1/pods", nil)
			for _, a := range tc.accept {
				r.Header.Add("Accept", a)
			}
			got, err := Negotiate(r, tc.ep)
			if tc.contentType == "" {
				require.Error(t, err)
				assert.True(t, api.IsNotAcceptable(err), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.contentType, got.ContentType())
		})
	}
}

func TestCh01_EndpointFor(t *testing.T) {
	for verb, want := range map[string]Endpoint{"list": EndpointList, "get": EndpointObject, "watch": EndpointObject,
		"create": EndpointWrite, "update": EndpointWrite, "patch": EndpointWrite, "delete": EndpointWrite, "deletecollection": EndpointWrite} {
		assert.Equal(t, want, EndpointFor(verb), verb)
	}
}

package rest

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh00_VersionedParams: every options type of a single-object call encodes as the
// query parameters client-go's ParameterCodec sends; an unknown type is an error of the
// request, not a panic.
func TestCh00_VersionedParams(t *testing.T) {
	tests := []struct {
		name string
		opts any
		want string
	}{
		{"nil", nil, ""},
		{"nil ListOptions", (*api.ListOptions)(nil), ""},
		{"api.GetOptions", &api.GetOptions{ResourceVersion: "0"}, "resourceVersion=0"},
		{"empty api.GetOptions", &api.GetOptions{}, ""},
		{"api.CreateOptions", &api.CreateOptions{DryRun: []string{api.DryRunAll}, FieldManager: "ch00", FieldValidation: api.FieldValidationStrict},
			"dryRun=All&fieldManager=ch00&fieldValidation=Strict"},
		{"api.UpdateOptions", &api.UpdateOptions{FieldManager: "kubectl-replace"}, "fieldManager=kubectl-replace"},
		{"api.PatchOptions with force", &api.PatchOptions{FieldManager: "kubectl", Force: ptr(false)}, "fieldManager=kubectl&force=false"},
		{"ListOptions", &api.ListOptions{LabelSelector: "app=web", Limit: 5}, "labelSelector=app%3Dweb&limit=5"},
	}
	c := newTestClient(t, "http://example.test")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.Get().Resource("pods").VersionedParams(tt.opts)
			require.NoError(t, r.err)
			assert.Equal(t, tt.want, r.URL().RawQuery)
		})
	}
	err := c.Get().Resource("pods").VersionedParams(api.ListOptions{}).Do(context.Background()).Error()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unsupported options type api.ListOptions")
}

// TestCh00_AbsPathAndHeaders: AbsPath replaces the group-version prefix (kept below the
// server's own path), SetHeader overrides Accept, and Result.ContentType reports the answer's
// media type. The discovery client is built on these three.
func TestCh00_AbsPathAndHeaders(t *testing.T) {
	rec := &recorder{contentType: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", body: `{}`}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	c := newTestClient(t, srv.URL+"/prefix")

	tests := []struct {
		req  *Request
		want string
	}{
		{c.Get().AbsPath("/apis"), "/prefix/apis"},
		{c.Get().AbsPath("api"), "/prefix/api"},
		{c.Get().AbsPath("/apis", "apps", "v1"), "/prefix/apis/apps/v1"},
		{c.Get().AbsPath("/"), "/prefix"},
		{c.Get().AbsPath("/apis/example.dev/v1").Namespace("demo").Resource("widgets").Name("w"), "/prefix/apis/example.dev/v1/namespaces/demo/widgets/w"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.req.URL().Path)
	}

	var ct string
	body, err := c.Get().AbsPath("/apis").SetHeader("Accept", "application/json;v=v2", "application/json").
		Do(context.Background()).ContentType(&ct).Raw()
	require.NoError(t, err)
	assert.Equal(t, "{}", string(body))
	assert.Equal(t, rec.contentType, ct)
	got := rec.last(t)
	assert.Equal(t, "/prefix/apis", got.Path)
	assert.Equal(t, "application/json;v=v2", got.Accept, "SetHeader replaces the default Accept")
}

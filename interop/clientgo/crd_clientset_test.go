package clientgo_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestInterop_APIExtensionsClientsetCRDs drives the real apiextensions clientset: it creates a
// CustomResourceDefinition, reads back its Established condition and accepted names, lists
// CRDs, is refused a second CRD with two storage versions, and deletes the first. CRDs are
// JSON only here (see the apiserver's protobuf notes), so the clientset is configured with
// ContentType application/json.
func TestInterop_APIExtensionsClientsetCRDs(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cs, err := apiextensionsclient.NewForConfig(wiretest.RESTConfig(env.URL))
	require.NoError(t, err)
	ctx := context.Background()
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()

	schema := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
				"size": {Type: "integer", Minimum: ptr(1.0)},
			}},
		},
	}}
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true, Schema: schema,
			}},
		},
	}
	created, err := crds.Create(ctx, crd, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Empty(t, created.Status.Conditions, "the create's answer is the CRD before its controllers, as on the real server")

	got, err := crds.Get(ctx, "widgets.example.com", metav1.GetOptions{})
	require.NoError(t, err)
	established := false
	for _, c := range got.Status.Conditions {
		if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
			established = true
		}
	}
	assert.True(t, established, "Established: %+v", got.Status.Conditions)
	assert.Equal(t, "Widget", got.Status.AcceptedNames.Kind)
	assert.Equal(t, 1.0, *got.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"].Minimum, "the schema reads back whole")
	list, err := crds.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list.Items, 1)

	bad := crd.DeepCopy()
	bad.Name, bad.Spec.Names.Plural, bad.Spec.Names.Singular = "gadgets.example.com", "gadgets", "gadget"
	bad.Spec.Names.Kind, bad.Spec.Names.ListKind = "Gadget", "GadgetList"
	bad.Spec.Versions = append(bad.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: "v2", Served: true, Storage: true, Schema: schema})
	_, err = crds.Create(ctx, bad, metav1.CreateOptions{})
	require.Error(t, err)
	assert.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "must have exactly one version marked as storage version")

	// The DELETE marks the CRD; the server's CRD finalizer removes it in the background.
	require.NoError(t, crds.Delete(ctx, "widgets.example.com", metav1.DeleteOptions{}))
	waitFor(t, "the CRD gone", func() bool {
		_, err = crds.Get(ctx, "widgets.example.com", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}

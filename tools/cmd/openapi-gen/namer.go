package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	"k8s.io/kube-openapi/pkg/validation/spec"

	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	// The API groups kube-apiserver installs into legacyscheme.Scheme (the list of
	// pkg/controlplane/import_known_versions.go). The namer reads every type registered
	// there to give each definition its x-kubernetes-group-version-kind list.
	_ "k8s.io/kubernetes/pkg/apis/admission/install"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apiserverinternal/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/authentication/install"
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/extensions/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/imagepolicy/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"

	// Registers kube-apiserver's feature gates (OpenAPIEnums among them) with their
	// v1.36 defaults, which decide whether enum values stay in the schemas.
	_ "k8s.io/kubernetes/pkg/features"
)

// apiextensionsScheme is built the way the apiextensions-apiserver package builds its
// Scheme: the CRD group, plus the meta options and unversioned types in the core group.
// Importing that package itself would compile the whole CRD server for six lines.
func apiextensionsScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	apiextensionsinstall.Install(s)
	coreV1 := schema.GroupVersion{Group: "", Version: "v1"}
	metav1.AddToGroupVersion(s, coreV1)
	s.AddUnversionedTypes(coreV1,
		&metav1.Status{}, &metav1.WatchEvent{}, &metav1.APIVersions{},
		&metav1.APIGroupList{}, &metav1.APIGroup{}, &metav1.APIResourceList{})
	return s
}

// newNamer returns the definition namer kube-apiserver uses: definition names are the
// generated OpenAPIModelName keys unchanged ("io.k8s.api.core.v1.Pod"), and every type
// that the three schemes know gets the sorted list of kinds it is registered as.
func newNamer() *openapinamer.DefinitionNamer {
	return openapinamer.NewDefinitionNamer(legacyscheme.Scheme, apiextensionsScheme(), aggregatorscheme.Scheme)
}

const gvkExtension = "x-kubernetes-group-version-kind"

// crossRegistered are the kinds that metav1.AddToGroupVersion registers into every API
// group. kube-apiserver v1.36 narrows their kind lists per document (see keepOwnGVKs).
var crossRegistered = map[string]bool{"WatchEvent": true, "DeleteOptions": true}

// keepOwnGVKs narrows the x-kubernetes-group-version-kind list of the cross-registered
// meta types to the entry of this document's group-version and the core/v1 entry, as
// kube-apiserver's per-group-version OpenAPI v3 handler does: without it each document
// would list the sixty-odd groups that also register WatchEvent and DeleteOptions.
func keepOwnGVKs(schemas map[string]*spec.Schema, group, version string) {
	for _, s := range schemas {
		list, ok := s.Extensions[gvkExtension].([]interface{})
		if !ok || len(list) < 2 {
			continue
		}
		first, _ := list[0].(map[string]interface{})
		if kind, _ := first["kind"].(string); !crossRegistered[kind] {
			continue
		}
		var kept []interface{}
		for _, item := range list {
			gvk, _ := item.(map[string]interface{})
			g, _ := gvk["group"].(string)
			v, _ := gvk["version"].(string)
			if (g == group && v == version) || (g == "" && v == "v1") {
				kept = append(kept, item)
			}
		}
		if len(kept) == 0 {
			delete(s.Extensions, gvkExtension)
			continue
		}
		s.Extensions[gvkExtension] = kept
	}
}

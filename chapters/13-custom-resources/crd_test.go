package ch13_test

import (
	"github.com/informer-lab/informer-lab/apiserver"
)

// fooResource is what the Foo CustomResourceDefinition of testdata/crd.yaml tells the server:
// the group, version, names and scope of the kind. Registered kinds are stored whole, have the
// status subresource, and bump metadata.generation on spec changes only, as custom resources
// with "subresources: {status: {}}" do.
var fooResource = apiserver.ResourceInfo{
	Group:               "samplecontroller.k8s.io",
	Version:             "v1alpha1",
	Resource:            "foos",
	Kind:                "Foo",
	Namespaced:          true,
	ShortNames:          []string{"fo"},
	ReturnDeletedObject: true,
}

// installFooCRD is the one place the chapter teaches the server the Foo kind: the
// `kubectl apply -f testdata/crd.yaml` of sample-controller's README. It registers the kind
// from Go; once the server serves apiextensions.k8s.io, this becomes a POST of the manifest.
func installFooCRD(srv *apiserver.Server) error {
	return srv.Register(fooResource)
}

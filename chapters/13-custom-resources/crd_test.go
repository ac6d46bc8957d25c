package ch13_test

import (
	"context"
	"encoding/json"
	"os"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/clientcmd"
)

// installFooCRD is the one place the chapter teaches the server the Foo kind: the
// `kubectl apply -f testdata/crd.yaml` of sample-controller's README, done in process. The
// server validates the CustomResourceDefinition, sets its NamesAccepted and Established
// conditions and starts serving foos.samplecontroller.k8s.io: stored whole, validated against
// the CRD's schema, with the status subresource (metadata.generation moves on spec changes
// only).
func installFooCRD(srv *apiserver.Server) error {
	data, err := os.ReadFile("testdata/crd.yaml")
	if err != nil {
		return err
	}
	js, err := clientcmd.YAMLToJSON(data)
	if err != nil {
		return err
	}
	crd := &api.Unstructured{}
	if err := json.Unmarshal(js, crd); err != nil {
		return err
	}
	_, err = srv.Create(context.Background(), "customresourcedefinitions", "", crd)
	return err
}

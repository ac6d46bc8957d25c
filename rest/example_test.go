package rest_test

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/rest"
)

// A RESTClient builds each request step by step (verb, namespace, resource, name, options),
// sends it, and decodes the answer into a typed object, or into an *api.Status error for a
// failure.
func ExampleRESTClient() {
	srv := apiserver.New(apiserver.Options{})
	defer srv.Close()
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := rest.RESTClientFor(&rest.Config{Host: url})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()

	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "settings"}, Data: map[string]string{"k": "v"}}
	var created api.ConfigMap
	err = c.Post().Namespace("default").Resource("configmaps").Body(cm).Do(ctx).Into(&created)
	fmt.Println(created.Name, created.Data, err)

	var got api.ConfigMap
	err = c.Get().Namespace("default").Resource("configmaps").Name("missing").Do(ctx).Into(&got)
	fmt.Println(api.IsNotFound(err), err)
	// Output:
	// settings map[k:v] <nil>
	// true configmaps "missing" not found
}

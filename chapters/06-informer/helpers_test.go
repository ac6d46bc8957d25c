package ch06_test

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// cluster is the simulated apiserver on a loopback port, with a REST client for it: what
// client-go's examples get from a kubeconfig and kubernetes.NewForConfig.
type cluster struct {
	srv    *apiserver.Server
	client *rest.RESTClient
}

// startCluster starts the simulated apiserver with the objects a fresh cluster's default
// namespace shows in the articles: the kube-root-ca.crt configmap, plus one of ours.
func startCluster() *cluster {
	srv := apiserver.New(apiserver.Options{})
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	client, err := rest.RESTClientFor(&rest.Config{Host: url})
	if err != nil {
		panic(err)
	}
	c := &cluster{srv: srv, client: client}
	c.createConfigMap("kube-root-ca.crt")
	c.createConfigMap("app-config")
	return c
}

func (c *cluster) stop() { c.srv.Close() }

func (c *cluster) createConfigMap(name string) {
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}, Data: map[string]string{"k": "v"}}
	if _, err := c.srv.Create(context.Background(), "configmaps", "default", cm); err != nil {
		panic(err)
	}
}

func (c *cluster) patchConfigMap(name, value string) {
	patch := fmt.Sprintf(`{"data":{"k":%q}}`, value)
	if _, err := c.srv.Patch(context.Background(), "configmaps", "default", name, api.MergePatchType, []byte(patch)); err != nil {
		panic(err)
	}
}

func (c *cluster) deleteConfigMap(name string) {
	if _, err := c.srv.Delete(context.Background(), "configmaps", "default", name, nil); err != nil {
		panic(err)
	}
}

func (c *cluster) createPod(name string, labels map[string]string) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: labels},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
	if _, err := c.srv.Create(context.Background(), "pods", "default", p); err != nil {
		panic(err)
	}
}

// nameOf is the object's name; for a tombstone, the name in its key.
func nameOf(obj any) string {
	if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
		_, name, _ := store.SplitMetaNamespaceKey(tomb.Key)
		return name
	}
	m, err := api.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return m.GetName()
}

// sortedNames returns the sorted names of objs.
func sortedNames(objs []any) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = nameOf(o)
	}
	sort.Strings(out)
	return out
}

// waitFor polls cond for up to ten seconds: the examples run in real time against a server
// on a real port, where synctest cannot help.
func waitFor(what string, cond func() bool) {
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			panic("timed out waiting for " + what)
		}
		time.Sleep(time.Millisecond) // polling interval of a bounded wait
	}
}

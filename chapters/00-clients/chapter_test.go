package ch00_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/client/kubernetes"
	"github.com/informer-lab/informer-lab/client/restmapper"
	"github.com/informer-lab/informer-lab/rest"
)

// outcome is what one way of "list pods, then update one" achieved.
type outcome struct {
	Listed    []string          // names, in list order
	ListRV    string            // the list's resourceVersion
	UpdatedRV string            // web-1's resourceVersion after the update
	Labels    map[string]string // web-1's labels as stored afterwards
}

// TestCh00_SixWaysAgree: the six ways of the chapter do the same thing on the wire, so they
// list the same pods at the same RV and leave the same object behind.
func TestCh00_SixWaysAgree(t *testing.T) {
	ctx := context.Background()
	label := func(l map[string]string) map[string]string {
		out := map[string]string{"tier": "frontend"}
		for k, v := range l {
			out[k] = v
		}
		return out
	}
	rawJSON := func(t *testing.T, method, url string, body []byte) []byte {
		req, err := http.NewRequest(method, url, bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, 200, resp.StatusCode, "%s", data)
		return data
	}
	ways := map[string]func(t *testing.T, cfg *rest.Config) outcome{
		"raw HTTP": func(t *testing.T, cfg *rest.Config) outcome {
			var list struct {
				Metadata struct{ ResourceVersion string }
				Items    []map[string]any
			}
			require.NoError(t, json.Unmarshal(rawJSON(t, "GET", cfg.Host+"/api/v1/namespaces/demo/pods", nil), &list))
			var o outcome
			for _, it := range list.Items {
				o.Listed = append(o.Listed, it["metadata"].(map[string]any)["name"].(string))
			}
			o.ListRV = list.Metadata.ResourceVersion
			meta := list.Items[0]["metadata"].(map[string]any)
			meta["labels"].(map[string]any)["tier"] = "frontend"
			body, err := json.Marshal(list.Items[0])
			require.NoError(t, err)
			var updated map[string]any
			require.NoError(t, json.Unmarshal(rawJSON(t, "PUT", cfg.Host+"/api/v1/namespaces/demo/pods/web-1", body), &updated))
			o.UpdatedRV = updated["metadata"].(map[string]any)["resourceVersion"].(string)
			return o
		},
		"RESTClient": func(t *testing.T, cfg *rest.Config) outcome {
			c, err := rest.RESTClientFor(cfg)
			require.NoError(t, err)
			var list api.PodList
			require.NoError(t, c.Get().Namespace("demo").Resource("pods").Do(ctx).Into(&list))
			p := list.Items[0].DeepCopy()
			p.Labels = label(p.Labels)
			var updated api.Pod
			require.NoError(t, c.Put().Namespace("demo").Resource("pods").Name("web-1").Body(p).Do(ctx).Into(&updated))
			return outcome{Listed: podNames(list.Items), ListRV: list.ResourceVersion, UpdatedRV: updated.ResourceVersion}
		},
		"clientset": func(t *testing.T, cfg *rest.Config) outcome {
			cs, err := kubernetes.NewForConfig(cfg)
			require.NoError(t, err)
			list, err := cs.CoreV1().Pods("demo").List(ctx, api.ListOptions{})
			require.NoError(t, err)
			p := list.Items[0].DeepCopy()
			p.Labels = label(p.Labels)
			updated, err := cs.CoreV1().Pods("demo").Update(ctx, p, api.UpdateOptions{})
			require.NoError(t, err)
			return outcome{Listed: podNames(list.Items), ListRV: list.ResourceVersion, UpdatedRV: updated.ResourceVersion}
		},
		"dynamic": func(t *testing.T, cfg *rest.Config) outcome {
			dc, err := dynamic.NewForConfig(cfg)
			require.NoError(t, err)
			list, err := dc.Resource(podsGVR).Namespace("demo").List(ctx, api.ListOptions{})
			require.NoError(t, err)
			u := list.Items[0].DeepCopy()
			u.SetLabels(label(u.GetLabels()))
			updated, err := dc.Resource(podsGVR).Namespace("demo").Update(ctx, u, api.UpdateOptions{})
			require.NoError(t, err)
			var names []string
			for _, it := range list.Items {
				names = append(names, it.GetName())
			}
			return outcome{Listed: names, ListRV: list.GetResourceVersion(), UpdatedRV: updated.GetResourceVersion()}
		},
		"discovery + dynamic": func(t *testing.T, cfg *rest.Config) outcome {
			disc, err := discovery.NewDiscoveryClientForConfig(cfg)
			require.NoError(t, err)
			mapper, err := restmapper.NewDiscoveryRESTMapperForClient(ctx, disc)
			require.NoError(t, err)
			m, err := mapper.MappingFor("po")
			require.NoError(t, err)
			dc, err := dynamic.NewForConfig(cfg)
			require.NoError(t, err)
			list, err := dc.Resource(m.Resource).Namespace("demo").List(ctx, api.ListOptions{})
			require.NoError(t, err)
			patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"labels": map[string]string{"tier": "frontend"}}})
			updated, err := dc.Resource(m.Resource).Namespace("demo").Patch(ctx, "web-1", api.MergePatchType, patch, api.PatchOptions{})
			require.NoError(t, err)
			var names []string
			for _, it := range list.Items {
				names = append(names, it.GetName())
			}
			return outcome{Listed: names, ListRV: list.GetResourceVersion(), UpdatedRV: updated.GetResourceVersion()}
		},
		"Scheme over raw HTTP": func(t *testing.T, cfg *rest.Config) outcome {
			obj, err := api.DefaultScheme.Decode(rawJSON(t, "GET", cfg.Host+"/api/v1/namespaces/demo/pods", nil))
			require.NoError(t, err)
			list := obj.(*api.PodList)
			p := list.Items[0].DeepCopy()
			p.Labels = label(p.Labels)
			body, err := api.DefaultScheme.Encode(p)
			require.NoError(t, err)
			var updated api.Pod
			require.NoError(t, api.DefaultScheme.DecodeInto(rawJSON(t, "PUT", cfg.Host+"/api/v1/namespaces/demo/pods/web-1", body), &updated))
			return outcome{Listed: podNames(list.Items), ListRV: list.ResourceVersion, UpdatedRV: updated.ResourceVersion}
		},
	}
	want := outcome{Listed: []string{"web-1", "web-2"}, ListRV: "6", UpdatedRV: "7",
		Labels: map[string]string{"app": "web", "tier": "frontend"}}
	for name, way := range ways {
		t.Run(name, func(t *testing.T) {
			srv, cfg := startLab(apiserver.Options{})
			defer srv.Close()
			got := way(t, cfg)
			stored, err := srv.Get(ctx, "pods", "demo", "web-1")
			require.NoError(t, err)
			got.Labels = stored.(*api.Pod).Labels
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
		})
	}
}

func podNames(items []api.Pod) []string {
	var out []string
	for _, p := range items {
		out = append(out, p.Name)
	}
	return out
}

// TestCh00_TypedErrorsEveryClient_S1_S2: each client turns the same failures into the same typed
// errors (S1, S2).
func TestCh00_TypedErrorsEveryClient_S1_S2(t *testing.T) {
	ctx := context.Background()
	type client struct {
		get    func(name string) error
		create func(name string) error
		update func(rv string) error
	}
	clients := map[string]func(cfg *rest.Config) client{
		"RESTClient": func(cfg *rest.Config) client {
			c := must(rest.RESTClientFor(cfg))
			pods := c.Resource(podsGVR).Namespace("demo")
			return client{
				get: func(name string) error { _, err := pods.Get(ctx, name); return err },
				create: func(name string) error {
					_, err := pods.Create(ctx, webPod(name))
					return err
				},
				update: func(rv string) error {
					_, err := pods.Update(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", ResourceVersion: rv}})
					return err
				},
			}
		},
		"clientset": func(cfg *rest.Config) client {
			pods := must(kubernetes.NewForConfig(cfg)).CoreV1().Pods("demo")
			return client{
				get: func(name string) error { _, err := pods.Get(ctx, name, api.GetOptions{}); return err },
				create: func(name string) error {
					_, err := pods.Create(ctx, webPod(name), api.CreateOptions{})
					return err
				},
				update: func(rv string) error {
					_, err := pods.Update(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", ResourceVersion: rv}}, api.UpdateOptions{})
					return err
				},
			}
		},
		"dynamic": func(cfg *rest.Config) client {
			pods := must(dynamic.NewForConfig(cfg)).Resource(podsGVR).Namespace("demo")
			obj := func(name, rv string) *api.Unstructured {
				u := &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
					"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}}}}
				u.SetName(name)
				u.SetResourceVersion(rv)
				return u
			}
			return client{
				get: func(name string) error { _, err := pods.Get(ctx, name, api.GetOptions{}); return err },
				create: func(name string) error {
					_, err := pods.Create(ctx, obj(name, ""), api.CreateOptions{})
					return err
				},
				update: func(rv string) error {
					_, err := pods.Update(ctx, obj("web-1", rv), api.UpdateOptions{})
					return err
				},
			}
		},
	}
	for name, mk := range clients {
		t.Run(name, func(t *testing.T) {
			srv, cfg := startLab(apiserver.Options{})
			defer srv.Close()
			cfg.Clock = instantClock{}
			c := mk(cfg)
			tests := []struct {
				what string
				err  error
				is   func(error) bool
			}{
				{"get a missing pod", c.get("nope"), api.IsNotFound},
				{"create an existing pod", c.create("web-2"), api.IsAlreadyExists},
				{"update from a stale read", c.update("1"), api.IsConflict},
				{"an invalid name", c.create("Not_Valid"), api.IsInvalid},
				{"429 beyond the retries", func() error {
					srv.FailNext(apiserver.FailRule{Verb: "get", Resource: "pods", Count: 11, Code: 429})
					return c.get("web-1")
				}(), api.IsTooManyRequests},
				{"410 from an old server", func() error {
					srv.FailNext(apiserver.FailRule{Verb: "get", Resource: "pods", Count: 1, Code: 410})
					return c.get("web-1")
				}(), api.IsGone},
			}
			for _, tt := range tests {
				require.Error(t, tt.err, tt.what)
				assert.True(t, tt.is(tt.err), "%s: %T %v", tt.what, tt.err, tt.err)
			}
			require.NoError(t, c.get("web-1"), "the faults are used up")
		})
	}
}

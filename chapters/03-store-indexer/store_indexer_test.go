package ch03_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

// imagesIndexFunc is multi-valued: a pod is filed once under each distinct container image.
func imagesIndexFunc(obj any) ([]string, error) {
	p := obj.(*api.Pod)
	var images []string
	for _, c := range p.Spec.Containers {
		if !slices.Contains(images, c.Image) {
			images = append(images, c.Image)
		}
	}
	return images, nil
}

// nodeIndexFunc files a pod under the node it runs on; unscheduled pods are not filed.
func nodeIndexFunc(obj any) ([]string, error) {
	p := obj.(*api.Pod)
	if p.Spec.NodeName == "" {
		return nil, nil
	}
	return []string{p.Spec.NodeName}, nil
}

func podWith(ns, name, node string, labels map[string]string, images ...string) *api.Pod {
	p := newPod(ns, name, labels)
	p.Spec.NodeName = node
	for i, img := range images {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: fmt.Sprintf("c%d", i), Image: img})
	}
	return p
}

func indexKeys(t *testing.T, idx store.Indexer, name, value string) []string {
	t.Helper()
	keys, err := idx.IndexKeys(name, value)
	require.NoError(t, err)
	return keys
}

// A multi-valued index files one object under several values (TS-2), and Index() on a probe
// with several values returns each matching object once (TS-8).
func TestCh03_MultiValuedIndex(t *testing.T) {
	idx := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{"images": imagesIndexFunc})
	require.NoError(t, idx.Add(podWith("ns", "web", "", nil, "nginx:1.27", "envoy:1.30")))
	require.NoError(t, idx.Add(podWith("ns", "proxy", "", nil, "envoy:1.30", "envoy:1.30")))
	require.NoError(t, idx.Add(podWith("ns", "db", "", nil, "postgres:17")))

	assert.Equal(t, []string{"ns/proxy", "ns/web"}, indexKeys(t, idx, "images", "envoy:1.30"))
	assert.Equal(t, []string{"ns/web"}, indexKeys(t, idx, "images", "nginx:1.27"))
	values := idx.ListIndexFuncValues("images")
	assert.ElementsMatch(t, []string{"nginx:1.27", "envoy:1.30", "postgres:17"}, values)

	got, err := idx.Index("images", podWith("", "probe", "", nil, "nginx:1.27", "envoy:1.30"))
	require.NoError(t, err)
	assert.Len(t, got, 2, "web matches twice but is returned once")
}

// An update moves the key from the old value to the new one, and a delete removes it from
// every index: the "object removed but the index still holds it" bug (kubernetes#43566) must
// not come back. TS-2, TS-3, TS-5.
func TestCh03_UpdateMovesKeyAndDeleteCleansEveryIndex(t *testing.T) {
	idx := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{
		"node":   nodeIndexFunc,
		"images": imagesIndexFunc,
		"app":    appIndexFunc,
	})
	require.NoError(t, idx.Add(podWith("ns", "a", "node-1", map[string]string{"app": "web"}, "nginx", "envoy")))

	// Rescheduled, relabelled, one image dropped.
	require.NoError(t, idx.Update(podWith("ns", "a", "node-2", map[string]string{"app": "api"}, "nginx")))
	assert.Empty(t, indexKeys(t, idx, "node", "node-1"))
	assert.Equal(t, []string{"ns/a"}, indexKeys(t, idx, "node", "node-2"))
	assert.Empty(t, indexKeys(t, idx, "images", "envoy"))
	assert.Equal(t, []string{"node-2"}, idx.ListIndexFuncValues("node"), "no empty value is kept (TS-3)")
	assert.Equal(t, []string{"api"}, idx.ListIndexFuncValues("app"))

	// The delete passes a stale object: the stored one decides what is unfiled (TS-5).
	require.NoError(t, idx.Delete(podWith("ns", "a", "node-1", map[string]string{"app": "web"}, "envoy")))
	for _, name := range []string{"node", "images", "app"} {
		assert.Empty(t, idx.ListIndexFuncValues(name), "index %q still holds the deleted pod", name)
	}
	_, exists, err := idx.GetByKey("ns/a")
	require.NoError(t, err)
	assert.False(t, exists)
}

// AddIndexers after items exist indexes them (TS-12, client-go v0.30+; before that it
// refused with "cannot add indexers to running index").
func TestCh03_AddIndexersAfterItemsExist(t *testing.T) {
	idx := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{})
	require.NoError(t, idx.Add(podWith("ns", "a", "node-1", nil)))
	require.NoError(t, idx.Add(podWith("ns", "b", "node-1", nil)))
	require.NoError(t, idx.Add(podWith("ns", "c", "", nil)))

	require.NoError(t, idx.AddIndexers(store.Indexers{"node": nodeIndexFunc}))
	assert.Equal(t, []string{"ns/a", "ns/b"}, indexKeys(t, idx, "node", "node-1"))

	require.NoError(t, idx.Add(podWith("ns", "c", "node-2", nil)))
	assert.Equal(t, []string{"ns/c"}, indexKeys(t, idx, "node", "node-2"), "later writes keep the new index current")

	assert.EqualError(t, idx.AddIndexers(store.Indexers{"node": nodeIndexFunc}), "indexer conflict: [node]")
}

// The property test: after any sequence of Add, Update, Delete and Replace, every index equals
// one recomputed from scratch over the items (INV-2), and the items equal a plain map model.
func TestCh03_PropertyIndicesMatchRecomputation(t *testing.T) {
	indexers := store.Indexers{
		store.NamespaceIndex: store.MetaNamespaceIndexFunc,
		"node":               nodeIndexFunc,
		"images":             imagesIndexFunc,
		"app":                appIndexFunc,
	}
	for seed := uint64(1); seed <= 25; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0))
			idx := store.NewIndexer(store.MetaNamespaceKeyFunc, indexers)
			model := map[string]*api.Pod{}
			randomPod := func() *api.Pod {
				labels := map[string]string{}
				if rng.IntN(3) > 0 {
					labels["app"] = fmt.Sprint("app-", rng.IntN(4))
				}
				var images []string
				for range rng.IntN(3) {
					images = append(images, fmt.Sprint("img-", rng.IntN(4)))
				}
				node := ""
				if rng.IntN(4) > 0 {
					node = fmt.Sprint("node-", rng.IntN(3))
				}
				return podWith(fmt.Sprint("ns", rng.IntN(3)), fmt.Sprint("p", rng.IntN(12)), node, labels, images...)
			}
			for step := range 300 {
				switch op := rng.IntN(10); {
				case op < 4:
					p := randomPod()
					require.NoError(t, idx.Add(p))
					model[p.Namespace+"/"+p.Name] = p
				case op < 7:
					p := randomPod()
					require.NoError(t, idx.Update(p))
					model[p.Namespace+"/"+p.Name] = p
				case op < 9:
					p := randomPod()
					require.NoError(t, idx.Delete(p))
					delete(model, p.Namespace+"/"+p.Name)
				default:
					var list []any
					clear(model)
					for range rng.IntN(8) {
						p := randomPod()
						list = append(list, p)
						model[p.Namespace+"/"+p.Name] = p
					}
					require.NoError(t, idx.Replace(list, fmt.Sprint(step)))
				}
				checkAgainstModel(t, idx, model)
			}
		})
	}
}

func checkAgainstModel(t *testing.T, idx store.Indexer, model map[string]*api.Pod) {
	t.Helper()
	got := map[string]*api.Pod{}
	for _, obj := range idx.List() {
		p := obj.(*api.Pod)
		got[p.Namespace+"/"+p.Name] = p
	}
	require.Empty(t, cmp.Diff(model, got), "items differ from the model")

	for name, f := range idx.GetIndexers() {
		want := map[string][]string{}
		for key, p := range model {
			values, err := f(p)
			require.NoError(t, err)
			for _, v := range values {
				if !slices.Contains(want[v], key) {
					want[v] = append(want[v], key)
				}
			}
		}
		for _, keys := range want {
			slices.Sort(keys)
		}
		have := map[string][]string{}
		for _, v := range idx.ListIndexFuncValues(name) {
			have[v] = indexKeys(t, idx, name, v)
			require.NotEmpty(t, have[v], "index %q keeps an empty set for %q", name, v)
		}
		require.Empty(t, cmp.Diff(want, have), "index %q differs from a recomputation", name)
	}
}

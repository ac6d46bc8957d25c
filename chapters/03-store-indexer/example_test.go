package ch03_test

import (
	"fmt"
	"slices"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/store"
)

// appIndexFunc files a pod under the value of its "app" label, the index the articles build.
func appIndexFunc(obj any) ([]string, error) {
	p, ok := obj.(*api.Pod)
	if !ok {
		return nil, fmt.Errorf("not a pod: %T", obj)
	}
	if v, ok := p.Labels["app"]; ok {
		return []string{v}, nil
	}
	return nil, nil
}

func newPod(ns, name string, labels map[string]string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
}

// Example_customIndex is the custom IndexFunc of the runnable-examples article (section
// Indexer; docs/articles.md, block 4.12): an index named "app" over the pod label
// "app", two pods in two namespaces, and IndexKeys("app", "l1").
func Example_customIndex() {
	indexer := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{"app": appIndexFunc})

	_ = indexer.Add(newPod("ns1", "pod1", map[string]string{"app": "l1"}))
	_ = indexer.Add(newPod("ns2", "pod2", map[string]string{"app": "l2"}))

	fmt.Println(indexer.IndexKeys("app", "l1"))
	// Output:
	// [ns1/pod1] <nil>
}

// printIndex shows one index as "value=[keys]" lines, sorted, or "(empty)".
func printIndex(indexer store.Indexer, name string) {
	values := indexer.ListIndexFuncValues(name)
	slices.Sort(values)
	if len(values) == 0 {
		fmt.Println("  (empty)")
	}
	for _, v := range values {
		keys, _ := indexer.IndexKeys(name, v)
		fmt.Printf("  %s=%v\n", v, keys)
	}
}

// Example_threadSafeMapSteps follows 《client-go 源码学习总结》, section threadSafeMap 分析
// (docs/articles.md, block 2.3): what threadSafeMap.Add/Update do to the
// index. The update takes the old object, stores the new one, unfiles the key from the old
// value (dropping the now-empty set) and files it under the new value.
func Example_threadSafeMapSteps() {
	indexer := store.NewIndexer(store.MetaNamespaceKeyFunc, store.Indexers{"app": appIndexFunc})

	fmt.Println("add ns1/pod1 app=l1:")
	_ = indexer.Add(newPod("ns1", "pod1", map[string]string{"app": "l1"}))
	printIndex(indexer, "app")

	fmt.Println("add ns1/pod2 app=l1:")
	_ = indexer.Add(newPod("ns1", "pod2", map[string]string{"app": "l1"}))
	printIndex(indexer, "app")

	fmt.Println("update ns1/pod1 to app=l2:")
	_ = indexer.Update(newPod("ns1", "pod1", map[string]string{"app": "l2"}))
	printIndex(indexer, "app")

	fmt.Println("delete ns1/pod2:")
	_ = indexer.Delete(newPod("ns1", "pod2", nil))
	printIndex(indexer, "app")

	fmt.Println("delete ns1/pod1:")
	_ = indexer.Delete(newPod("ns1", "pod1", nil))
	printIndex(indexer, "app")
	// Output:
	// add ns1/pod1 app=l1:
	//   l1=[ns1/pod1]
	// add ns1/pod2 app=l1:
	//   l1=[ns1/pod1 ns1/pod2]
	// update ns1/pod1 to app=l2:
	//   l1=[ns1/pod2]
	//   l2=[ns1/pod1]
	// delete ns1/pod2:
	//   l2=[ns1/pod1]
	// delete ns1/pod1:
	//   (empty)
}

// Example_namespaceIndex shows the index every informer gets for free, and a lister using it.
func Example_namespaceIndex() {
	indexer := store.NewIndexer(store.MetaNamespaceKeyFunc,
		store.Indexers{store.NamespaceIndex: store.MetaNamespaceIndexFunc})
	_ = indexer.Add(newPod("default", "web-1", nil))
	_ = indexer.Add(newPod("default", "web-2", nil))
	_ = indexer.Add(newPod("kube-system", "dns", nil))

	fmt.Println(indexer.IndexKeys(store.NamespaceIndex, "default"))
	fmt.Println(indexer.IndexKeys(store.NamespaceIndex, "kube-system"))

	// A lister narrowed to one namespace looks its pods up through that index.
	pods := store.NewResourceIndexer[*api.Pod](indexer, api.GroupResource{Resource: "pods"})
	inDefault, _ := pods.ByNamespace("default").List(labels.Everything())
	var names []string
	for _, p := range inDefault {
		names = append(names, p.Name)
	}
	slices.Sort(names) // a lister promises no order
	fmt.Println(names)
	_, err := pods.ByNamespace("default").Get("dns")
	fmt.Println(err)
	// Output:
	// [default/web-1 default/web-2] <nil>
	// [kube-system/dns] <nil>
	// [web-1 web-2]
	// pods "dns" not found
}

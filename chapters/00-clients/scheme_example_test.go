package ch00_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

// Example_scheme is way 6: raw HTTP again, but the bytes go through the Scheme. Decode reads
// "kind" and "apiVersion", looks the pair up and fills the registered Go type: a PodList
// becomes *api.PodList. Encode goes back, filling kind and apiVersion on a copy. This is
// what every typed client does under the hood.
func Example_scheme() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()

	resp := must(hc.Get(cfg.Host + "/api/v1/namespaces/demo/pods"))
	body := must(io.ReadAll(resp.Body))
	resp.Body.Close()
	obj := must(api.DefaultScheme.Decode(body))
	list := obj.(*api.PodList)
	fmt.Printf("decoded %T with %d items, rv %s\n", obj, len(list.Items), list.ResourceVersion)

	p := list.Items[1].DeepCopy()
	p.Labels["tier"] = "backend"
	p.TypeMeta = api.TypeMeta{} // Encode fills these back in from the Scheme
	data := must(api.DefaultScheme.Encode(p))
	fmt.Printf("encoded starts %s\n", data[:34])
	req := must(http.NewRequest("PUT", cfg.Host+"/api/v1/namespaces/demo/pods/"+p.Name, bytes.NewReader(data)))
	req.Header.Set("Content-Type", "application/json")
	resp = must(hc.Do(req))
	body = must(io.ReadAll(resp.Body))
	resp.Body.Close()
	var updated api.Pod
	check(api.DefaultScheme.DecodeInto(body, &updated))
	fmt.Printf("%d: %s rv=%s labels=%v\n", resp.StatusCode, updated.Name, updated.ResourceVersion, updated.Labels)

	// Kinds the Scheme does not know decode as Unstructured; no kind at all is an error.
	unknown := must(api.DefaultScheme.Decode([]byte(`{"apiVersion":"example.dev/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":3}}`)))
	fmt.Printf("unknown kind → %T\n", unknown)
	_, err := api.DefaultScheme.Decode([]byte(`{"metadata":{"name":"x"}}`))
	fmt.Println("no kind →", err)
	// Output:
	// decoded *api.PodList with 2 items, rv 6
	// encoded starts {"kind":"Pod","apiVersion":"v1","m
	// 200: web-2 rv=7 labels=map[app:web tier:backend]
	// unknown kind → *api.Unstructured
	// no kind → object 'Kind' is missing in "{\"metadata\":{\"name\":\"x\"}}"
}

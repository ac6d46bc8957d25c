package ch02_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/rest"
	restwatch "github.com/informer-lab/informer-lab/rest/watch"
)

var podsGVR = api.GroupVersionResource{Version: "v1", Resource: "pods"}

// server starts the simulated apiserver with namespace demo, and returns a client whose
// requests go through rt (nil: straight to the server).
func server(rt func(http.RoundTripper) http.RoundTripper) (*apiserver.Server, *rest.RESTClient) {
	srv := apiserver.New(apiserver.Options{})
	if _, err := srv.Start("127.0.0.1:0"); err != nil {
		panic(err)
	}
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}}
	if _, err := srv.Create(context.Background(), "namespaces", "", ns); err != nil {
		panic(err)
	}
	cfg := &rest.Config{Host: srv.URL()}
	if rt != nil {
		cfg.Transport = rt(http.DefaultTransport.(*http.Transport).Clone())
	}
	c, err := rest.RESTClientFor(cfg)
	if err != nil {
		panic(err)
	}
	return srv, c
}

// newPod is the least valid pod: the server refuses one without spec.containers (422), as
// kube-apiserver does.
func newPod(name string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
}

// podOnNode is newPod already bound to node, for field selectors on spec.nodeName.
func podOnNode(name, node string) *api.Pod {
	p := newPod(name)
	p.Spec.NodeName = node
	return p
}

// printRequests prints each request line as it goes out, with continue tokens shortened:
// the raw wire from the client's side.
type printRequests struct{ next http.RoundTripper }

func (p printRequests) RoundTrip(r *http.Request) (*http.Response, error) {
	q := r.URL.Query()
	if q.Has("continue") {
		q.Set("continue", "TOKEN")
	}
	line := r.URL.Path
	if len(q) > 0 {
		line += "?" + strings.ReplaceAll(q.Encode(), "TOKEN", "…")
	}
	resp, err := p.next.RoundTrip(r)
	if err == nil {
		fmt.Printf("  %s %s → %d\n", r.Method, line, resp.StatusCode)
	}
	return resp, err
}

func tracePrinter(next http.RoundTripper) http.RoundTripper { return printRequests{next} }

// runPod creates a pod and moves it to Running through the status subresource, as a kubelet
// would.
func runPod(ctx context.Context, c *rest.RESTClient, name string) {
	obj, err := c.Resource(podsGVR).Namespace("demo").Create(ctx, newPod(name))
	if err != nil {
		panic(err)
	}
	p := obj.(*api.Pod)
	p.Status.Phase = api.PodRunning
	if err := c.Put().Namespace("demo").Resource("pods").Name(name).SubResource("status").Body(p).Do(ctx).Error(); err != nil {
		panic(err)
	}
}

func phase(obj api.Object) api.PodPhase { return obj.(*api.Pod).Status.Phase }

// Example_articleListWatch is the List & Watch example of the runnable-examples article
// (docs/articles.md, block 4.2): a ListWatch for the pods of one namespace,
// Watch, and print each event as "TYPE : name - phase". The existing pods arrive as ADDED
// (a watch without a resourceVersion starts with the current state); then a new pod goes
// Pending → Running and is deleted. On a real cluster the kubelet adds more MODIFIED events
// (conditions, IPs); the simulator has no kubelet, so we play it with one status write.
func Example_articleListWatch() {
	srv, c := server(nil)
	defer srv.Close()
	ctx := context.Background()
	runPod(ctx, c, "web-1")
	runPod(ctx, c, "web-2")

	lw := listwatch.NewListWatchFromClient(c, "pods", "demo", fields.Everything())
	w, err := lw.Watch(api.ListOptions{})
	if err != nil {
		panic(err)
	}
	defer w.Stop()
	show := func(n int) {
		for range n {
			ev := <-w.ResultChan()
			fmt.Printf("%s : %s - %s\n", ev.Type, ev.Object.(*api.Pod).Name, phase(ev.Object))
		}
	}
	show(2) // the current state

	runPod(ctx, c, "web-3") // "kubectl create", then the kubelet starts it
	show(2)
	if err := c.Resource(podsGVR).Namespace("demo").Delete(ctx, "web-3", nil); err != nil {
		panic(err)
	}
	show(1)
	// Output:
	// ADDED : web-1 - Running
	// ADDED : web-2 - Running
	// ADDED : web-3 - Pending
	// MODIFIED : web-3 - Running
	// DELETED : web-3 - Running
}

// Example_listThenWatch is the list→watch hand-off over the raw wire: a LIST gives the
// state and its resourceVersion; a WATCH from exactly that RV gives every change after it,
// no gap and no duplicate (W11). The request lines are what the client sends.
func Example_listThenWatch() {
	srv, c := server(tracePrinter)
	defer srv.Close()
	ctx := context.Background()
	pods := c.Resource(podsGVR).Namespace("demo")
	for _, n := range []string{"a", "b"} {
		if _, err := srv.Create(ctx, "pods", "demo", newPod(n)); err != nil {
			panic(err)
		}
	}

	fmt.Println("list:")
	obj, err := pods.List(ctx, api.ListOptions{ResourceVersion: "0", Limit: 500})
	if err != nil {
		panic(err)
	}
	list := obj.(*api.PodList)
	for _, p := range list.Items {
		fmt.Printf("  item %s rv=%s\n", p.Name, p.ResourceVersion)
	}
	fmt.Printf("  list rv=%s\n", list.ResourceVersion)

	fmt.Println("watch from the list's RV:")
	w, err := pods.Watch(ctx, api.ListOptions{ResourceVersion: list.ResourceVersion, AllowWatchBookmarks: true})
	if err != nil {
		panic(err)
	}
	defer w.Stop()
	if _, err := srv.Create(ctx, "pods", "demo", newPod("c")); err != nil {
		panic(err)
	}
	if _, err := srv.Delete(ctx, "pods", "demo", "a", nil); err != nil {
		panic(err)
	}
	for range 2 {
		ev := <-w.ResultChan()
		m, _ := api.Accessor(ev.Object)
		fmt.Printf("  %s %s rv=%s\n", ev.Type, m.GetName(), m.GetResourceVersion())
	}
	// Output:
	// list:
	//   GET /api/v1/namespaces/demo/pods?limit=500&resourceVersion=0 → 200
	//   item a rv=5
	//   item b rv=6
	//   list rv=6
	// watch from the list's RV:
	//   GET /api/v1/namespaces/demo/pods?allowWatchBookmarks=true&resourceVersion=6&watch=true → 200
	//   ADDED c rv=7
	//   DELETED a rv=8
}

// Example_streamDecoder shows what the stream decoder makes of each NDJSON line of a watch
// body: one watch.Event per {"type","object"} frame, the object decoded through the Scheme
// into its Go type, a BOOKMARK with only an RV (and here the initial-events-end annotation),
// an ERROR with an *api.Status.
func Example_streamDecoder() {
	lines := []string{
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"demo","resourceVersion":"5"},"status":{"phase":"Pending"}}}`,
		`{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"demo","resourceVersion":"6"},"status":{"phase":"Running"}}}`,
		`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"9","annotations":{"k8s.io/initial-events-end":"true"}}}}`,
		`{"type":"ADDED","object":{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w","namespace":"demo","resourceVersion":"10"}}}`,
		`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (1000)","reason":"Expired","code":410}}`,
	}
	body := io.NopCloser(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	dec := restwatch.NewDecoder(body, restwatch.DecoderOptions{})
	defer dec.Close()
	for i := 0; ; i++ {
		t, obj, err := dec.Decode()
		if err == io.EOF {
			break
		}
		fmt.Println("wire: ", lines[i][:min(len(lines[i]), 72)]+"…")
		switch o := obj.(type) {
		case *api.Pod:
			fmt.Printf("event: %s %T %s rv=%s phase=%q annotations=%v\n", t, o, o.Name, o.ResourceVersion, o.Status.Phase, o.Annotations)
		case *api.Unstructured:
			fmt.Printf("event: %s %T %s %s rv=%s\n", t, o, o.GetKind(), o.GetName(), o.GetResourceVersion())
		case *api.Status:
			fmt.Printf("event: %s %T code=%d reason=%s expired=%v\n", t, o, o.Code, o.Reason, api.IsResourceExpired(o))
		}
	}
	// Output:
	// wire:  {"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"na…
	// event: ADDED *api.Pod web-1 rv=5 phase="Pending" annotations=map[]
	// wire:  {"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{…
	// event: MODIFIED *api.Pod web-1 rv=6 phase="Running" annotations=map[]
	// wire:  {"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{…
	// event: BOOKMARK *api.Pod  rv=9 phase="" annotations=map[k8s.io/initial-events-end:true]
	// wire:  {"type":"ADDED","object":{"kind":"Widget","apiVersion":"example.com/v1",…
	// event: ADDED *api.Unstructured Widget w rv=10
	// wire:  {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{…
	// event: ERROR *api.Status code=410 reason=Expired expired=true
}

// Example_brokenStream shows what the decoder does with a broken stream: whatever was whole
// before the damage is delivered, then exactly one ERROR event (a 500 Status saying what was
// wrong) and the channel closes. A clean end of the body just closes the channel.
func Example_brokenStream() {
	good := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"1"}}}` + "\n"
	cases := []struct {
		name string
		body string
		max  int
	}{
		{"clean end", good, 0},
		{"truncated frame", good + good[:30], 0},
		{"garbage bytes", good + "<html>502 Bad Gateway</html>", 0},
		{"missing kind", `{"type":"ADDED","object":{"apiVersion":"v1","metadata":{"name":"a"}}}`, 0},
		{"unknown type", `{"type":"UPSERTED","object":{"kind":"Pod","apiVersion":"v1"}}`, 0},
		{"frame over the limit", good + `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"` + strings.Repeat("x", 200) + `"}}}`, 150},
	}
	for _, tc := range cases {
		body := io.NopCloser(strings.NewReader(tc.body))
		w := restwatch.NewStreamWatcher(restwatch.NewDecoder(body, restwatch.DecoderOptions{MaxFrameBytes: tc.max}), nil)
		fmt.Printf("%s:\n", tc.name)
		for ev := range w.ResultChan() {
			if st, ok := ev.Object.(*api.Status); ok {
				fmt.Printf("  %s %d %s: %s\n", ev.Type, st.Code, st.Reason, st.Details.Causes[0].Message)
				continue
			}
			fmt.Printf("  %s %s\n", ev.Type, ev.Object.(*api.Pod).Name)
		}
		fmt.Println("  (closed)")
	}
	// Output:
	// clean end:
	//   ADDED a
	//   (closed)
	// truncated frame:
	//   ADDED a
	//   ERROR 500 InternalError: unable to decode an event from the watch stream: the stream ended in the middle of an event after 30 bytes: unexpected EOF
	//   (closed)
	// garbage bytes:
	//   ADDED a
	//   ERROR 500 InternalError: unable to decode an event from the watch stream: invalid character '<' looking for the beginning of a watch event in "<html>502 Bad Gateway</html>"
	//   (closed)
	// missing kind:
	//   ERROR 500 InternalError: unable to decode an event from the watch stream: unable to decode watch event: object 'Kind' is missing in "{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\"}}"
	//   (closed)
	// unknown type:
	//   ERROR 500 InternalError: unable to decode an event from the watch stream: got invalid watch event type: UPSERTED
	//   (closed)
	// frame over the limit:
	//   ADDED a
	//   ERROR 500 InternalError: unable to decode an event from the watch stream: object to decode was longer than maximum allowed size (more than 150 bytes)
	//   (closed)
}

// Example_pager is the pager half of 《Informer原理详解》, section 分块list (docs/articles.md,
// block 3.8): the same pager, three resourceVersions. RV "0" may
// be served from the watch cache, which ignores limit (L9): one page. RV "" is a consistent
// read that pages; continuation requests carry the token and no RV (PG-4). RV "N" with a limit
// is an exact read of the past: a pod created after N is not in it.
func Example_pager() {
	srv, c := server(tracePrinter)
	defer srv.Close()
	ctx := context.Background()
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		if _, err := srv.Create(ctx, "pods", "demo", newPod(n)); err != nil {
			panic(err)
		}
	}
	snapshot := fmt.Sprint(srv.ResourceVersion())
	if _, err := srv.Create(ctx, "pods", "demo", newPod("late")); err != nil {
		panic(err)
	}

	lw := listwatch.NewListWatchFromClient(c, "pods", "demo", fields.Everything())
	p := listwatch.NewListPager(listwatch.ListPageFunc(lw.ListWithContextFunc))
	p.PageSize = 2
	for _, rv := range []string{"0", "", snapshot} {
		fmt.Printf("resourceVersion=%q:\n", rv)
		obj, paginated, err := p.List(ctx, api.ListOptions{ResourceVersion: rv})
		if err != nil {
			panic(err)
		}
		l := obj.(*api.PodList)
		var names []string
		for _, it := range l.Items {
			names = append(names, it.Name)
		}
		fmt.Printf("  paginated=%v rv=%s items=%v\n", paginated, l.ResourceVersion, names)
	}
	// Output:
	// resourceVersion="0":
	//   GET /api/v1/namespaces/demo/pods?limit=2&resourceVersion=0 → 200
	//   paginated=false rv=10 items=[a b c d e late]
	// resourceVersion="":
	//   GET /api/v1/namespaces/demo/pods?limit=2 → 200
	//   GET /api/v1/namespaces/demo/pods?continue=…&limit=2 → 200
	//   GET /api/v1/namespaces/demo/pods?continue=…&limit=2 → 200
	//   paginated=true rv=10 items=[a b c d e late]
	// resourceVersion="9":
	//   GET /api/v1/namespaces/demo/pods?limit=2&resourceVersion=9 → 200
	//   GET /api/v1/namespaces/demo/pods?continue=…&limit=2 → 200
	//   GET /api/v1/namespaces/demo/pods?continue=…&limit=2 → 200
	//   paginated=true rv=9 items=[a b c d e]
}

// Example_watchExpired shows an ERROR event decoded into an API error. The watch starts from
// an RV the server has compacted away: the request succeeds (200), the stream carries one
// ERROR event with a 410 Expired Status, then ends (W12). A reflector relists on it.
func Example_watchExpired() {
	srv, c := server(nil)
	defer srv.Close()
	ctx := context.Background()
	pods := c.Resource(podsGVR).Namespace("demo")
	obj, err := pods.List(ctx, api.ListOptions{})
	if err != nil {
		panic(err)
	}
	oldRV := obj.(*api.PodList).ResourceVersion
	for _, n := range []string{"a", "b", "c"} {
		if _, err := srv.Create(ctx, "pods", "demo", newPod(n)); err != nil {
			panic(err)
		}
	}
	srv.CompactAll()

	w, err := pods.Watch(ctx, api.ListOptions{ResourceVersion: oldRV})
	fmt.Println("watch opened:", err == nil)
	ev := <-w.ResultChan()
	err = api.FromObject(ev.Object)
	var st *api.Status
	fmt.Println("event:", ev.Type)
	fmt.Println("error:", err)
	fmt.Println("expired:", api.IsResourceExpired(err), "code:", api.CodeForError(err), "is a Status:", errors.As(err, &st))
	_, open := <-w.ResultChan()
	fmt.Println("stream still open:", open)
	// Output:
	// watch opened: true
	// event: ERROR
	// error: too old resource version: 4 (7)
	// expired: true code: 410 is a Status: true
	// stream still open: false
}

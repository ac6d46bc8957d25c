package ch00_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/rest"
)

// The chapter's lab: one simulated apiserver with namespace demo and two pods, web-1 and
// web-2. Every example starts from the same state, so resourceVersions are the same on every
// run: the server's own namespaces take 1–3, demo is 4, the pods are 5 and 6.

var (
	podsGVR        = api.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploymentsGVR = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgetsGVR     = api.GroupVersionResource{Group: "example.dev", Version: "v1", Resource: "widgets"}
)

// widgetsResource is the chapter's custom resource: what a CustomResourceDefinition for
// kind Widget in group example.dev would register.
var widgetsResource = apiserver.ResourceInfo{
	Group: "example.dev", Version: "v1", Resource: "widgets", Kind: "Widget",
	Namespaced: true, ShortNames: []string{"wd"}, ReturnDeletedObject: true,
}

// startLab runs the server with deployments (apps/v1) served from the start and returns it
// with a Config for it. opts may set a logger.
func startLab(opts apiserver.Options) (*apiserver.Server, *rest.Config) {
	srv := apiserver.New(opts)
	if _, err := srv.Start("127.0.0.1:0"); err != nil {
		panic(err)
	}
	ctx := context.Background()
	must(srv.Create(ctx, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}}))
	for _, name := range []string{"web-1", "web-2"} {
		p := webPod(name)
		p.Labels = map[string]string{"app": "web"}
		must(srv.Create(ctx, "pods", "demo", p))
	}
	return srv, &rest.Config{Host: srv.URL()}
}

// webPod is a pod like the lab's: one container, the least a pod needs to be valid (the
// server answers a pod without spec.containers with 422 Invalid, as kube-apiserver does).
func webPod(name string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}},
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}

// wire prints each request a client sends, and the status it gets: "GET /path?query → 200".
type wire struct{ next http.RoundTripper }

func (w wire) RoundTrip(r *http.Request) (*http.Response, error) {
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.RawQuery
	}
	resp, err := w.next.RoundTrip(r)
	if err != nil {
		fmt.Printf("  %s → %v\n", line, err)
		return nil, err
	}
	fmt.Printf("  %s → %d\n", line, resp.StatusCode)
	return resp, nil
}

// withWire returns a copy of cfg whose requests are printed.
func withWire(cfg *rest.Config) *rest.Config {
	c := *cfg
	c.Transport = wire{http.DefaultTransport.(*http.Transport).Clone()}
	return &c
}

// Timestamps and uids differ on every run; the examples print placeholders.
var (
	uidRE  = regexp.MustCompile(`"uid":"[0-9a-f-]{36}"`)
	timeRE = regexp.MustCompile(`"creationTimestamp":"[0-9TZ:-]+"`)
	// The ServiceAccount admission plugin names each pod's token volume at random.
	tokenVolumeRE = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)
)

func normalise(s string) string {
	s = tokenVolumeRE.ReplaceAllString(s, "kube-api-access-…")
	s = uidRE.ReplaceAllString(s, `"uid":"…"`)
	return strings.TrimSpace(timeRE.ReplaceAllString(s, `"creationTimestamp":"…"`))
}

// instantClock makes the client's Retry-After waits fire at once, so the retry example runs
// without waiting real seconds (Config.Clock is the seam client-go lacks).
type instantClock struct{ clock.RealClock }

type firedTimer struct{ c chan time.Time }

func (f firedTimer) C() <-chan time.Time      { return f.c }
func (f firedTimer) Stop() bool               { return false }
func (f firedTimer) Reset(time.Duration) bool { return false }

func (instantClock) NewTimer(time.Duration) clock.Timer {
	c := make(chan time.Time, 1)
	c <- time.Now()
	return firedTimer{c}
}

func namespace(name string) *api.Namespace {
	return &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}
}

package ch00_test

import (
	"context"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/kubernetes"
)

// Example_statusSubresource: a pod has two writers, the user (spec) and the kubelet (status),
// and two URLs, one each. Update (PUT …/web-1) keeps the stored status whatever the body
// says; UpdateStatus (PUT …/web-1/status) changes only the status. generation counts spec
// changes only, so a controller can tell "the user asked for something new" from "someone
// reported progress" (observedGeneration).
func Example_statusSubresource() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	pods := must(kubernetes.NewForConfig(withWire(cfg))).CoreV1().Pods("demo")
	show := func(what string, p *api.Pod) {
		fmt.Printf("%-32s phase=%-7s image=%s generation=%d rv=%s\n", what, p.Status.Phase, p.Spec.Containers[0].Image, p.Generation, p.ResourceVersion)
	}
	p := must(pods.Get(ctx, "web-1", api.GetOptions{}))
	show("read:", p)

	p.Status.Phase = api.PodRunning
	p = must(pods.Update(ctx, p, api.UpdateOptions{}))
	show("Update with phase=Running:", p)

	p.Status.Phase = api.PodRunning
	p.Spec.Containers[0].Image = "nginx:1.28"
	p = must(pods.UpdateStatus(ctx, p, api.UpdateOptions{}))
	show("UpdateStatus with a new image:", p)

	p.Spec.Containers[0].Image = "nginx:1.28"
	p = must(pods.Update(ctx, p, api.UpdateOptions{}))
	show("Update with the new image:", p)
	// Output:
	//   GET /api/v1/namespaces/demo/pods/web-1 → 200
	// read:                            phase=Pending image=nginx:1.27 generation=1 rv=5
	//   PUT /api/v1/namespaces/demo/pods/web-1 → 200
	// Update with phase=Running:       phase=Pending image=nginx:1.27 generation=1 rv=5
	//   PUT /api/v1/namespaces/demo/pods/web-1/status → 200
	// UpdateStatus with a new image:   phase=Running image=nginx:1.27 generation=1 rv=7
	//   PUT /api/v1/namespaces/demo/pods/web-1 → 200
	// Update with the new image:       phase=Running image=nginx:1.28 generation=2 rv=8
}

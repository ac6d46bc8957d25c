package clientgo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestInterop_InformersSyncOnEveryKind: stock client-go discovers the simulator's resources
// and a shared informer syncs on every one that can be listed and watched: a typed informer
// from client-go's own factory (protobuf) where client-go has one for the resource, and a
// dynamic one (JSON) for every resource.
func TestInterop_InformersSyncOnEveryKind(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cfg := wiretest.RESTConfig(env.URL)
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	require.NoError(t, err)
	lists, err := dc.ServerPreferredResources()
	require.NoError(t, err)
	var gvrs []schema.GroupVersionResource
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		require.NoError(t, err)
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !hasVerbs(r.Verbs, "list", "watch") {
				continue
			}
			gvrs = append(gvrs, gv.WithResource(r.Name))
		}
	}
	// 59 of the 67 resource types can be listed and watched: all but the six reviews,
	// bindings and componentstatuses; each is listed once, at its preferred version.
	require.Len(t, gvrs, 59)

	cs := env.Clientset(t)
	typed := informers.NewSharedInformerFactory(cs, 0)
	dyn, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	dynamicF := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0)
	var infs []cache.SharedIndexInformer
	names := map[cache.SharedIndexInformer]string{}
	var untyped []string
	for _, gvr := range gvrs {
		if gi, err := typed.ForResource(gvr); err == nil {
			infs = append(infs, gi.Informer())
			names[gi.Informer()] = "typed " + gvr.String()
		} else {
			untyped = append(untyped, gvr.GroupResource().String())
		}
		di := dynamicF.ForResource(gvr).Informer()
		infs = append(infs, di)
		names[di] = "dynamic " + gvr.String()
	}
	ctx, cancel := context.WithCancel(context.Background())
	typed.Start(ctx.Done())
	dynamicF.Start(ctx.Done())
	t.Cleanup(func() {
		cancel()
		typed.Shutdown()
		dynamicF.Shutdown()
	})
	for _, inf := range infs {
		waitSynced(t, inf)
	}
	// Their typed clients live in their own modules (kube-aggregator, apiextensions-apiserver),
	// not in client-go's factory; the dynamic informers cover them.
	assert.ElementsMatch(t, []string{"apiservices.apiregistration.k8s.io", "customresourcedefinitions.apiextensions.k8s.io"}, untyped)
	// The namespaces exist in both views.
	for inf, name := range names {
		if strings.HasSuffix(name, "/v1, Resource=namespaces") {
			assert.NotEmpty(t, inf.GetStore().List(), name)
		}
	}
}

func hasVerbs(verbs []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, v := range verbs {
			found = found || v == w
		}
		if !found {
			return false
		}
	}
	return true
}

package controllerruntime_test

import (
	"context"
	"os"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/informer-lab/informer-lab/apiserver"
	cr "github.com/informer-lab/informer-lab/interop/controllerruntime"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// TestMain fails the package if any goroutine outlives the tests: managers, caches, queues,
// leader electors and the simulated apiserver must all have stopped. controller-runtime's own
// logs are discarded (its delegating logger would otherwise complain that none was set), and
// so are client-go's: a stopped manager's event broadcaster reports, after the test, the
// leader election event it could not write to a server that has gone.
func TestMain(m *testing.M) {
	log.SetLogger(logr.Discard())
	klog.SetLogger(logr.Discard())
	goleak.VerifyTestMain(m)
}

// waitTimeout bounds every wait; a healthy run needs a small fraction of it.
const waitTimeout = 15 * time.Second

// waitFor polls cond until it holds, failing the test after waitTimeout.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 10*time.Millisecond, waitTimeout, true,
		func(context.Context) (bool, error) { return cond(), nil })
	require.NoError(t, err, "waiting for %s", what)
}

// scheme knows the built-in kinds, CustomResourceDefinition and the hand-written Foo.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, cr.AddToScheme} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// crdFile is chapter 13's Foo CRD, read as kubectl apply -f would read it.
const crdFile = "../../chapters/13-custom-resources/testdata/crd.yaml"

// cluster is one simulated apiserver, over loopback HTTP behind a request recorder, serving
// chapter 13's Foo CRD. Direct is a client without a cache, what a user (or kubectl) writes
// with.
type cluster struct {
	env    *wiretest.Env
	cfg    *rest.Config
	direct client.Client
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	env := wiretest.Start(t, apiserver.Options{})
	cfg := wiretest.RESTConfig(env.URL)
	direct, err := client.New(cfg, client.Options{Scheme: scheme})
	require.NoError(t, err)

	data, err := os.ReadFile(crdFile)
	require.NoError(t, err)
	crd := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, yaml.Unmarshal(data, crd))
	ctx := context.Background()
	require.NoError(t, direct.Create(ctx, crd))
	waitFor(t, "the Foo CRD to be Established", func() bool {
		got := &apiextensionsv1.CustomResourceDefinition{}
		if direct.Get(ctx, client.ObjectKeyFromObject(crd), got) != nil {
			return false
		}
		return slices.ContainsFunc(got.Status.Conditions, func(c apiextensionsv1.CustomResourceDefinitionCondition) bool {
			return c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue
		})
	})
	return &cluster{env: env, cfg: cfg, direct: direct}
}

// newFoo is a Foo in default asking for Deployment deployment with replicas (0: unset).
func newFoo(name, deployment string, replicas int32) *cr.Foo {
	foo := &cr.Foo{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
		Spec:       cr.FooSpec{DeploymentName: deployment},
	}
	if replicas > 0 {
		foo.Spec.Replicas = ptr.To(replicas)
	}
	return foo
}

// call is one Reconcile as FooReconciler.Observe reports it.
type call struct {
	Req    reconcile.Request
	Result string
	Err    error
}

// calls records the reconciles of one controller.
type calls struct {
	mu   sync.Mutex
	list []call
}

func (c *calls) observe(req reconcile.Request, result string, err error) {
	c.mu.Lock()
	c.list = append(c.list, call{Req: req, Result: result, Err: err})
	c.mu.Unlock()
}

// all returns every call so far, oldest first.
func (c *calls) all() []call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.list)
}

// of returns the calls for the Foo default/name.
func (c *calls) of(name string) []call {
	var out []call
	for _, x := range c.all() {
		if x.Req.Namespace == "default" && x.Req.Name == name {
			out = append(out, x)
		}
	}
	return out
}

// count counts the calls for default/name that ended with result.
func (c *calls) count(name, result string) int {
	n := 0
	for _, x := range c.of(name) {
		if x.Result == result {
			n++
		}
	}
	return n
}

// running is a manager running FooReconciler as controller name.
type running struct {
	mgr   manager.Manager
	ctrl  controller.Controller
	calls *calls
	stop  func() error // cancels the manager and waits for Start to return
}

// managerOptions are the options every test's manager starts from: no metrics or health
// listener (the tests read the metrics registry directly), the test's own controller names
// (metrics are process-global, so names are not reused), logs discarded.
func managerOptions() manager.Options {
	return manager.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
		Logger:                 logr.Discard(),
	}
}

// startController starts a manager with opts (managerOptions() when nil) running
// FooReconciler as controller name, and waits for its cache to sync. It is stopped when the
// test ends, before the server.
func (cl *cluster) startController(t *testing.T, name string, copts controller.Options, mopts *manager.Options, preds ...predicate.Predicate) *running {
	t.Helper()
	opts := managerOptions()
	if mopts != nil {
		opts = *mopts
	}
	mgr, err := manager.New(cl.cfg, opts)
	require.NoError(t, err)
	rec := &calls{}
	r := &cr.FooReconciler{Client: mgr.GetClient(), Observe: rec.observe}
	ctl, err := r.SetupWithManager(mgr, name, copts, preds...)
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	var once sync.Once
	var stopErr error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(waitTimeout):
				stopErr = context.DeadlineExceeded
			}
		})
		return stopErr
	}
	t.Cleanup(func() { require.NoError(t, stop(), "the manager stops cleanly") })

	syncCtx, syncCancel := context.WithTimeout(context.Background(), waitTimeout)
	defer syncCancel()
	// The controller asks the cache for its informers when it starts; asking first makes this
	// wait cover them (GetInformer blocks until the informer has synced).
	for _, obj := range []client.Object{&cr.Foo{}, &appsv1.Deployment{}} {
		_, err := mgr.GetCache().GetInformer(syncCtx, obj)
		require.NoError(t, err)
	}
	return &running{mgr: mgr, ctrl: ctl, calls: rec, stop: stop}
}

// waitApplied waits until the controller has applied Foo default/name at least n times.
func (r *running) waitApplied(t *testing.T, name string, n int) {
	t.Helper()
	waitFor(t, "Foo "+name+" applied", func() bool { return r.calls.count(name, cr.ResultApplied) >= n })
}

// queue returns the controller's workqueue: controller-runtime keeps it in the exported
// field Queue of its internal Controller, set by Start. Read it only after a reconcile has
// been observed (Start sets it before it starts the workers).
func (r *running) queue(t *testing.T) priorityqueue.PriorityQueue[reconcile.Request] {
	t.Helper()
	v := reflect.ValueOf(r.ctrl).Elem().FieldByName("Queue")
	require.True(t, v.IsValid(), "controller-runtime's Controller has a Queue field")
	q, ok := v.Interface().(priorityqueue.PriorityQueue[reconcile.Request])
	require.True(t, ok, "Queue is a %s", v.Type())
	return q
}

// get reads default/name from the server, bypassing every cache.
func (cl *cluster) get(t *testing.T, name string, obj client.Object) error {
	t.Helper()
	return cl.direct.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: name}, obj)
}

// exists reports whether default/name exists on the server.
func (cl *cluster) exists(t *testing.T, name string, obj client.Object) bool {
	t.Helper()
	err := cl.get(t, name, obj)
	if err != nil && !apierrors.IsNotFound(err) {
		require.NoError(t, err)
	}
	return err == nil
}

// requests counts the recorded requests with verb (get, list, watch, ...) on resource
// ("configmaps", "deployments.apps").
func (cl *cluster) requests(resource, verb string) int {
	return len(cl.env.Recorder.Matching(func(r wiretest.Request) bool {
		return r.Resource() == resource && r.Verb() == verb
	}))
}

// corePodTemplate is a one-container pod template labelled app=app.
func corePodTemplate(app string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: app, Image: "nginx:latest"}}},
	}
}

// counter reads the value of the counter or gauge name whose labels include labels from
// controller-runtime's metrics registry, the one its /metrics endpoint serves; 0 when there
// is none yet. The registry is the process's, so a test compares values before and after
// (go test -count=2 runs a test twice with the same controller names).
func counter(t *testing.T, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := crmetrics.Registry.Gather()
	require.NoError(t, err)
	for _, mf := range families {
		if mf.GetName() != name {
			continue
		}
	metrics:
		for _, m := range mf.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue metrics
				}
			}
			if m.GetCounter() != nil {
				return m.GetCounter().GetValue()
			}
			return m.GetGauge().GetValue()
		}
	}
	return 0
}

package controllerruntime_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	cr "github.com/informer-lab/informer-lab/interop/controllerruntime"
)

// TestCh15_MetricsForFree: nothing in FooReconciler counts anything, yet the manager's
// metrics registry (what its /metrics endpoint serves) has the controller's reconciles by
// result, its errors, its workers, and its queue's adds, labelled with the controller's name.
// Chapter 13's controller would need each of them written by hand.
func TestCh15_MetricsForFree(t *testing.T) {
	cl := startCluster(t)
	const name = "ch15-metrics"
	ctrl := map[string]string{"controller": name}
	success := map[string]string{"controller": name, "result": "success"}
	queue := map[string]string{"name": name}
	read := func() [4]float64 {
		return [4]float64{
			counter(t, "controller_runtime_reconcile_total", success),
			counter(t, "controller_runtime_reconcile_errors_total", ctrl),
			counter(t, "controller_runtime_terminal_reconcile_errors_total", ctrl),
			counter(t, "workqueue_adds_total", queue),
		}
	}
	before := read()
	run := cl.startController(t, name, controller.Options{MaxConcurrentReconciles: 2}, nil)
	require.NoError(t, cl.direct.Create(context.Background(), newFoo("counted", "counted", 1)))
	require.NoError(t, cl.direct.Create(context.Background(), newFoo("nameless", "", 1)))
	run.waitApplied(t, "counted", 1)
	waitFor(t, "the invalid Foo's reconcile", func() bool { return run.calls.count("nameless", cr.ResultInvalid) == 1 })

	// The controller counts a reconcile after it has returned, so wait for the counts.
	var after [4]float64
	waitFor(t, "the counts", func() bool {
		after = read()
		return after[0] > before[0] && after[1] > before[1] && after[2] > before[2] && after[3]-before[3] >= 2
	})
	assert.Equal(t, float64(1), after[1]-before[1], "reconcile errors")
	assert.Equal(t, float64(1), after[2]-before[2], "terminal errors")
	assert.Equal(t, float64(2), counter(t, "controller_runtime_max_concurrent_reconciles", ctrl), "a gauge")
}

// TestCh15_LeaderElection: two managers of the same controller, one Lease. The first takes
// it (its Elected channel closes) and runs the controller; the second syncs its cache but
// runs no controller while it waits. When the first stops it releases the Lease, and the
// second takes over and reconciles the Foo it has only watched so far. Chapter 13 (and
// sample-controller) would run both at once, each writing the same Deployment.
func TestCh15_LeaderElection(t *testing.T) {
	cl := startCluster(t)
	leaderOptions := func() *manager.Options {
		o := managerOptions()
		o.LeaderElection = true
		o.LeaderElectionID = "ch15-foo-controller"
		o.LeaderElectionNamespace = "default"
		o.LeaderElectionReleaseOnCancel = true
		// The waiting manager retries every 100 ms instead of every 2 s, so it takes over
		// within a tenth of a second of the release; the lease lasts 15 s and is renewed
		// within 10 s, the defaults, so a slow machine does not lose it.
		o.RetryPeriod = ptr.To(100 * time.Millisecond)
		return &o
	}
	first := cl.startController(t, "ch15-leader-1", controller.Options{}, leaderOptions())
	waitFor(t, "the first manager to be elected", func() bool { return isClosed(first.mgr.Elected()) })
	second := cl.startController(t, "ch15-leader-2", controller.Options{}, leaderOptions())

	require.NoError(t, cl.direct.Create(context.Background(), newFoo("led", "led", 1)))
	first.waitApplied(t, "led", 1)
	lease := &coordinationv1.Lease{}
	require.NoError(t, cl.get(t, "ch15-foo-controller", lease))
	holder := ptr.Deref(lease.Spec.HolderIdentity, "")
	assert.NotEmpty(t, holder)
	assert.False(t, isClosed(second.mgr.Elected()), "the second manager waits")
	assert.Empty(t, second.calls.all(), "and its controller does not run")

	require.NoError(t, first.stop())
	waitFor(t, "the second manager to take over", func() bool { return isClosed(second.mgr.Elected()) })
	second.waitApplied(t, "led", 1)
	require.NoError(t, cl.get(t, "ch15-foo-controller", lease))
	assert.NotEqual(t, holder, ptr.Deref(lease.Spec.HolderIdentity, ""), "the Lease changed hands")
	assert.True(t, strings.Contains(ptr.Deref(lease.Spec.HolderIdentity, ""), "_"), "hostname_uuid, as the manager names itself")
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestCh15_GracefulShutdown: cancelling the manager's context cancels the context every
// running Reconcile was given, and Start returns only once each has returned (within
// GracefulShutdownTimeout, 30 s by default), as chapter 13's Run returns only after its
// workers have exited. A Reconcile that honours its context ends the shutdown at once.
func TestCh15_GracefulShutdown(t *testing.T) {
	cl := startCluster(t)
	mgr, err := manager.New(cl.cfg, managerOptions())
	require.NoError(t, err)
	started := make(chan struct{})
	var returned atomic.Bool
	err = builder.ControllerManagedBy(mgr).Named("ch15-shutdown").For(&cr.Foo{}).
		Complete(reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			close(started)
			<-ctx.Done() // a long reconcile that honours its context
			returned.Store(true)
			return reconcile.Result{}, ctx.Err()
		}))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()

	require.NoError(t, cl.direct.Create(context.Background(), newFoo("slow", "slow", 1)))
	select {
	case <-started:
	case <-time.After(waitTimeout):
		t.Fatal("the reconcile never started")
	}
	assert.False(t, returned.Load())
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(waitTimeout):
		t.Fatal("the manager did not stop")
	}
	assert.True(t, returned.Load(), "Start returned after the running Reconcile")
}

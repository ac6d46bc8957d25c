package ch10_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	ch10 "github.com/informer-lab/informer-lab/chapters/10-controller"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/rest"
)

// TestCh10_OneObjectJourney follows one pod through the controller: its create is synced and
// the status written; the status write comes back through the informer and is synced once
// more, finding nothing to do; an image change is synced; the delete stops the pod.
func TestCh10_OneObjectJourney(t *testing.T) {
	for _, profile := range profiles {
		t.Run(profile.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := startInProcess(t, profile)

				created := h.create(t, "web", "web:v1")
				for range 2 {
					key, err := h.steps.step(t)
					require.Equal(t, "default/web", key)
					require.NoError(t, err)
				}
				h.steps.idle(t)
				assert.Equal(t, "running web:v1", h.readyMessage(t, "web"))
				assert.Equal(t, api.PodRunning, h.getPod(t, "web").Status.Phase)
				assert.Equal(t, map[string]string{"default/web": "web:v1"}, h.ctrl.Running())

				updated := h.setImage(t, "web", "web:v2")
				for range 2 {
					_, err := h.steps.step(t)
					require.NoError(t, err)
				}
				h.steps.idle(t)
				assert.Equal(t, "running web:v2", h.readyMessage(t, "web"))

				_, err := h.srv.Delete(context.Background(), "pods", "default", "web", nil)
				require.NoError(t, err)
				_, err = h.steps.step(t)
				require.NoError(t, err)
				h.steps.idle(t)
				assert.Empty(t, h.ctrl.Running())

				// Each write of the controller (rv+1 after the create and after the update)
				// comes back as OnUpdate and costs one sync that finds the status up to date.
				assert.Equal(t, []string{
					"default/web@" + created + " update-status web:v1",
					"default/web@" + rvAfter(t, created, 1) + " up-to-date web:v1",
					"default/web@" + updated + " update-status web:v2",
					"default/web@" + rvAfter(t, updated, 1) + " up-to-date web:v2",
					"default/web@ stopped",
				}, h.rec.syncs())
				assert.Equal(t, []string{
					"OnAdd default/web@" + created,
					"OnUpdate default/web@" + rvAfter(t, created, 1),
					"OnUpdate default/web@" + updated,
					"OnUpdate default/web@" + rvAfter(t, updated, 1),
					"OnDelete default/web@" + rvAfter(t, updated, 2),
				}, h.rec.enqueues())
				assert.Zero(t, h.queue.Len())
				assert.Empty(t, h.errors())
			})
		})
	}
}

// TestCh10_T17_LevelTriggered: a worker is busy with a pod while 100 updates of its image
// land. The handler enqueues the key 100 times, but the workqueue holds it once (dirty while
// processing), and every sync reads the lister, not the event: the busy sync and the one
// after it both see the final image. 100 events cost 2 syncs.
func TestCh10_T17_LevelTriggered(t *testing.T) {
	for _, profile := range profiles {
		t.Run(profile.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := startInProcess(t, profile)
				h.create(t, "web", "web:v0")
				for range 2 {
					_, err := h.steps.step(t)
					require.NoError(t, err)
				}
				h.steps.idle(t)
				h.rec.reset()

				// Update 1 reaches the worker, which stops just before reading the lister
				// (the stepper holds it); updates 2 … 100 arrive while it is busy.
				var last string
				for i := 1; i <= 100; i++ {
					last = h.setImage(t, "web", "web:v"+strconv.Itoa(i))
				}
				synctest.Wait() // all 100 events have been handled by the informer and the handler

				require.Len(t, h.rec.enqueues(), 100, "the handler enqueued every event")
				for range 2 {
					key, err := h.steps.step(t)
					require.Equal(t, "default/web", key)
					require.NoError(t, err)
				}
				h.steps.idle(t)

				syncs := h.rec.syncs()
				t.Logf("100 updates → %d enqueues → %d syncs:%s", len(h.rec.enqueues())-1, len(syncs), joinLines(syncs))
				assert.Equal(t, []string{
					"default/web@" + last + " update-status web:v100",
					"default/web@" + rvAfter(t, last, 1) + " up-to-date web:v100",
				}, syncs, "every sync read the final state")
				assert.Less(t, len(syncs), 100)
				assert.Equal(t, "running web:v100", h.readyMessage(t, "web"))
				assert.Len(t, h.rec.enqueues(), 101, "100 updates and the controller's own write")
			})
		})
	}
}

// TestCh10_T4_TombstoneDelete (T4 seen from the controller): the server loses the delete event
// of pod b, so the controller keeps "running" b. A watch reset with a compacted history forces
// a relist, which no longer lists b: the informer hands OnDelete a DeletedFinalStateUnknown
// carrying b's last known state, the tombstone-safe key function turns it into "default/b",
// and the sync, finding b gone from the lister, stops it (INV-19).
func TestCh10_T4_TombstoneDelete(t *testing.T) {
	for _, profile := range profiles {
		t.Run(profile.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := startInProcess(t, profile)
				h.create(t, "a", "a:v1")
				h.create(t, "b", "b:v1")
				for range 4 { // two creates, two status writes
					_, err := h.steps.step(t)
					require.NoError(t, err)
				}
				h.steps.idle(t)
				lastA := h.getPod(t, "a").ResourceVersion
				lastB := h.getPod(t, "b").ResourceVersion
				require.Equal(t, map[string]string{"default/a": "a:v1", "default/b": "b:v1"}, h.ctrl.Running())
				h.rec.reset()

				h.srv.DropNextEvents(apiserver.DropRule{Count: 1, Key: "default/b", Type: watch.Deleted})
				_, err := h.srv.Delete(context.Background(), "pods", "default", "b", nil)
				require.NoError(t, err)
				h.steps.idle(t)
				assert.Contains(t, h.ctrl.Running(), "default/b", "the lost delete leaves b running")

				// The reflector re-watches from its last RV, which the compaction has made
				// too old: 410 Expired, then a relist (after its backoff, in virtual time).
				h.srv.CloseAllWatches()
				h.srv.CompactAll()
				var keys []string
				for range 2 {
					key, err := h.steps.step(t)
					require.NoError(t, err)
					keys = append(keys, key)
				}
				h.steps.idle(t)

				// The relist also hands the unchanged pod a to OnUpdate (same RV on both
				// sides). With the factory's resync at 0 the listener is never asked whether
				// it wants resyncs, so it keeps the "syncing" flag addListener gives every
				// listener and receives same-RV updates (client-go does the same). The
				// level-triggered sync shrugs: a is up to date. DeltaFIFO queues the tombstone
				// after the listed objects; the atomic RealFIFO delivers deletions first (T23).
				tomb := "OnDelete default/b@" + lastB + " tombstone"
				updA := "OnUpdate default/a@" + lastA
				syncB := "default/b@ stopped"
				syncA := "default/a@" + lastA + " up-to-date a:v1"
				if profile == informer.ProfileClassic {
					assert.Equal(t, []string{"default/a", "default/b"}, keys)
					assert.Equal(t, []string{updA, tomb}, h.rec.enqueues())
					assert.Equal(t, []string{syncA, syncB}, h.rec.syncs())
				} else {
					assert.Equal(t, []string{"default/b", "default/a"}, keys)
					assert.Equal(t, []string{tomb, updA}, h.rec.enqueues())
					assert.Equal(t, []string{syncB, syncA}, h.rec.syncs())
				}
				assert.Equal(t, map[string]string{"default/a": "a:v1"}, h.ctrl.Running())
				assert.Empty(t, h.errors())
			})
		})
	}
}

// TestCh10_T19_RetryTwiceThenSucceed: the status write fails twice (500 from the server), then
// succeeds. handleErr requeues with AddRateLimited, and the default controller limiter waits
// 5 ms, then 10 ms (WQ-30, WQ-32). Success Forgets the key.
func TestCh10_T19_RetryTwiceThenSucceed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startInProcess(t, 0)
		h.srv.FailNext(apiserver.FailRule{Verb: "update", Resource: "pods", Count: 2, Code: http.StatusInternalServerError})
		h.create(t, "web", "web:v1")

		var errs []error
		for range 4 { // fail, fail, write, own write
			key, err := h.steps.step(t)
			require.Equal(t, "default/web", key)
			errs = append(errs, err)
		}
		h.steps.idle(t)

		require.Len(t, errs, 4)
		assert.True(t, api.IsInternalError(errs[0]), "first sync: %v", errs[0])
		assert.True(t, api.IsInternalError(errs[1]), "second sync: %v", errs[1])
		assert.NoError(t, errs[2])
		assert.NoError(t, errs[3])

		at := h.steps.times
		delays := []time.Duration{at[1].Sub(at[0]), at[2].Sub(at[1])}
		t.Logf("sync 1 failed; retry after %v; sync 2 failed; retry after %v; sync 3 wrote the status", delays[0], delays[1])
		assert.Equal(t, []time.Duration{5 * time.Millisecond, 10 * time.Millisecond}, delays)

		var requeues, queued []string
		for _, hp := range h.rec.find("controller", "retry") {
			requeues = append(requeues, hp.Attrs["requeues"])
		}
		for _, hp := range h.rec.find("workqueue", "requeue") {
			queued = append(queued, hp.Attrs["delay"])
		}
		assert.Equal(t, []string{"0", "1"}, requeues, "NumRequeues at each failure")
		assert.Equal(t, []string{"5ms", "10ms"}, queued, "the delays AddRateLimited asked for")
		assert.Zero(t, h.queue.NumRequeues("default/web"), "success Forgets the key")
		assert.Equal(t, "running web:v1", h.readyMessage(t, "web"))
		assert.Empty(t, h.errors())
	})
}

// TestCh10_T19_GiveUpAfterMaxRetries (handleErr of client-go's workqueue example, block 5.13): a status write that always fails is
// tried once and retried MaxRetries (5) times, 5 ms to 80 ms apart (WQ-30); then handleErr
// Forgets the key and reports the error, and nothing more happens for the pod until its next
// event.
func TestCh10_T19_GiveUpAfterMaxRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startInProcess(t, 0)
		h.srv.FailNext(apiserver.FailRule{Verb: "update", Resource: "pods", Count: 1000, Code: http.StatusInternalServerError})
		h.create(t, "web", "web:v1")

		for i := range 6 {
			_, err := h.steps.step(t)
			require.Error(t, err, "sync %d", i+1)
		}
		select {
		case key := <-h.steps.before:
			t.Fatalf("sync of %s after the controller gave up", key)
		case <-time.After(time.Hour): // virtual: an hour passes without a retry
		}

		at := h.steps.times
		var delays []time.Duration
		for i := 1; i < len(at); i++ {
			delays = append(delays, at[i].Sub(at[i-1]))
		}
		assert.Equal(t, []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
			40 * time.Millisecond, 80 * time.Millisecond}, delays)
		require.Len(t, h.errors(), 1)
		reported := h.errors()[0]
		assert.True(t, api.IsInternalError(errors.Unwrap(reported)), "the cause is kept: %v", reported)
		assert.Contains(t, reported.Error(), `dropping pod "default/web" out of the queue`)
		assert.Len(t, h.rec.find("controller", "drop"), 1)
		assert.Zero(t, h.queue.NumRequeues("default/web"), "the key was forgotten")
		assert.Zero(t, h.queue.Len())

		// The next event starts afresh and, with the server healthy again, succeeds.
		h.srv.ClearFaults()
		h.setImage(t, "web", "web:v2")
		_, err := h.steps.step(t)
		require.NoError(t, err)
		assert.Equal(t, "running web:v2", h.readyMessage(t, "web"))
	})
}

// TestCh10_BadInput: misuse gets a clear error, never a panic.
func TestCh10_BadInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startInProcess(t, 0)
		factory := informer.NewSharedInformerFactory(inProcessSource(h.srv), 0)
		pods := factory.Core().V1().Pods()

		_, err := ch10.NewController(nil, pods, ch10.Options{})
		assert.ErrorContains(t, err, "needs a PodClient")
		_, err = ch10.NewController(inProcessPods(h.srv), nil, ch10.Options{})
		assert.ErrorContains(t, err, "needs a PodClient and a PodInformer")

		var reported []error
		c, err := ch10.NewController(inProcessPods(h.srv), pods, ch10.Options{ErrorHandler: func(err error) { reported = append(reported, err) }})
		require.NoError(t, err)
		assert.ErrorContains(t, c.Run(context.Background(), 0), "at least one worker")
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		assert.ErrorContains(t, c.Run(cancelled, 1), "failed to wait for caches to sync",
			"the informer never started, so the cache never syncs")

		// A key with two slashes cannot name a pod: reported once, not retried.
		assert.NoError(t, c.SyncHandler(context.Background(), "a/b/c"))
		require.Len(t, reported, 1)
		assert.ErrorContains(t, reported[0], "invalid resource key: a/b/c")

		// The REST client refuses a nil pod.
		rc, err := rest.RESTClientFor(&rest.Config{Host: "http://127.0.0.1:1"})
		require.NoError(t, err)
		_, err = ch10.NewRESTPodClient(rc).UpdateStatus(context.Background(), nil)
		assert.ErrorContains(t, err, "nil pod")
	})
}

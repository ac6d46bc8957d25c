package informer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/store"
)

// TestCh08_Property_EndStateAPIServer is the invariant suite of docs/behaviour/client-go.md §12.1/§12.2 against the
// simulated apiserver itself (its in-process ListerWatcher, inside a synctest bubble, so the
// server's bookmarks and watch timeouts run in virtual time). Random creates, updates (moving
// the indexed "group" label) and deletes run while the fault API drops events, compacts the
// history, closes watches, cuts watches short and fails re-watches with 500 or with a 410
// ERROR event. Two handlers listen from the start (one with a resync period) and one joins
// half-way. After quiescence (faults cleared, a 410 that forces a relist, everything drained):
//
//	INV-1 the cache equals the server; INV-2 the index equals a recomputation;
//	INV-3 each handler's last notification per key matches the server's final object;
//	INV-4 everything reports synced and the informer's RV is the server's;
//	INV-5 every listener's buffer is empty;
//
// and, all along, each handler's stream obeys INV-6/INV-7, except the ghost deletes RealFIFO
// delivers when a dropped create is followed by a delete (INV-6's exception).
//
// It runs -informer.seeds seeds (20 by default) per profile, starting at -informer.seed; a
// longer soak is, for example:
//
//	go test -race -run 'Property_EndState' ./informer/ -informer.seeds=500 -informer.seed=1000
func TestCh08_Property_EndStateAPIServer(t *testing.T) {
	for _, p := range profiles {
		for i := range uint64(*propertySeeds) {
			seed := *propertySeedBase + i
			t.Run(fmt.Sprintf("%s/seed=%d", p, seed), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { apiserverEndStateRun(t, p, seed) })
			})
		}
	}
}

// chaosPod is a pod of namespace default with one container (the server validates pods) and the
// given group label.
func chaosPod(name, group string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"group": group}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
}

// apiserverState returns key → RV of every pod on the server.
func apiserverState(t *testing.T, srv *apiserver.Server) map[string]string {
	t.Helper()
	obj, err := srv.List(context.Background(), "pods", "", api.ListOptions{})
	require.NoError(t, err)
	out := map[string]string{}
	for _, p := range obj.(*api.PodList).Items {
		out[p.Namespace+"/"+p.Name] = p.ResourceVersion
	}
	return out
}

// expireNextWatch makes the next watch open and then end with a 410 ERROR event, and closes
// the current ones: the reflector re-watches, gets 410, and relists (T9).
func expireNextWatch(srv *apiserver.Server) {
	srv.FailNext(apiserver.FailRule{Verb: "watch", Resource: "pods", Count: 1, Code: http.StatusGone, AsWatchEvent: true})
	srv.CloseAllWatches()
}

func apiserverEndStateRun(t *testing.T, p Profile, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0xa915))
	ctx := context.Background()
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	srv := apiserver.New(apiserver.Options{BookmarkPeriod: 5 * time.Second})
	t.Cleanup(srv.Close) // runs after the informer's own cleanup (LIFO)
	exists := map[string]bool{}
	write := func() {
		name := names[rng.IntN(len(names))]
		obj := chaosPod(name, strconv.Itoa(rng.IntN(3)))
		var err error
		switch {
		case !exists[name]:
			_, err = srv.Create(ctx, "pods", "default", obj)
			exists[name] = true
		case rng.IntN(4) == 0:
			_, err = srv.Delete(ctx, "pods", "default", name, nil)
			exists[name] = false
		default: // a relabel of the pod as stored: a pod's update may not drop its spec's admitted fields
			var cur api.Object
			cur, err = srv.Get(ctx, "pods", "default", name)
			require.NoError(t, err)
			p := cur.(*api.Pod)
			p.Labels = obj.Labels
			_, err = srv.Update(ctx, "pods", "default", p)
		}
		require.NoError(t, err)
	}
	for range 4 {
		write()
	}

	inf := NewSharedIndexInformerWithOptions(srv.ListerWatcher("pods", ""), &api.Pod{}, SharedIndexInformerOptions{
		Profile: p, ResyncPeriod: 3 * time.Second, Indexers: store.Indexers{"group": groupIndex}})
	var handlers []*endHandler
	add := func(name string, resync time.Duration) {
		handlers = append(handlers, addEndHandler(t, inf, p, name, resync))
	}
	add("no-resync", 0)
	add("resync-3s", 3*time.Second)
	r := runInBubble(t, inf.RunWithContext)
	defer r.stop()

	for i := range *propertyOps {
		if i == *propertyOps/2 {
			add("late", 0)
		}
		switch op := rng.IntN(100); {
		case op < 70:
			write()
		case op < 78:
			srv.DropNextEvents(apiserver.DropRule{Count: 1 + rng.IntN(3)})
		case op < 81:
			srv.CloseAllWatches()
		case op < 84:
			srv.CompactAll()
			srv.CloseAllWatches()
		case op < 86:
			srv.CloseNextWatches(1)
			srv.CloseAllWatches()
		case op < 88:
			srv.FailNext(apiserver.FailRule{Verb: "watch", Resource: "pods", Count: 1, Code: http.StatusInternalServerError})
			srv.CloseAllWatches()
		case op < 90:
			expireNextWatch(srv)
		default:
			advance(time.Duration(rng.IntN(1500)) * time.Millisecond)
		}
		if rng.IntN(4) == 0 {
			synctest.Wait()
		}
	}

	// Quiescence: no more writes or faults; a 410 forces the relist that repairs whatever was
	// dropped.
	srv.ClearFaults()
	expireNextWatch(srv)
	want := strconv.FormatUint(srv.ResourceVersion(), 10)
	state := apiserverState(t, srv)
	waitUntil(t, "the informer to catch up", func() bool {
		return inf.LastSyncResourceVersion() == want && maps(state, cacheState(inf.GetStore()))
	})
	synctest.Wait()

	counts := srv.RequestCounts()
	t.Logf("%d pods at RV %s after %d LISTs and %d WATCHes; %d notifications to the first handler",
		len(state), want, counts[apiserver.RequestKey{Verb: "list", Resource: "pods"}],
		counts[apiserver.RequestKey{Verb: "watch", Resource: "pods"}], handlers[0].check.count())
	checkEndState(t, inf, handlers, state, want)
}

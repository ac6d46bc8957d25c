package ch05_test

import (
	"fmt"
	"os"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/reflector"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// Example_listAndWatch follows one ListAndWatch cycle into a DeltaFIFO, with both logging
// their hops. The LIST (at RV "0") becomes one Replace, then the watch starts at the list's
// RV and each event becomes one Add, Update or Delete. The bookmark moves the RV and writes
// nothing.
func Example_listAndWatch() {
	src := fakesource.New()
	_, _ = src.Add(newPod("a"))
	_, _ = src.Add(newPod("b"))
	lw := newWatchOpened(src)

	logger := trace.NewPlainLogger(os.Stdout)
	fifo := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true, Logger: logger})
	st := newSignalStore(fifo)
	r := reflector.NewReflectorWithOptions(lw, &api.Pod{}, st, reflector.ReflectorOptions{
		Name: "pods", UseWatchList: off(), Logger: logger,
	})
	rr := run(r)
	<-st.done   // Replace
	<-lw.opened // the watch is open
	step := func(f func()) { f(); <-st.done }
	step(func() { _, _ = src.Add(newPod("c")) })
	step(func() { _, _ = src.Modify(newPod("a")) })
	step(func() { _, _ = src.Delete(newPod("b")) })
	step(src.Bookmark)
	rr.stop()
	fmt.Println("LastSyncResourceVersion:", r.LastSyncResourceVersion())
	// Output:
	// msg="reflector list" component=reflector op=list key="" rv=0
	// msg="reflector replace" component=reflector op=replace key="" rv=2 items=2
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/a rv=1 type=Replaced
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/b rv=2 type=Replaced
	// msg="reflector watch-start" component=reflector op=watch-start key="" rv=2
	// msg="reflector event" component=reflector op=event key=ns/c rv=3 type=ADDED
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/c rv=3 type=Added
	// msg="reflector event" component=reflector op=event key=ns/a rv=4 type=MODIFIED
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/a rv=4 type=Updated
	// msg="reflector event" component=reflector op=event key=ns/b rv=5 type=DELETED
	// msg="fifo enqueue" component=fifo op=enqueue key=ns/b rv=5 type=Deleted
	// msg="reflector bookmark" component=reflector op=bookmark key="" rv=5
	// msg="reflector watch-end" component=reflector op=watch-end key="" rv=5 reason=stopped
	// LastSyncResourceVersion: 5
}

// Example_relistAfter410 shows the resourceVersion bookkeeping on the wire. The first LIST
// asks for RV "0" (any state, paged by 500); the watch starts at the list's RV. When the
// watch ends with 410 Expired, the next cycle relists at the last RV it saw, unpaged, and
// watches from there. When that RV is gone too, it retries at once with "" (with the same
// pager, hence still unpaged).
func Example_relistAfter410() {
	src := fakesource.New()
	_, _ = src.Add(newPod("a"))
	lw := newWatchOpened(src)
	fast := &reflector.Backoff{Duration: time.Millisecond} // no waiting in an example
	r := reflector.NewReflectorWithOptions(lw, &api.Pod{}, newSignalStore(fakeStore{}), reflector.ReflectorOptions{
		Name: "pods", UseWatchList: off(), Backoff: fast,
	})
	rr := run(r)
	<-lw.opened
	_, _ = src.Add(newPod("b")) // the reflector sees RV 2
	src.SendError(fakesource.NewExpired("too old resource version: 2 (5)"))
	<-lw.opened
	src.FailListAt("2", fakesource.NewExpired("The resourceVersion for the provided list is too old."))
	src.SendError(fakesource.NewExpired("too old resource version: 2 (5)"))
	<-lw.opened
	rr.stop()
	fmt.Println(describeCalls(src.Calls()))
	// Output:
	// LIST rv="0" limit=500
	// WATCH rv="1"
	// LIST rv="2" limit=0
	// WATCH rv="2"
	// LIST rv="2" limit=0
	// LIST rv="" limit=0
	// WATCH rv="2"
}

// Example_bookmarks: writes to other resources move the global RV without events for this
// watch; a BOOKMARK tells the reflector, so when the watch times out it resumes at RV 50
// instead of 1. No relist.
func Example_bookmarks() {
	src := fakesource.New()
	_, _ = src.Add(newPod("a"))
	lw := newWatchOpened(src)
	st := newSignalStore(fakeStore{})
	r := reflector.NewReflectorWithOptions(lw, &api.Pod{}, st, reflector.ReflectorOptions{Name: "pods", UseWatchList: off()})
	rr := run(r)
	<-st.done // Replace
	<-lw.opened
	src.AdvanceResourceVersion(49)
	src.Bookmark()
	<-st.done // the store has the Bookmark; the reflector records its RV just after
	// A watch that delivered something may close at any time: the reflector just re-watches.
	src.ResetWatches()
	<-lw.opened // the re-watch is open, so the bookmark's RV is recorded by now
	fmt.Println("after the bookmark:", r.LastSyncResourceVersion())
	rr.stop()
	fmt.Println(describeCalls(src.Calls()))
	// Output:
	// after the bookmark: 50
	// LIST rv="0" limit=500
	// WATCH rv="1"
	// WATCH rv="50"
}

// Example_watchListVsListWatch syncs the same server three ways. Watch-list (the v0.37
// default) streams the state in one WATCH; the classic path LISTs then WATCHes; and a server
// that rejects watch-list makes the reflector fall back to the classic path for that cycle.
func Example_watchListVsListWatch() {
	for _, mode := range []struct {
		name      string
		watchList bool
		reject    bool
	}{
		{"watch-list", true, false},
		{"list+watch", false, false},
		{"watch-list rejected", true, true},
	} {
		src := fakesource.New()
		_, _ = src.Add(newPod("a"))
		_, _ = src.Add(newPod("b"))
		src.SetWatchListUnsupported(mode.reject)
		lw := newWatchOpened(src)
		st := newSignalStore(printStore{})
		r := reflector.NewReflectorWithOptions(lw, &api.Pod{}, st, reflector.ReflectorOptions{Name: "pods", UseWatchList: &mode.watchList})
		fmt.Println("==", mode.name)
		rr := run(r)
		<-st.done
		<-lw.opened
		rr.stop()
		fmt.Println(describeCalls(src.Calls()))
	}
	// Output:
	// == watch-list
	// Replace [ns/a@1 ns/b@2] rv=2
	// WATCH sendInitialEvents=true rv=""
	// == list+watch
	// Replace [ns/a@1 ns/b@2] rv=2
	// LIST rv="0" limit=500
	// WATCH rv="2"
	// == watch-list rejected
	// Replace [ns/a@1 ns/b@2] rv=2
	// WATCH sendInitialEvents=true rv=""
	// LIST rv="0" limit=500
	// WATCH rv="2"
}

// Example_backoffTable prints the reflector's default backoff with the jitter pinned to its
// bounds: each delay lies in [base, 2·base), the base doubles from 0.8 s and stops at 30 s.
// More than 2 minutes after the last reset the sequence starts over (R-3).
func Example_backoffTable() {
	lo, hi := reflector.DefaultBackoff(), reflector.DefaultBackoff()
	lo.Rand = func() float64 { return 0 }
	hi.Rand = func() float64 { return 0.9999 }
	fmt.Println("attempt  shortest  longest")
	for i := 1; i <= 8; i++ {
		fmt.Printf("%7d  %8v  %7v\n", i, lo.Step(), hi.Step().Round(100*time.Millisecond))
	}

	c := &manualClock{now: time.Unix(0, 0)}
	b := reflector.DefaultBackoff()
	b.Rand = func() float64 { return 0 }
	next := b.DelayWithReset(c, 2*time.Minute)
	var seq []time.Duration
	for range 9 { // failing back to back: 0.8+1.6+…+30+30+30 s = 140.4 s
		d := next()
		seq = append(seq, d)
		c.now = c.now.Add(d)
	}
	seq = append(seq, next())
	fmt.Println("back to back:", seq)
	// Output:
	// attempt  shortest  longest
	//       1     800ms     1.6s
	//       2      1.6s     3.2s
	//       3      3.2s     6.4s
	//       4      6.4s    12.8s
	//       5     12.8s    25.6s
	//       6     25.6s    51.2s
	//       7       30s     1m0s
	//       8       30s     1m0s
	// back to back: [800ms 1.6s 3.2s 6.4s 12.8s 25.6s 30s 30s 30s 800ms]
}

// manualClock is a clock whose time moves only when the example says so; the backoff only
// reads Now.
type manualClock struct {
	clock.RealClock
	now time.Time
}

func (m *manualClock) Now() time.Time { return m.now }

// fakeStore accepts everything and keeps nothing.
type fakeStore struct{}

func (fakeStore) Add(any) error               { return nil }
func (fakeStore) Update(any) error            { return nil }
func (fakeStore) Delete(any) error            { return nil }
func (fakeStore) Replace([]any, string) error { return nil }
func (fakeStore) Resync() error               { return nil }

// printStore prints each Replace.
type printStore struct{ fakeStore }

func (printStore) Replace(list []any, rv string) error {
	var names []string
	for _, obj := range list {
		p := obj.(*api.Pod)
		names = append(names, p.Namespace+"/"+p.Name+"@"+p.ResourceVersion)
	}
	fmt.Printf("Replace %v rv=%s\n", names, rv)
	return nil
}

package ch07_test

import (
	"fmt"
	"os"
	"time"

	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// Example_ringGrowing is the spec's verified RingGrowing example: a ring of 4 takes four
// writes, the fifth finds it full and doubles it to 8, and reads come back oldest first.
func Example_ringGrowing() {
	r := processor.NewRingGrowing(4)
	for i := 1; i <= 5; i++ {
		r.WriteOne(fmt.Sprintf("event-%d", i))
		fmt.Printf("write event-%d: len %d cap %d\n", i, r.Len(), r.Cap())
	}
	for {
		v, ok := r.ReadOne()
		if !ok {
			break
		}
		fmt.Printf("read %v: len %d cap %d\n", v, r.Len(), r.Cap())
	}
	// Output:
	// write event-1: len 1 cap 4
	// write event-2: len 2 cap 4
	// write event-3: len 3 cap 4
	// write event-4: len 4 cap 4
	// write event-5: len 5 cap 8
	// read event-1: len 4 cap 8
	// read event-2: len 3 cap 8
	// read event-3: len 2 cap 8
	// read event-4: len 1 cap 8
	// read event-5: len 0 cap 8
}

// Example_followOneEvent traces pod a through the processor: the add of the initial list, an
// update, and a delete that arrives as a tombstone. Each notification is distributed
// (component processor), handed to the listener (add), taken by pop and offered on nextCh
// (pop; pending is what waits in the ring behind it), and delivered by run to the handler. The
// example waits for each handler call before the next Distribute, so the lines of the three
// goroutines come out in one order.
func Example_followOneEvent() {
	log := trace.NewPlainLogger(os.Stdout)
	handled := make(chan struct{})
	h := processor.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, init bool) {
			fmt.Printf("handler: OnAdd %s isInInitialList=%v\n", show(obj), init)
			handled <- struct{}{}
		},
		UpdateFunc: func(o, n any) {
			fmt.Printf("handler: OnUpdate %s -> %s\n", show(o), show(n))
			handled <- struct{}{}
		},
		DeleteFunc: func(obj any) {
			fmt.Printf("handler: OnDelete %s\n", show(obj))
			handled <- struct{}{}
		},
	}
	upstream, informerDone := informerSynced()
	close(informerDone)
	l, err := processor.NewProcessorListener(h, 0, 0, time.Now(), processor.InitialBufferSize, upstream,
		processor.ListenerOptions{Name: "printer", Logger: log})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := processor.NewSharedProcessor(processor.ProcessorOptions{Logger: log})
	p.AddListener(l)
	stop := start(p)
	defer stop()

	a1, a2 := pod("a", "1"), pod("a", "2")
	for _, n := range []any{
		processor.AddNotification{NewObj: a1, IsInInitialList: true},
		processor.UpdateNotification{OldObj: a1, NewObj: a2},
		processor.DeleteNotification{OldObj: store.DeletedFinalStateUnknown{Key: "default/a", Obj: a2}},
	} {
		p.Distribute(n, false)
		<-handled
	}
	// Output:
	// msg="processor distribute" component=processor op=distribute key=default/a rv=1 type=add init=true sync=false listeners=1
	// msg="listener add" component=listener op=add key=default/a rv=1 type=add listener=printer init=true
	// msg="listener pop" component=listener op=pop key=default/a rv=1 type=add listener=printer init=true pending=0
	// msg="listener deliver" component=listener op=deliver key=default/a rv=1 type=add listener=printer init=true
	// handler: OnAdd default/a@1 isInInitialList=true
	// msg="processor distribute" component=processor op=distribute key=default/a rv=2 type=update old_rv=1 sync=false listeners=1
	// msg="listener add" component=listener op=add key=default/a rv=2 type=update listener=printer old_rv=1
	// msg="listener pop" component=listener op=pop key=default/a rv=2 type=update listener=printer old_rv=1 pending=0
	// msg="listener deliver" component=listener op=deliver key=default/a rv=2 type=update listener=printer old_rv=1
	// handler: OnUpdate default/a@1 -> default/a@2
	// msg="processor distribute" component=processor op=distribute key=default/a rv=2 type=delete sync=false listeners=1
	// msg="listener add" component=listener op=add key=default/a rv=2 type=delete listener=printer
	// msg="listener pop" component=listener op=pop key=default/a rv=2 type=delete listener=printer pending=0
	// msg="listener deliver" component=listener op=deliver key=default/a rv=2 type=delete listener=printer
	// handler: OnDelete DFSU(default/a)
}

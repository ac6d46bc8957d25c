package ch08_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/listwatch"
)

// lockedBuffer collects trace lines from several goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the lines that mention key and all of the given substrings.
func (b *lockedBuffer) lines(key string, subs ...string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for l := range strings.SplitSeq(b.buf.String(), "\n") {
		ok := strings.Contains(l, " key="+key+" ")
		for _, s := range subs {
			ok = ok && strings.Contains(l, s)
		}
		if ok {
			out = append(out, l)
		}
	}
	return out
}

// Example_followOneEvent follows one new configmap through a shared informer with two
// handlers, "audit" and "controller": reflector, queue, indexer, then the processor's
// distribute, then each listener's add (Add returns as soon as pop has it), pop (taken from the
// buffer or handed straight to nextCh) and deliver (the handler call). The listeners run on
// their own goroutines, so their lines are printed listener by listener.
func Example_followOneEvent() {
	c := startCluster()
	defer c.stop()
	var buf lockedBuffer
	lw := listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything())
	inf := informer.NewSharedIndexInformerWithOptions(lw, &api.ConfigMap{}, informer.SharedIndexInformerOptions{
		Profile: informer.ProfileClassic, Logger: trace.NewPlainLogger(&buf)})
	audit, ctrl := &recorder{}, &recorder{}
	if _, err := inf.AddEventHandlerWithOptions(audit, informer.HandlerOptions{Name: "audit"}); err != nil {
		panic(err)
	}
	if _, err := inf.AddEventHandlerWithOptions(ctrl, informer.HandlerOptions{Name: "controller"}); err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	informer.WaitForCacheSync(ctx.Done(), inf.HasSynced)

	c.create("configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "demo"}})
	informer.WaitForCacheSync(ctx.Done(), func() bool { return audit.count() == 3 && ctrl.count() == 3 })
	cancel()
	<-done
	for _, component := range []string{"component=reflector", "component=fifo", "component=indexer", "component=processor"} {
		for _, l := range buf.lines("default/demo", component) {
			fmt.Println(l)
		}
	}
	for _, name := range []string{"listener=audit", "listener=controller"} {
		for _, l := range buf.lines("default/demo", name) {
			fmt.Println(l)
		}
	}
	// Output:
	// msg="reflector event" component=reflector op=event key=default/demo rv=9 type=ADDED
	// msg="fifo enqueue" component=fifo op=enqueue key=default/demo rv=9 type=Added
	// msg="fifo pop" component=fifo op=pop key=default/demo rv=9 type=Added
	// msg="indexer add" component=indexer op=add key=default/demo rv=9
	// msg="processor distribute" component=processor op=distribute key=default/demo rv=9 type=add sync=false listeners=2
	// msg="listener add" component=listener op=add key=default/demo rv=9 type=add listener=audit
	// msg="listener pop" component=listener op=pop key=default/demo rv=9 type=add listener=audit pending=0
	// msg="listener deliver" component=listener op=deliver key=default/demo rv=9 type=add listener=audit
	// msg="listener add" component=listener op=add key=default/demo rv=9 type=add listener=controller
	// msg="listener pop" component=listener op=pop key=default/demo rv=9 type=add listener=controller pending=0
	// msg="listener deliver" component=listener op=deliver key=default/demo rv=9 type=add listener=controller
}

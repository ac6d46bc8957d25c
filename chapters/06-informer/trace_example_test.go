package ch06_test

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
	"github.com/informer-lab/informer-lab/processor"
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

// linesFor returns the lines that mention key.
func (b *lockedBuffer) linesFor(key string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for l := range strings.SplitSeq(b.buf.String(), "\n") {
		if strings.Contains(l, " key="+key+" ") {
			out = append(out, l)
		}
	}
	return out
}

// traceOneEvent creates configmap demo while a NewInformer of profile p runs with a trace
// logger, and prints the hops that concern it.
func traceOneEvent(p informer.Profile) {
	c := startCluster()
	defer c.stop()
	var buf lockedBuffer
	added := make(chan struct{}, 1)
	_, controller := informer.NewInformerWithOptions(informer.InformerOptions{
		ListerWatcher: listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything()),
		ObjectType:    &api.ConfigMap{},
		Handler: processor.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			if nameOf(obj) == "demo" {
				added <- struct{}{}
			}
		}},
		Profile: p,
		Logger:  trace.NewPlainLogger(&buf),
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); controller.RunWithContext(ctx) }()
	informer.WaitForCacheSync(ctx.Done(), controller.HasSynced)
	c.createConfigMap("demo")
	<-added
	cancel()
	<-done
	fmt.Println(p.String() + ":")
	for _, l := range buf.linesFor("default/demo") {
		fmt.Println(l)
	}
}

// Example_followOneEvent shows the hops of one new configmap through a NewInformer of the
// articles' profile: the reflector receives the watch event, the queue takes it in and hands
// it out, the indexer stores it, and only then is the handler called, on the same goroutine
// (cache first, then notify). ProfileCurrent prints the same five lines: its PopBatch hands a
// batch of one to the single-item path.
func Example_followOneEvent() {
	traceOneEvent(informer.ProfileClassic)
	// Output:
	// classic:
	// msg="reflector event" component=reflector op=event key=default/demo rv=6 type=ADDED
	// msg="fifo enqueue" component=fifo op=enqueue key=default/demo rv=6 type=Added
	// msg="fifo pop" component=fifo op=pop key=default/demo rv=6 type=Added
	// msg="indexer add" component=indexer op=add key=default/demo rv=6
	// msg="informer handle" component=informer op=handle key=default/demo rv=6 type=add init=false
}

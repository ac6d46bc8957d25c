package ch10_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/apiserver"
	ch10 "github.com/informer-lab/informer-lab/chapters/10-controller"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// steps numbers the hops as the official client-go controller diagram does (README, "The
// idea"): 4 and 5 are one hop here, the informer handing the object to the indexer, which
// stores it under its key; we print 5. The apiserver's writes have no number ("-"): the
// create is the user's kubectl, the update the worker's own work after step 9.
var steps = map[string]string{
	"reflector event":      "1",
	"fifo enqueue":         "2",
	"fifo pop":             "3",
	"indexer add":          "5",
	"indexer update":       "5",
	"processor distribute": "6",
	"listener deliver":     "6",
	"controller enqueue":   "7",
	"workqueue get":        "8",
	"controller sync":      "9",
	"apiserver update":     "-",
	"apiserver create":     "-",
}

// stepPrinter is a slog.Handler that prints the hops of one key that the diagram numbers, one
// line each, with the step number in front. The hops it leaves out (the workqueue's add and
// done, the listener's ring) happen on other goroutines at moments the scheduler picks, so
// their place in the output would change from run to run.
type stepPrinter struct {
	w   io.Writer
	key string
}

func (p stepPrinter) Enabled(context.Context, slog.Level) bool { return true }
func (p stepPrinter) WithAttrs([]slog.Attr) slog.Handler       { return p }
func (p stepPrinter) WithGroup(string) slog.Handler            { return p }

func (p stepPrinter) Handle(_ context.Context, r slog.Record) error {
	h := trace.Decode(trace.Scope{}, r)
	component, op, key, rv := h.Component, h.Op, h.Key, h.RV
	var extra []string
	for _, a := range h.Attrs {
		switch a.Key {
		case "type", "handler", "result", "images":
			extra = append(extra, a.Key+"="+a.Value.String())
		}
	}
	step, ok := steps[component+" "+op]
	if !ok || key != p.key {
		return nil
	}
	if rv != "" {
		extra = append([]string{"rv=" + rv}, extra...)
	}
	line := fmt.Sprintf("%-2s %-10s %-10s %s %s", step, component, op, key, strings.Join(extra, " "))
	_, err := fmt.Fprintln(p.w, strings.TrimRight(line, " "))
	return err
}

// Example_followOnePod follows one pod through the whole pipeline of the classic diagram
// (DeltaFIFO profile): kubectl creates it (rv 4); the reflector's watch receives it (1), the
// DeltaFIFO queues (2) and pops it (3), the indexer stores it (4), the processor hands it to
// the controller's handler (5), which enqueues the key (6); a worker gets the key (7), reads
// the pod from the lister (8) and writes its status (9, rv 5). That write comes back the same
// way, and the second sync finds nothing to do: the controller is at rest.
func Example_followOnePod() {
	logger := slog.New(stepPrinter{w: os.Stdout, key: "default/web"})
	srv := apiserver.New(apiserver.Options{Logger: logger})
	defer srv.Close()

	factory := informer.NewSharedInformerFactoryWithOptions(inProcessSource(srv), 0,
		informer.WithProfile(informer.ProfileClassic), informer.WithLogger(logger))
	pods := factory.Core().V1().Pods()
	ctrl, err := ch10.NewController(inProcessPods(srv), pods, ch10.Options{Logger: logger})
	if err != nil {
		panic(err)
	}
	synced := make(chan string)
	sync := ctrl.SyncHandler
	ctrl.SyncHandler = func(ctx context.Context, key string) error {
		err := sync(ctx, key)
		synced <- key
		return err
	}

	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	done := make(chan error)
	go func() { done <- ctrl.Run(ctx, 1) }()
	informer.WaitForCacheSync(ctx.Done(), pods.Informer().HasSynced)

	if _, err := srv.Create(ctx, "pods", "default", newPod("web", "web:v1")); err != nil {
		panic(err)
	}
	for range 2 {
		select {
		case <-synced:
		case <-time.After(10 * time.Second):
			fmt.Println("timed out")
		}
	}
	cancel()
	<-done
	factory.Shutdown()
	// Output:
	// -  apiserver  create     default/web rv=4
	// 1  reflector  event      default/web rv=4 type=ADDED
	// 2  fifo       enqueue    default/web rv=4 type=Added
	// 3  fifo       pop        default/web rv=4 type=Added
	// 5  indexer    add        default/web rv=4
	// 6  processor  distribute default/web rv=4 type=add
	// 6  listener   deliver    default/web rv=4 type=add
	// 7  controller enqueue    default/web rv=4 handler=OnAdd
	// 8  workqueue  get        default/web
	// 9  controller sync       default/web rv=4 result=update-status images=web:v1
	// -  apiserver  update     default/web rv=5
	// 1  reflector  event      default/web rv=5 type=MODIFIED
	// 2  fifo       enqueue    default/web rv=5 type=Updated
	// 3  fifo       pop        default/web rv=5 type=Updated
	// 5  indexer    update     default/web rv=5
	// 6  processor  distribute default/web rv=5 type=update
	// 6  listener   deliver    default/web rv=5 type=update
	// 7  controller enqueue    default/web rv=5 handler=OnUpdate
	// 8  workqueue  get        default/web
	// 9  controller sync       default/web rv=5 result=up-to-date images=web:v1
}

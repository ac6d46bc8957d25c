// Package testbed assembles the pipeline the demo runs and the lab's harnesses drive: the
// simulated apiserver, one shared pod informer with the caller's handlers, and workqueue
// controllers that run controller.Loop (the loop chapter 10 teaches). The demo (cmd/demo),
// at run time, and the scenario runner (harness/scenario) and the chaos suite
// (harness/chaos), in tests, all build their pipeline with it; it sits under internal/, not
// harness/, because the demo is not a test. It has no client-go counterpart: it is the wiring
// a client-go program writes in main.
//
// The contract:
//
//  1. New starts the server with Options.Server (its Logger defaulting to Options.Logger),
//     creates Options.Namespaces, and with Options.Listen also serves HTTP and connects a REST
//     client (Testbed.URL, Testbed.REST). Without Listen nothing touches the network, so a
//     testbed runs inside a testing/synctest bubble in virtual time.
//  2. NewInformer builds the one shared pod informer from InformerOptions (profile, resync,
//     namespace, indexers, panic policy, pauser, transform) over the REST client when the
//     server listens, else over the server's in-process ListerWatcher, and logs to Logger.
//     Handlers added with AddHandler before RunInformer join as it starts; later ones get the
//     cached objects as initial adds.
//  3. Options.WatchFilter is the fault hook on the client side: every watch the informer
//     opens passes through it (DropInitialEventsEnd is one). Server faults go through
//     Testbed.Server.
//  4. NewController builds a rate-limiting workqueue (DefaultTypedControllerRateLimiter,
//     named for traces, logged to Logger) and a controller.Loop over it with the caller's
//     reconcile function; the caller sets the loop's hooks (retry and give-up traces, error
//     handler) and MaxRetries, then Start runs numbered workers (Worker tells a reconcile its
//     number). The handlers feed Controller.Queue themselves: what a handler does is the
//     caller's.
//  5. Close stops every controller (each worker finishes the key in hand), then the
//     informer, then the server, and waits for all of them, so nothing outlives it; whatever
//     a handler or a reconcile waits on must be released first. StopInformer and
//     Controller.Stop stop one part early, for a harness that checks what happens after.
package testbed

package lab

import (
	"fmt"
	"regexp"
)

// Lab is one lab: the learner rewrites the marked functions of Dirs and is graded by Runs.
type Lab struct {
	ID      string   // "04": the chapter the lab goes with
	Title   string   // one line
	Chapter string   // chapter directory, e.g. "chapters/04-deltafifo"
	Dir     string   // the lab's own directory, e.g. "labs/04-deltafifo" (hints, mutants)
	Dirs    []string // the source directories whose marked functions the learner writes
	Steps   []Step
	Runs    []Run // what lab-check runs, in order: the package's and chapter's tests, then property and chaos
	// Optional matches the tests that compare trace lines or golden scenario traces: they
	// are shown but do not fail the check, since the trace calls are not the lesson.
	Optional *regexp.Regexp
}

// Step is one part of a lab, in the order a learner should do it. Its functions are those
// whose marker names the step ("//lab:04.2" is step 2 of lab 04).
type Step struct {
	N     int
	Title string
}

// Run is one test binary: the tests of Pkg that match Run (empty: all), with extra Args.
type Run struct {
	Pkg  string   // "./deltafifo/"
	Run  string   // a -test.run pattern, "" for every test
	Args []string // extra test flags, e.g. -chaos.seeds=2
	Kind string   // "package", "chapter", "property", "chaos"
}

var optional = regexp.MustCompile(`Trac(e|ing)|_Scripts$|^Example.*[Tt]race`)

// Catalogue lists the labs in reading order.
var Catalogue = []Lab{
	{
		ID: "03", Title: "the Indexer: threadSafeMap and its indices",
		Chapter: "chapters/03-store-indexer", Dir: "labs/03-store-indexer", Dirs: []string{"store"},
		Steps: []Step{
			{1, "storeIndex.updateSingleIndex: refile one key in one index"},
			{2, "threadSafeMap writes: update, delete with the stored object, Replace"},
		},
		Runs: []Run{
			{Pkg: "./store/", Kind: "package"},
			{Pkg: "./chapters/03-store-indexer/", Kind: "chapter"},
			{Pkg: "./informer/", Run: "^TestCh08_Property_EndState$", Kind: "property"},
		},
	},
	{
		ID: "04", Title: "DeltaFIFO, then RealFIFO",
		Chapter: "chapters/04-deltafifo", Dir: "labs/04-deltafifo", Dirs: []string{"deltafifo"},
		Steps: []Step{
			{1, "DeltaFIFO: queue, dedup, Replace with tombstones, Pop"},
			{2, "RealFIFO: the non-atomic relist and Resync"},
		},
		Runs: []Run{
			{Pkg: "./deltafifo/", Kind: "package"},
			{Pkg: "./chapters/04-deltafifo/", Kind: "chapter"},
			{Pkg: "./informer/", Run: "^TestCh08_Property_EndState$", Kind: "property"},
			{Pkg: "./harness/chaos/", Run: "^TestChaos_Consistency$", Args: []string{"-chaos.seeds=2", "-chaos.shrink=0"}, Kind: "chaos"},
		},
	},
	{
		ID: "05", Title: "the Reflector's ListAndWatch",
		Chapter: "chapters/05-reflector", Dir: "labs/05-reflector", Dirs: []string{"reflector"},
		Steps: []Step{
			{1, "list: which resourceVersion to ask for, and the relist after 410"},
			{2, "watch: resume, bookmarks, errors and backoff"},
			{3, "watch-list: the initial events as a stream"},
		},
		Runs: []Run{
			{Pkg: "./reflector/", Kind: "package"},
			{Pkg: "./chapters/05-reflector/", Kind: "chapter"},
			{Pkg: "./informer/", Run: "^TestCh08_Property_EndState", Kind: "property"},
			{Pkg: "./harness/chaos/", Run: "^TestChaos_Consistency$", Args: []string{"-chaos.seeds=2", "-chaos.shrink=0"}, Kind: "chaos"},
		},
	},
	{
		ID: "06", Title: "sharedIndexInformer: HandleDeltas and late handlers",
		Chapter: "chapters/06-informer", Dir: "labs/06-informer", Dirs: []string{"informer"},
		Steps: []Step{
			{1, "processDeltas: apply a key's deltas to the cache, then notify"},
			{2, "AddEventHandler on a running informer: the late handler's replay"},
		},
		Runs: []Run{
			{Pkg: "./informer/", Kind: "package"},
			{Pkg: "./chapters/06-informer/", Kind: "chapter"},
			{Pkg: "./chapters/08-shared-informer/", Kind: "chapter"},
			{Pkg: "./harness/chaos/", Run: "^TestChaos_Consistency$", Args: []string{"-chaos.seeds=2", "-chaos.shrink=0"}, Kind: "chaos"},
		},
	},
	{
		ID: "07", Title: "RingGrowing and processorListener",
		Chapter: "chapters/07-processor", Dir: "labs/07-processor", Dirs: []string{"processor"},
		Steps: []Step{
			{1, "RingGrowing: a FIFO ring that doubles when full"},
			{2, "processorListener.pop and run: never block the informer on a handler"},
		},
		Runs: []Run{
			{Pkg: "./processor/", Kind: "package"},
			{Pkg: "./chapters/07-processor/", Kind: "chapter"},
			{Pkg: "./informer/", Run: "^TestCh08_Property_EndState$", Kind: "property"},
		},
	},
	{
		ID: "09", Title: "the workqueue: dirty and processing sets, delays and rate limits",
		Chapter: "chapters/09-workqueue", Dir: "labs/09-workqueue", Dirs: []string{"workqueue"},
		Steps: []Step{
			{1, "the queue: Add, Get and Done with the dirty and processing sets"},
			{2, "the delaying queue: AddAfter's waiting loop and its heap"},
			{3, "the rate limiters and AddRateLimited"},
		},
		Runs: []Run{
			{Pkg: "./workqueue/", Kind: "package"},
			{Pkg: "./chapters/09-workqueue/", Kind: "chapter"},
			{Pkg: "./chapters/10-controller/", Kind: "chapter"},
		},
	},
	{
		ID: "10", Title: "the controller: the worker loop and a level-triggered sync",
		Chapter: "chapters/10-controller", Dir: "labs/10-controller", Dirs: []string{"controller", "chapters/10-controller"},
		Steps: []Step{
			{1, "the worker loop: Get, reconcile, Done, and retries with Forget"},
			{2, "syncHandler: read the lister, never the event; never mutate the cache"},
		},
		Runs: []Run{
			{Pkg: "./controller/", Kind: "package"},
			{Pkg: "./chapters/10-controller/", Kind: "chapter"},
			{Pkg: "./harness/chaos/", Run: "^TestChaos_Consistency$", Args: []string{"-chaos.seeds=2", "-chaos.shrink=0"}, Kind: "chaos"},
		},
	},
	{
		ID: "14", Title: "the ReplicaSet controller's sync: the diff, slow start and expectations",
		Chapter: "chapters/14-cluster-controllers", Dir: "labs/14-cluster-controllers", Dirs: []string{"chapters/14-cluster-controllers"},
		Steps: []Step{
			{1, "manageReplicas: the diff, slow-start batches, which pods to delete"},
			{2, "expectations: hold the sync back until the cache has seen its writes"},
		},
		Runs: []Run{
			// The chapter's own controller only: its relay and cluster tests run the cluster's
			// controllers, which the learner does not write.
			{Pkg: "./chapters/14-cluster-controllers/", Run: "^(TestCh14_Sync_|Example)", Kind: "chapter"},
		},
	},
}

func init() {
	for i := range Catalogue {
		if Catalogue[i].Optional == nil {
			Catalogue[i].Optional = optional
		}
	}
}

// Find returns the lab with id ("4" and "04" both work).
func Find(id string) (*Lab, error) {
	if len(id) == 1 {
		id = "0" + id
	}
	for i := range Catalogue {
		if Catalogue[i].ID == id {
			return &Catalogue[i], nil
		}
	}
	ids := make([]string, len(Catalogue))
	for i, l := range Catalogue {
		ids[i] = l.ID
	}
	return nil, fmt.Errorf("no lab %q; the labs are %v", id, ids)
}

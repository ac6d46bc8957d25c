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
	// First is the function to write first and Test the named test that it alone, with the
	// rest of the step still panicking, turns green: the learner's first success comes
	// after one function, not after the whole step.
	First, Test string
	// Tests are the tests that grade this step, once all of its functions (and those of the
	// steps before it) are written. lab-check runs them step by step and stops at the first
	// step that fails, so that a check takes seconds; the lab's Runs come once every step
	// passes.
	Tests []Run
}

// pkgStep is a Step's Tests in one package.
func pkgStep(pkg, run string) []Run { return []Run{{Pkg: pkg, Run: run, Kind: "step"}} }

// Run is one test binary: the tests of Pkg that match Run (empty: all), with extra Args.
type Run struct {
	Pkg  string   // "./deltafifo/"
	Run  string   // a -test.run pattern, "" for every test
	Args []string // extra test flags, e.g. -chaos.seeds=2
	Kind string   // "package", "chapter", "property", "chaos"; "step" for a Step's Tests
	Step int      // the step whose Tests this run is, set by Check
}

var optional = regexp.MustCompile(`Trac(e|ing)|_Scripts$|^Example.*[Tt]race`)

// Catalogue lists the labs in reading order.
var Catalogue = []Lab{
	{
		ID: "03", Title: "the Indexer: threadSafeMap and its indices",
		Chapter: "chapters/03-store-indexer", Dir: "labs/03-store-indexer", Dirs: []string{"store"},
		Steps: []Step{
			{N: 1, Title: "storeIndex.updateSingleIndex: refile one key in one index",
				First: "storeIndex.updateSingleIndex", Test: "TestCh03_TS2_UpdateSingleIndex",
				Tests: pkgStep("./store/", "^TestCh03_TS2_UpdateSingleIndex$")},
			{N: 2, Title: "threadSafeMap writes: update, delete with the stored object, Replace",
				Tests: pkgStep("./store/", "^TestCh03_(TS[0-9]|Transaction$)")},
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
			{N: 1, Title: "DeltaFIFO: dedup, queue, Replace with tombstones, Pop",
				First: "dfDedupDeltas", Test: "TestCh04_DF5_DedupDeltas",
				Tests: pkgStep("./deltafifo/", "^TestCh04_(DF[0-9]+|T[1-5])_")},
			{N: 2, Title: "RealFIFO: the non-atomic relist and Resync",
				Tests: pkgStep("./deltafifo/", "^TestCh04_RF[0-9]")},
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
			{N: 1, Title: "list: which resourceVersion to ask for, and the relist after 410",
				First: "Reflector.relistResourceVersion", Test: "TestCh05_RelistResourceVersion_R9",
				Tests: pkgStep("./reflector/", "^TestCh05_(RelistResourceVersion_R9|ListPagedTableList_R7|ListBadResults_R7|ListPageSize_R10)$")},
			{N: 2, Title: "watch: resume, bookmarks, errors and backoff",
				Tests: pkgStep("./reflector/", "^TestCh05_(ListRVSequence|WatchOptions|WatchOpen|EventsToStoreOps|SkippedEvents|NormalCloseRewatch|WatchEndings|CompactionRelist)")},
			{N: 3, Title: "watch-list: the initial events as a stream",
				Tests: pkgStep("./reflector/", "^TestCh05_WatchList")},
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
			{N: 1, Title: "processDeltas: apply a key's deltas to the cache, then notify",
				First: "addOrUpdate", Test: "TestCh06_AddOrUpdate_C5_CacheDecides",
				Tests: pkgStep("./informer/", "^(TestCh06_AddOrUpdate|TestCh06_ProcessDeltas)")},
			// OnUpdate is tested through handlers, so it comes with AddEventHandler.
			{N: 2, Title: "the handlers' side: OnUpdate's resync test, and a late handler's replay",
				Tests: pkgStep("./informer/", "^TestCh08_SharedInformer_SI1[0-8]_")},
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
			{N: 1, Title: "RingGrowing: a FIFO ring that doubles when full",
				First: "TypedRingGrowing.grow", Test: "TestCh07_RB2_GrowCopiesOldestFirst",
				Tests: pkgStep("./processor/", "^TestCh07_RB[0-9]")},
			{N: 2, Title: "processorListener.pop and run: never block the informer on a handler",
				Tests: pkgStep("./processor/", "^TestCh07_PL[0-9]")},
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
			{N: 1, Title: "the queue: Add, Get and Done with the dirty and processing sets",
				First: "Typed.Add", Test: "TestCh09_WQ1_AddAlone",
				Tests: pkgStep("./workqueue/", "^TestCh09_WQ[1-9]_")},
			{N: 2, Title: "the delaying queue: AddAfter's waiting loop and its heap",
				Tests: pkgStep("./workqueue/", "^TestCh09_WQ2[0-4]_")},
			{N: 3, Title: "the rate limiters and AddRateLimited",
				Tests: pkgStep("./workqueue/", "^TestCh09_WQ(25|3[0-5])_")},
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
			{N: 1, Title: "the worker loop: Get, reconcile, Done, and retries with Forget",
				First: "Loop.handleErr", Test: "TestCh10_HandleErr_ForgetRetryGiveUp",
				Tests: pkgStep("./controller/", "^TestCh10_")},
			{N: 2, Title: "syncHandler: read the lister, never the event; never mutate the cache",
				Tests: pkgStep("./chapters/10-controller/", "^TestCh10_(T[0-9]|OneObjectJourney)")},
		},
		Runs: []Run{
			{Pkg: "./controller/", Kind: "package"},
			{Pkg: "./chapters/10-controller/", Kind: "chapter"},
			{Pkg: "./harness/chaos/", Run: "^TestChaos_Consistency$", Args: []string{"-chaos.seeds=2", "-chaos.shrink=0"}, Kind: "chaos"},
		},
	},
	{
		ID: "13", Title: "the Foo controller: its event handlers and its syncHandler",
		Chapter: "chapters/13-custom-resources", Dir: "labs/13-custom-resources", Dirs: []string{"chapters/13-custom-resources"},
		Steps: []Step{
			{N: 1, Title: "the event handlers: a Foo's or its Deployment's change becomes the Foo's key",
				First: "Controller.handleObject", Test: "TestCh13_HandleObject_EnqueuesTheController",
				Tests: pkgStep("./chapters/13-custom-resources/", "^(TestCh13_HandleObject|TestCh13_EnqueueFoo)")},
			{N: 2, Title: "syncHandler: make the Deployment and the status agree with the cached Foo",
				Tests: pkgStep("./chapters/13-custom-resources/", "^TestCh13_")},
		},
		Runs: []Run{
			{Pkg: "./chapters/13-custom-resources/", Kind: "chapter"},
		},
	},
	{
		ID: "14", Title: "the ReplicaSet controller's sync: the diff, slow start and expectations",
		Chapter: "chapters/14-cluster-controllers", Dir: "labs/14-cluster-controllers", Dirs: []string{"chapters/14-cluster-controllers"},
		Steps: []Step{
			{N: 1, Title: "manageReplicas: the diff, slow-start batches, which pods to delete",
				First: "slowStartBatch", Test: "TestCh14_Sync_SlowStartBatch",
				Tests: pkgStep("./chapters/14-cluster-controllers/", "^(TestCh14_Sync_SlowStartBatch|TestCh14_Sync_PodsToDelete|Example_slowStartBatch|Example_getPodsToDelete)$")},
			{N: 2, Title: "expectations: hold the sync back until the cache has seen its writes",
				Tests: pkgStep("./chapters/14-cluster-controllers/", "^(TestCh14_Sync_|Example)")},
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

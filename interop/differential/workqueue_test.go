package differential

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"
	cgwq "k8s.io/client-go/util/workqueue"

	"github.com/informer-lab/informer-lab/workqueue"
)

// limiterSpec names a rate limiter and builds it on either side with the same parameters.
type limiterSpec struct {
	name   string
	ours   func() workqueue.TypedRateLimiter[string]
	theirs func() cgwq.TypedRateLimiter[string]
}

// genLimiter draws one limiter, possibly composite, with parameters that reach the caps and
// the overflow guard of the exponential limiter (WQ-30 … WQ-35).
func genLimiter(r *rand.Rand, depth int) limiterSpec {
	durs := []time.Duration{0, time.Nanosecond, time.Millisecond, 5 * time.Millisecond, time.Second,
		1000 * time.Second, time.Duration(1) << 40, time.Duration(1<<63 - 1)}
	d := func() time.Duration { return durs[r.IntN(len(durs))] }
	kind := r.IntN(8)
	if depth > 1 && kind >= 5 {
		kind = r.IntN(5)
	}
	switch kind {
	case 0:
		// Bases whose base·2^n can round to exactly 2^63 (powers of two, MaxInt64) hit
		// the client-go overflow bug pinned by TestKnownDivergence_ExponentialOverflowAt2To63,
		// which a composite limiter would hide; 2^62+12345 still overflows, past 2^63.
		bases := []time.Duration{0, 3, time.Millisecond, 5 * time.Millisecond, time.Second, 1000 * time.Second, 1<<62 + 12345}
		base, maxD := bases[r.IntN(len(bases))], d()
		return limiterSpec{fmt.Sprintf("Exponential(%v, %v)", base, maxD),
			func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedItemExponentialFailureRateLimiter[string](base, maxD)
			},
			func() cgwq.TypedRateLimiter[string] {
				return cgwq.NewTypedItemExponentialFailureRateLimiter[string](base, maxD)
			}}
	case 1:
		fast, slow, n := d(), d(), r.IntN(5)
		return limiterSpec{fmt.Sprintf("FastSlow(%v, %v, %d)", fast, slow, n),
			func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedItemFastSlowRateLimiter[string](fast, slow, n)
			},
			func() cgwq.TypedRateLimiter[string] {
				return cgwq.NewTypedItemFastSlowRateLimiter[string](fast, slow, n)
			}}
	case 2:
		qps, burst := []rate.Limit{0.5, 1, 10, 100}[r.IntN(4)], r.IntN(5)+1
		return limiterSpec{fmt.Sprintf("Bucket(%v qps, burst %d)", qps, burst),
			func() workqueue.TypedRateLimiter[string] {
				return &workqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(qps, burst)}
			},
			func() cgwq.TypedRateLimiter[string] {
				return &cgwq.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(qps, burst)}
			}}
	case 3:
		return limiterSpec{"DefaultControllerRateLimiter",
			workqueue.DefaultTypedControllerRateLimiter[string], cgwq.DefaultTypedControllerRateLimiter[string]}
	case 4:
		return limiterSpec{"DefaultItemBasedRateLimiter",
			workqueue.DefaultTypedItemBasedRateLimiter[string], cgwq.DefaultTypedItemBasedRateLimiter[string]}
	case 5, 6:
		a, b := genLimiter(r, depth+1), genLimiter(r, depth+1)
		return limiterSpec{fmt.Sprintf("MaxOf(%s, %s)", a.name, b.name),
			func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedMaxOfRateLimiter(a.ours(), b.ours())
			},
			func() cgwq.TypedRateLimiter[string] {
				return cgwq.NewTypedMaxOfRateLimiter(a.theirs(), b.theirs())
			}}
	default:
		inner, maxD := genLimiter(r, depth+1), d()
		return limiterSpec{fmt.Sprintf("WithMaxWait(%s, %v)", inner.name, maxD),
			func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedWithMaxWaitRateLimiter(inner.ours(), maxD)
			},
			func() cgwq.TypedRateLimiter[string] {
				return cgwq.NewTypedWithMaxWaitRateLimiter(inner.theirs(), maxD)
			}}
	}
}

type limiterOp struct {
	Limiter *limiterSpec // set on the first op only: which limiter the script drives
	Kind    string       // When Forget NumRequeues Advance
	Item    string
	D       time.Duration
}

func (op limiterOp) String() string {
	switch {
	case op.Limiter != nil:
		return "limiter " + op.Limiter.name
	case op.Kind == "Advance":
		return fmt.Sprintf("Advance(%v)", op.D)
	}
	return fmt.Sprintf("%s(%q)", op.Kind, op.Item)
}

func genLimiterOps(r *rand.Rand) []limiterOp {
	spec := genLimiter(r, 0)
	ops := []limiterOp{{Limiter: &spec}}
	items := []string{"a", "b", "c"}
	for range 30 + r.IntN(70) {
		it := items[r.IntN(len(items))]
		switch p := r.IntN(100); {
		case p < 65:
			ops = append(ops, limiterOp{Kind: "When", Item: it})
		case p < 75:
			ops = append(ops, limiterOp{Kind: "Forget", Item: it})
		case p < 85:
			ops = append(ops, limiterOp{Kind: "NumRequeues", Item: it})
		default:
			ops = append(ops, limiterOp{Kind: "Advance", D: time.Duration(r.IntN(300)) * time.Millisecond})
		}
	}
	return ops
}

// TestDifferential_RateLimiters: every limiter (and compositions of them) returns the same
// When sequence and NumRequeues as client-go's. Time is synctest's virtual clock, so the
// token bucket sees exactly the same instants on both sides.
func TestDifferential_RateLimiters(t *testing.T) {
	runSeeds(t, scenario[limiterOp]{
		name:   "RateLimiters",
		gen:    genLimiterOps,
		format: limiterOp.String,
		run: func(t *testing.T, ops []limiterOp) (mm *mismatch) {
			if len(ops) == 0 || ops[0].Limiter == nil {
				return nil // the shrinker removed the limiter: nothing to compare
			}
			synctest.Test(t, func(t *testing.T) {
				ours, theirs := ops[0].Limiter.ours(), ops[0].Limiter.theirs()
				for i, op := range ops[1:] {
					var o, th string
					switch op.Kind {
					case "When":
						ow, tw := ours.When(op.Item), theirs.When(op.Item)
						o, th = ow.String(), tw.String()
						if ow < 0 {
							o = "negative " + o // never right: a delay is ≥ 0
						} else if tw < 0 {
							// client-go's overflow guard misses backoff == 2^63 exactly
							// (TestKnownDivergence_ExponentialOverflowAt2To63); ours caps.
							th = o
						}
					case "Forget":
						ours.Forget(op.Item)
						theirs.Forget(op.Item)
					case "NumRequeues":
						o, th = fmt.Sprint(ours.NumRequeues(op.Item)), fmt.Sprint(theirs.NumRequeues(op.Item))
					case "Advance":
						time.Sleep(op.D) // virtual time: the bubble's clock jumps by D
					}
					if d := cmp.Diff(o, th); d != "" {
						mm = &mismatch{step: i + 1, diff: d}
						return
					}
				}
			})
			return mm
		},
	})
}

type queueOp struct {
	Kind string // Add AddAfter AddRateLimited Forget Get Done Advance ShutDownWithDrain
	Item string
	D    time.Duration
	N    int // Done: which held item
}

func (op queueOp) String() string {
	switch op.Kind {
	case "AddAfter":
		return fmt.Sprintf("AddAfter(%q, %v)", op.Item, op.D)
	case "Advance":
		return fmt.Sprintf("Advance(%v)", op.D)
	case "Get":
		return "Get()"
	case "Done":
		return fmt.Sprintf("Done(held[%d])", op.N)
	}
	return fmt.Sprintf("%s(%q)", op.Kind, op.Item)
}

func genQueueOps(r *rand.Rand) []queueOp {
	items := []string{"a", "b", "c", "d"}
	var ops []queueOp
	for range 30 + r.IntN(50) {
		it := items[r.IntN(len(items))]
		switch p := r.IntN(100); {
		case p < 22:
			ops = append(ops, queueOp{Kind: "Add", Item: it})
		case p < 37:
			ops = append(ops, queueOp{Kind: "AddAfter", Item: it,
				D: time.Duration(r.IntN(5)-1) * 10 * time.Millisecond})
		case p < 45:
			ops = append(ops, queueOp{Kind: "AddRateLimited", Item: it})
		case p < 50:
			ops = append(ops, queueOp{Kind: "Forget", Item: it})
		case p < 70:
			ops = append(ops, queueOp{Kind: "Get"})
		case p < 88:
			ops = append(ops, queueOp{Kind: "Done", N: r.IntN(3)})
		default:
			ops = append(ops, queueOp{Kind: "Advance", D: time.Duration(r.IntN(40)) * time.Millisecond})
		}
	}
	if r.IntN(3) == 0 {
		ops = append(ops, queueOp{Kind: "ShutDownWithDrain"})
	}
	return ops
}

type getResult struct {
	Item     string
	Shutdown bool
}

// queueSide drives one rate-limiting queue: at most one worker is blocked in Get at a time.
type queueSide struct {
	q       queueAPI
	results chan getResult
	getting bool
	held    []string
	drained chan struct{}
}

type queueAPI interface {
	Add(string)
	AddAfter(string, time.Duration)
	AddRateLimited(string)
	Forget(string)
	NumRequeues(string) int
	Get() (string, bool)
	Done(string)
	Len() int
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
}

type queueObs struct {
	Got         []getResult
	Held        []string
	Len         int
	NumRequeues map[string]int
	Shutting    bool
	Drained     bool
}

func (s *queueSide) step(op queueOp) queueObs {
	switch op.Kind {
	case "Add":
		s.q.Add(op.Item)
	case "AddAfter":
		s.q.AddAfter(op.Item, op.D)
	case "AddRateLimited":
		s.q.AddRateLimited(op.Item)
	case "Forget":
		s.q.Forget(op.Item)
	case "Get":
		if !s.getting {
			s.getting = true
			go func() {
				it, sd := s.q.Get()
				s.results <- getResult{it, sd}
			}()
		}
	case "Done":
		if len(s.held) > 0 {
			i := op.N % len(s.held)
			s.q.Done(s.held[i])
			s.held = append(s.held[:i:i], s.held[i+1:]...)
		}
	case "Advance":
		// The bubble's clock is shared: the runner sleeps once for both sides.
	case "ShutDownWithDrain":
		s.drained = make(chan struct{})
		go func() { s.q.ShutDownWithDrain(); close(s.drained) }()
	}
	return s.observe()
}

func (s *queueSide) observe() queueObs {
	synctest.Wait()
	obs := queueObs{Len: s.q.Len(), NumRequeues: map[string]int{}, Shutting: s.q.ShuttingDown()}
	select {
	case r := <-s.results:
		s.getting = false
		obs.Got = append(obs.Got, r)
		if !r.Shutdown {
			s.held = append(s.held, r.Item)
		}
	default:
	}
	if s.drained != nil {
		select {
		case <-s.drained:
			obs.Drained = true
		default:
		}
	}
	obs.Held = append([]string(nil), s.held...)
	for _, it := range []string{"a", "b", "c", "d"} {
		obs.NumRequeues[it] = s.q.NumRequeues(it)
	}
	return obs
}

// finish releases everything: Done for every held item, ShutDown, and the blocked worker.
func (s *queueSide) finish() queueObs {
	for _, it := range s.held {
		s.q.Done(it)
	}
	s.held = nil
	s.q.ShutDown()
	synctest.Wait()
	obs := s.observe()
	for s.getting { // the worker may have taken a requeued item before seeing the shutdown
		s.q.Done(s.held[len(s.held)-1])
		go func() { it, sd := s.q.Get(); s.results <- getResult{it, sd} }()
		s.getting = true
		o := s.observe()
		obs.Got = append(obs.Got, o.Got...)
		if len(o.Got) > 0 && o.Got[0].Shutdown {
			break
		}
	}
	if s.drained != nil {
		<-s.drained
	}
	return obs
}

// TestDifferential_Workqueue plays an Add/AddAfter/AddRateLimited/Get/Done script in virtual
// time through a rate-limiting queue of each side (default controller rate limiter, default
// real clock inside the synctest bubble) and compares every Get, Len and NumRequeues (WQ-1 …
// WQ-25).
func TestDifferential_Workqueue(t *testing.T) {
	runSeeds(t, scenario[queueOp]{
		name:   "Workqueue",
		gen:    genQueueOps,
		format: queueOp.String,
		run: func(t *testing.T, ops []queueOp) (mm *mismatch) {
			synctest.Test(t, func(t *testing.T) {
				ours := &queueSide{results: make(chan getResult, 1), q: workqueue.NewTypedRateLimitingQueue(
					workqueue.DefaultTypedControllerRateLimiter[string]())}
				theirs := &queueSide{results: make(chan getResult, 1), q: cgwq.NewTypedRateLimitingQueue(
					cgwq.DefaultTypedControllerRateLimiter[string]())}
				defer func() {
					o, th := ours.finish(), theirs.finish()
					if d := cmp.Diff(o, th); d != "" && mm == nil {
						mm = &mismatch{step: len(ops) - 1, diff: "at shutdown:\n" + d}
					}
				}()
				for i, op := range ops {
					if op.Kind == "Advance" {
						time.Sleep(op.D) // virtual time, once for both sides
					}
					if d := cmp.Diff(ours.step(op), theirs.step(op)); d != "" {
						mm = &mismatch{step: i, diff: d}
						return
					}
				}
			})
			return mm
		},
	})
}

// TestKnownDivergence_ExponentialOverflowAt2To63 pins the one place where we deliberately
// differ from client-go v0.37.2. ItemExponentialFailureRateLimiter guards the float
// computation with "backoff > math.MaxInt64", but float64(math.MaxInt64) is 2^63, so a
// backoff of exactly 2^63 (base 1 ns after 63 failures, base 2^40 ns after 23, or a base
// that rounds to 2^63) passes the guard and the conversion to time.Duration overflows to a
// negative delay, which the queue treats as "add now". The spec (WQ-30) says the value is
// capped at max also when the computation overflows, which is what ours does.
func TestKnownDivergence_ExponentialOverflowAt2To63(t *testing.T) {
	ours := workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Nanosecond, 1000*time.Second)
	theirs := cgwq.NewTypedItemExponentialFailureRateLimiter[string](time.Nanosecond, 1000*time.Second)
	var o, th time.Duration
	for range 64 { // failures 0 … 63: the 64th When computes 1 ns · 2^63
		o, th = ours.When("x"), theirs.When("x")
	}
	if th >= 0 {
		t.Skipf("client-go now returns %v: the divergence is gone, drop the special case in TestDifferential_RateLimiters", th)
	}
	if o != 1000*time.Second {
		t.Fatalf("ours returned %v for 1 ns · 2^63, want the 1000 s cap (WQ-30)", o)
	}
	t.Logf("1 ns · 2^63: ours %v (capped, WQ-30), client-go %v (overflow)", o, th)
}

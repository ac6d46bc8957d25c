package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/msgcat"
)

// tourConfig is what `demo tour` takes from its flags.
type tourConfig struct {
	profile informer.Profile
	// pause is the reading time between steps (and a fraction of it between actions);
	// --fast sets it to 0.
	pause time.Duration
	// resync is the informer's resync period, which the audit handler inherits.
	resync time.Duration
	// burst is how many quick updates step 4 sends while audit is stuck.
	burst int
	// collapse is how many quick updates step 3 sends.
	collapse int
	// stepper, when set, waits for Enter before each step (--step).
	stepper *bufio.Reader
	out     io.Writer
	pal     palette
	// lang is the language of the narration (--lang).
	lang msgcat.Lang
	// timeout bounds every wait of the tour.
	timeout time.Duration
}

// stepResult is what one step counted.
type stepResult struct {
	counts   tally
	requests map[string]int
}

// tourResult is what the tour measured; the tests assert on it and the summary prints it.
type tourResult struct {
	profile  informer.Profile
	steps    []stepResult
	total    tally
	requests map[string]int

	collapseUpdates, collapseReconciles int64
	auditPeak, auditCap, schedPeak      int64
	auditOutOfOrder                     int
	relists, tombstones                 int64
	retries, forgetRequeues             int64
	resyncHandlerCalls, resyncRequests  int
	schedulerResyncCalls                int64
	elapsed                             time.Duration
}

// tour drives the story through a pipeline and prints it through a journey.
type tour struct {
	cfg     tourConfig
	p       *pipeline
	j       *journey
	res     *tourResult
	n       int // the current step
	before  tally
	beforeR map[string]int
	start   time.Time
}

const tourSteps = 7

// profileBlurb says which client-go the profile plays.
func profileBlurb(l msgcat.Lang, p informer.Profile) string {
	switch p {
	case informer.ProfileClassic:
		return messages.T(l, "profile.classic")
	case informer.ProfileInOrder:
		return messages.T(l, "profile.inorder")
	}
	return messages.T(l, "profile.current")
}

// tr is a narration message in the tour's language.
func (t *tour) tr(id string, args ...any) string { return messages.T(t.cfg.lang, id, args...) }

// runTour runs the seven steps and the summary. It returns what it counted.
func runTour(ctx context.Context, cfg tourConfig) (*tourResult, error) {
	if cfg.timeout <= 0 {
		cfg.timeout = 20 * time.Second
	}
	j := newJourney(cfg.out, cfg.pal)
	j.lang = cfg.lang
	p, err := newPipeline(pipelineConfig{profile: cfg.profile, resync: cfg.resync, workers: 2,
		watchBuffer: 4 * cfg.burst, sinks: []sink{j}})
	if err != nil {
		return nil, err
	}
	defer p.close()
	t := &tour{cfg: cfg, p: p, j: j, res: &tourResult{profile: cfg.profile}, start: time.Now()}
	for i := 1; i <= 3; i++ {
		if _, err := p.w.create(ctx, newPod("web-"+strconv.Itoa(i), nil)); err != nil {
			return nil, fmt.Errorf("seeding: %w", err)
		}
	}
	p.srv.ResetRequestCounts()
	t.header()
	steps := []func(context.Context) error{t.initialSync, t.createUpdateDelete, t.levelTriggered,
		t.slowHandler, t.relist, t.retries, t.resync}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			j.setFilter(nil)
			return t.res, fmt.Errorf("step %d: %w", t.n, err)
		}
		t.endStep()
	}
	j.setFilter(nil)
	t.res.total = p.count.snapshot()
	t.res.requests = p.requests()
	t.res.elapsed = time.Since(t.start)
	t.summary()
	return t.res, nil
}

// wait pauses for the reader (never in --fast); it is not used to synchronise anything.
func (t *tour) wait(d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
}

// beat is the short pause between two actions of a step.
func (t *tour) beat() { t.wait(t.cfg.pause / 4) }

func (t *tour) settle(ctx context.Context) error { return t.p.settle(ctx, t.cfg.timeout) }

// until polls cond (bounded) until it holds.
func (t *tour) until(ctx context.Context, what string, cond func() bool) error {
	deadline := time.Now().Add(t.cfg.timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %v waiting for %s", t.cfg.timeout, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond): // polling interval of a bounded wait
		}
	}
	return nil
}

const ns = "demo"

// Step 1: the initial list.
func (t *tour) initialSync(ctx context.Context) error {
	how := t.tr("step1.how.list")
	if t.cfg.profile == informer.ProfileCurrent {
		how = t.tr("step1.how.watchlist")
	}
	if err := t.step(t.tr("step1.title"), t.tr("step1.explain", how),
		focus(mainHops, ns+"/web-1")); err != nil {
		return err
	}
	if err := t.p.start(ctx); err != nil {
		return err
	}
	if err := t.settle(ctx); err != nil {
		return err
	}
	d := t.diff()
	t.ok("step1.synced", len(t.p.inf.GetIndexer().ListKeys()), t.j.hiddenCount())
	t.ok("step1.writes", d["worker/reconcile"], d["apiserver/update"], d["handler/scheduler/OnUpdate"])
	return nil
}

// Step 2: create, update, delete.
func (t *tour) createUpdateDelete(ctx context.Context) error {
	key := ns + "/web-4"
	if err := t.step(t.tr("step2.title"), t.tr("step2.explain"),
		focus(mainHops, key)); err != nil {
		return err
	}
	t.you("tour.you.create", "web-4")
	if _, err := t.p.w.create(ctx, newPod("web-4", nil)); err != nil {
		return err
	}
	if err := t.settle(ctx); err != nil {
		return err
	}
	t.beat()
	t.you("step2.label")
	if _, err := t.p.w.patch(ctx, "web-4", []byte(`{"metadata":{"labels":{"tier":"frontend"}}}`)); err != nil {
		return err
	}
	if err := t.settle(ctx); err != nil {
		return err
	}
	t.beat()
	t.you("tour.you.delete", "web-4")
	if err := t.p.w.delete(ctx, "web-4"); err != nil {
		return err
	}
	if err := t.settle(ctx); err != nil {
		return err
	}
	d := t.diff()
	t.ok("step2.result", d["reflector/event/ADDED"], d["reflector/event/MODIFIED"], d["reflector/event/DELETED"],
		d["handler/scheduler/OnAdd"], d["handler/scheduler/OnUpdate"], d["handler/scheduler/OnDelete"])
	return nil
}

// Step 3: many updates, fewer reconciles.
func (t *tour) levelTriggered(ctx context.Context) error {
	key := ns + "/web-1"
	n := t.cfg.collapse
	f := func(h *hop, resync bool) bool {
		return h.Listener != t.p.audit.name && mainHops(h, resync)
	}
	if err := t.step(t.tr("step3.title"), t.tr("step3.explain", n),
		focus(only(f, "apiserver", "handler", "workqueue", "worker"), key)); err != nil {
		return err
	}
	entered, release := t.p.sched.holdNext(key)
	defer release()
	t.you("step3.first")
	if _, err := t.p.w.patch(ctx, "web-1", []byte(`{"metadata":{"labels":{"tick":"1"}}}`)); err != nil {
		return err
	}
	select {
	case <-entered:
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(t.cfg.timeout):
		return fmt.Errorf("no worker picked up %s", key)
	}
	t.you("step3.more", n, n-1)
	var last string
	for i := 2; i <= n; i++ {
		obj, err := t.p.w.patch(ctx, "web-1", fmt.Appendf(nil, `{"metadata":{"labels":{"tick":"%d"}}}`, i))
		if err != nil {
			return err
		}
		last = obj.(*api.Pod).ResourceVersion
	}
	if err := t.until(ctx, "the scheduler's handler to see tick="+strconv.Itoa(n), func() bool {
		return t.p.sched.seen.get(key) == last
	}); err != nil {
		return err
	}
	release()
	if err := t.settle(ctx); err != nil {
		return err
	}
	d := t.diff()
	t.res.collapseUpdates = d["handler/scheduler/OnUpdate"]
	t.res.collapseReconciles = d["worker/reconcile/"+key]
	t.ok("step3.queue",
		n, d["handler/scheduler/OnUpdate"], d["workqueue/add/queued"], d["workqueue/add/deferred"], d["workqueue/add/dirty"])
	t.ok("step3.reconciles", t.res.collapseReconciles, last)
	return nil
}

// Step 4: a stuck handler grows its ring; the other stays prompt.
func (t *tour) slowHandler(ctx context.Context) error {
	key := ns + "/web-2"
	auditName, schedName := t.p.audit.name, t.p.sched.name
	var lastCap int64
	schedSeen, auditSeen := 0, 0
	sample := func(n int) bool { return n == 1 || n%max(t.cfg.burst/4, 1) == 0 }
	f := func(h *hop, _ bool) bool {
		if h.Key != key {
			return false
		}
		switch {
		case h.Is("listener", "buffer") && h.Listener == auditName:
			p, _ := h.Int("pending")
			c, _ := h.Int("cap")
			show := bits.OnesCount64(uint64(p)) == 1 || c != lastCap
			lastCap = c
			return show
		case h.Is("handler", "OnUpdate") && h.Listener == schedName:
			schedSeen++
			return sample(schedSeen)
		case h.Is("handler", "OnUpdate") && h.Listener == auditName && !h.Bool("resync"):
			auditSeen++
			return sample(auditSeen)
		}
		return false
	}
	if err := t.step(t.tr("step4.title"), t.tr("step4.explain", t.cfg.burst), f); err != nil {
		return err
	}
	release := t.p.audit.stick()
	defer release()
	t.you("step4.burst", t.cfg.burst, t.cfg.burst)
	var last string
	for i := 1; i <= t.cfg.burst; i++ {
		obj, err := t.p.w.patchDirect(ctx, "web-2", fmt.Appendf(nil, `{"metadata":{"labels":{"burst":"%d"}}}`, i))
		if err != nil {
			return err
		}
		last = obj.(*api.Pod).ResourceVersion
	}
	if err := t.until(ctx, "the scheduler's handler to see every update", func() bool {
		return t.p.sched.seen.get(key) == last
	}); err != nil {
		return err
	}
	auditPending, auditCap := t.p.regAudit.Pending(), t.p.regAudit.PendingCap()
	schedPending := t.p.regSched.Pending()
	t.ok("step4.stuck", t.cfg.burst, schedPending, auditPending, auditCap)
	t.beat()
	t.you("step4.unstick")
	release()
	if err := t.settle(ctx); err != nil {
		return err
	}
	d := t.diff()
	_, outOfOrder := t.p.audit.stats()
	t.res.auditPeak = t.p.count.get("listener/" + auditName + "/peak")
	t.res.auditCap = t.p.count.get("listener/" + auditName + "/cap")
	t.res.schedPeak = t.p.count.get("listener/" + schedName + "/peak")
	t.res.auditOutOfOrder = outOfOrder
	t.ok("step4.caught", d["handler/audit/OnUpdate"], outOfOrder, t.res.auditPeak, t.res.auditCap)
	t.ok("step4.collapse", d["handler/scheduler/OnUpdate"], d["worker/reconcile/"+key])
	return nil
}

// Step 5: a lost delete, compaction, 410, relist, tombstone.
func (t *tour) relist(ctx context.Context) error {
	key := ns + "/web-3"
	if err := t.step(t.tr("step5.title"), t.tr("step5.explain"),
		focus(mainHops, key)); err != nil {
		return err
	}
	tombs := t.p.count.expect("OnDelete(DeletedFinalStateUnknown) for "+key+" in both handlers", 2, func(h *hop) bool {
		return h.Is("handler", "OnDelete") && h.Key == key && h.Bool("tombstone")
	})
	t.you("step5.drop")
	t.p.srv.DropNextEvents(apiserver.DropRule{Count: 1, Key: key, Type: watch.Deleted})
	t.you("tour.you.delete", "web-3")
	if err := t.p.w.delete(ctx, "web-3"); err != nil {
		return err
	}
	if pod, ok := t.p.cachedPod("web-3"); ok {
		t.ok("step5.stale", pod.ResourceVersion)
	}
	t.beat()
	t.you("step5.compact")
	t.p.srv.CompactAll()
	t.p.srv.CloseAllWatches()
	if err := tombs.wait(ctx, t.cfg.timeout); err != nil {
		return err
	}
	if err := t.settle(ctx); err != nil {
		return err
	}
	d := t.diff()
	t.res.relists = d["reflector/replace"]
	t.res.tombstones = d["handler/tombstone"]
	t.ok("step5.result", t.res.relists, t.res.tombstones)
	return nil
}

// Step 6: a failing reconcile, rate-limited retries, Forget.
func (t *tour) retries(ctx context.Context) error {
	key := ns + "/flaky"
	if err := t.step(t.tr("step6.title"), t.tr("step6.explain"),
		focus(only(func(h *hop, resync bool) bool { return h.Listener != t.p.audit.name && mainHops(h, resync) },
			"apiserver", "handler", "workqueue", "worker"), key)); err != nil {
		return err
	}
	var cleared int64
	forgot := t.p.count.expect("Forget of "+key+" after its retries", 1, func(h *hop) bool {
		n, _ := h.Int("requeues")
		if h.Is("workqueue", "forget") && h.Key == key && n > 0 {
			cleared = n
			return true
		}
		return false
	})
	t.you("step6.create", failAnnotation)
	if _, err := t.p.w.create(ctx, newPod("flaky", map[string]string{failAnnotation: "3"})); err != nil {
		return err
	}
	if err := forgot.wait(ctx, t.cfg.timeout); err != nil {
		return err
	}
	if err := t.settle(ctx); err != nil {
		return err
	}
	d := t.diff()
	t.res.retries = d["worker/retry"]
	t.res.forgetRequeues = cleared
	t.ok("step6.result", d["worker/retry"], d["workqueue/requeue"], cleared)
	return nil
}

// Step 7: resync replays the cache and calls nobody.
func (t *tour) resync(ctx context.Context) error {
	cached := len(t.p.inf.GetIndexer().ListKeys())
	f := func(h *hop, resync bool) bool {
		if !resync && !h.Is("reflector", "resync") {
			return false
		}
		return (h.Key == "" || h.Key == ns+"/web-1") && mainHops(h, false)
	}
	if err := t.step(t.tr("step7.title"), t.tr("step7.explain", t.cfg.resync, cached), f); err != nil {
		return err
	}
	resynced := t.p.count.expect("a resync", 1, hopMatch("reflector", "resync", ""))
	t.you("step7.wait", t.cfg.resync, sum(t.p.requests()))
	if err := resynced.wait(ctx, t.cfg.timeout+2*t.cfg.resync); err != nil {
		return err
	}
	delivered := t.p.count.expect("the resync's OnUpdate calls to audit", cached, func(h *hop) bool {
		return h.Is("handler", "OnUpdate") && h.Listener == t.p.audit.name && h.Bool("resync")
	})
	if err := delivered.wait(ctx, t.cfg.timeout+2*t.cfg.resync); err != nil {
		return err
	}
	if err := t.settle(ctx); err != nil {
		return err
	}
	d := t.diff()
	req := 0
	for k, v := range t.p.requests() {
		req += v - t.beforeR[k]
	}
	t.res.resyncHandlerCalls = int(d["handler/audit/resync"])
	t.res.resyncRequests = req
	t.res.schedulerResyncCalls = d["handler/scheduler"]
	t.ok("step7.result", d["handler/audit/resync"], d["handler/scheduler"], req)
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/internal/dashboard"
)

// runActions is what the dashboard's buttons do to the running pipeline (dashboard.Actions).
type runActions struct {
	p         *pipeline
	slowDelay time.Duration
	next      atomic.Int64 // numbers the pods it creates
}

var _ dashboard.Actions = (*runActions)(nil)

// DropNextEvents makes the server lose the next n watch events, whatever they are.
func (a *runActions) DropNextEvents(n int) error {
	if n < 1 {
		return fmt.Errorf("drop needs at least 1 event, got %d", n)
	}
	a.p.srv.DropNextEvents(apiserver.DropRule{Count: n})
	return nil
}

// Compact compacts the server's history past the informer's resourceVersion and cuts the
// watches: the informer's watch resumes from an RV that is gone, gets 410 Gone and relists.
// A write to another resource (an annotation on the demo's namespace) comes first, so the
// global revision moves past the last pod event the informer has seen even when it is up to
// date, as other resources' writes do on a real cluster. A cluster-scoped object keeps the
// dashboard's count of server objects to pods. No pod is written meanwhile: a pod event
// after the namespace's write could reach the informer before its watch is cut, and a
// resume from that newest revision is not too old.
func (a *runActions) Compact() error {
	return a.p.w.exclusive(func() error {
		patch := fmt.Appendf(nil, `{"metadata":{"annotations":{"informer-lab.dev/compacted-at":"%d"}}}`, a.p.srv.ResourceVersion())
		if _, err := a.p.srv.Patch(context.Background(), "namespaces", "", a.p.cfg.namespace, api.MergePatchType, patch); err != nil {
			return err
		}
		a.p.srv.CompactAll()
		a.p.srv.CloseAllWatches()
		return nil
	})
}

// CloseWatches ends every watch cleanly: the informer resumes from its RV without a relist.
func (a *runActions) CloseWatches() error {
	a.p.srv.CloseAllWatches()
	return nil
}

// ToggleSlowHandler makes the audit handler take slowDelay per call, or fast again.
func (a *runActions) ToggleSlowHandler() (bool, error) {
	if a.p.audit.delay.Load() > 0 {
		a.p.audit.delay.Store(0)
		return false, nil
	}
	a.p.audit.delay.Store(int64(a.slowDelay))
	return true, nil
}

// CreatePod creates a pending pod for the scheduler to place.
func (a *runActions) CreatePod() (string, error) {
	name := "pod-" + strconv.FormatInt(a.next.Add(1), 10)
	_, err := a.p.w.create(context.Background(), newPod(name, nil))
	return name, err
}

// DeletePod deletes one of the demo's pods.
func (a *runActions) DeletePod() (string, error) {
	names := a.p.w.names()
	if len(names) == 0 {
		return "", errors.New("there is no pod to delete")
	}
	slices.Sort(names)
	name := names[rand.IntN(len(names))]
	return name, a.p.w.delete(context.Background(), name)
}

// mutate makes one random change, keeping about target pods: create, relabel or delete.
func (a *runActions) mutate(ctx context.Context, target int) {
	names := a.p.w.names()
	switch r := rand.IntN(10); {
	case len(names) < target || (r == 0 && len(names) < 2*target):
		_, _ = a.CreatePod()
	case r == 1 && len(names) > 0:
		_, _ = a.DeletePod()
	case len(names) > 0:
		name := names[rand.IntN(len(names))]
		patch := fmt.Appendf(nil, `{"metadata":{"labels":{"version":"v%d"}}}`, rand.IntN(1000))
		_, _ = a.p.w.patch(ctx, name, patch)
	}
}

func cmdRun(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlags("run", out)
	profile := fs.String("profile", "current", "informer profile: classic, inorder or current")
	rate := fs.Float64("rate", 2, "changes per second made by the mutator (0: none)")
	pods := fs.Int("pods", 5, "how many pods the mutator keeps around")
	traceOn := fs.Bool("trace", false, "print every hop of every event (the full journey)")
	follow := fs.String("follow", "", "print the journey of one object only: namespace/name (e.g. demo/pod-1)")
	ui := fs.String("ui", "", "serve the live dashboard on this address, e.g. 127.0.0.1:8080")
	resync := fs.Duration("resync", 30*time.Second, "the informer's resync period (0: none)")
	slow := fs.Duration("slow", time.Second, "how long each audit call takes once the dashboard makes it slow")
	duration := fs.Duration("duration", 0, "stop after this long (0: run until Ctrl-C)")
	color := fs.String("color", "auto", "colour: auto, always or never")
	langName := langFlag(fs, args)
	if err := parse(fs, args); err != nil {
		return err
	}
	lang, err := resolveLang(*langName, os.Getenv)
	if err != nil {
		return err
	}
	profs, err := parseProfiles(*profile)
	if err != nil || len(profs) != 1 {
		return errorf("--profile must be classic, inorder or current, not %q", *profile)
	}
	switch {
	case *rate < 0 || *rate > 1000:
		return errorf("--rate must be between 0 and 1000, got %v", *rate)
	case *pods < 0 || *pods > 10000:
		return errorf("--pods must be between 0 and 10000, got %d", *pods)
	case *resync != 0 && *resync < time.Second:
		return errorf("--resync must be 0 or at least 1s, got %v", *resync)
	case *follow != "" && strings.Count(*follow, "/") != 1:
		return errorf("--follow wants namespace/name, got %q", *follow)
	case *duration < 0 || *slow < 0:
		return errorf("--duration and --slow must not be negative")
	}
	pal, err := usePalette(*color, out)
	if err != nil {
		return err
	}
	if *ui != "" {
		if _, err := checkListen("--ui", *ui); err != nil {
			return err
		}
	}
	var ln net.Listener
	if *ui != "" {
		if ln, err = net.Listen("tcp", *ui); err != nil {
			return fmt.Errorf("--ui: %w", err)
		}
		defer ln.Close()
	}

	j := newJourney(out, pal)
	j.lang = lang
	switch {
	case *follow != "":
		j.setFilter(focus(showAll, *follow))
	case *traceOn:
		j.setFilter(showAll)
	}
	var hub *dashboard.Hub
	var extra []slog.Handler
	if ln != nil {
		hub = dashboard.NewHub()
		extra = append(extra, hub)
	}
	p, err := newPipeline(pipelineConfig{profile: profs[0], resync: *resync, sinks: []sink{j}, extra: extra})
	if err != nil {
		return err
	}
	defer p.close()
	actions := &runActions{p: p, slowDelay: *slow}
	for range *pods {
		if _, err := actions.CreatePod(); err != nil {
			return err
		}
	}
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	if err := p.start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	j.say("%s", messages.T(lang, "run.running", profs[0], p.url, *pods, *rate))

	var wg sync.WaitGroup
	defer wg.Wait()
	if ln != nil {
		srv := &http.Server{Handler: dashboard.New(dashboard.Options{Hub: hub, Actions: actions, Stats: p.stats,
			Title: "informer-lab · " + profs[0].String(), CheckHost: true, Lang: dashboardLang(*langName, lang)}),
			ReadHeaderTimeout: 10 * time.Second}
		wg.Go(func() { _ = srv.Serve(ln) })
		defer srv.Close() // closes the event streams too: their requests' contexts end
		j.say("%s", messages.T(lang, "run.dashboard", ln.Addr()))
	}
	if *rate > 0 {
		wg.Go(func() {
			t := time.NewTicker(time.Duration(float64(time.Second) / *rate))
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					actions.mutate(ctx, *pods)
				}
			}
		})
	}
	status := time.NewTicker(2 * time.Second)
	defer status.Stop()
	for {
		select {
		case <-ctx.Done():
			j.setFilter(nil)
			j.say("%s", messages.T(lang, "run.stopping", statusLine(p.stats())))
			return nil
		case <-status.C:
			if *follow == "" && !*traceOn {
				j.say("%s", statusLine(p.stats()))
			}
		}
	}
}

// statusLine is the one-line view of the pipeline that `demo run` prints every 2 s.
func statusLine(s dashboard.Stats) string {
	var ring []string
	for _, l := range s.Listeners {
		ring = append(ring, fmt.Sprintf("%s %d/%d", l.Name, l.Pending, l.Capacity))
	}
	return fmt.Sprintf("rv=%s pods=%d cache=%d fifo=%d workqueue=%d processing=%d reconciles=%d retries=%d events=%d relists=%d tombstones=%d rings[%s]",
		s.ServerRV, s.ServerObjects, s.IndexerSize, s.QueueLen, s.WorkqueueDepth, s.Processing, s.Reconciles, s.Retries,
		s.Events, s.Relists, s.Tombstones, strings.Join(ring, " "))
}

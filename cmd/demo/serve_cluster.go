package main

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/internal/dashboard"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// maxNodes bounds --nodes: the scale benchmark runs 100, and a typo should not start a
// million kubelets.
const maxNodes = 1000

// parseControllers reads --controllers as kube-controller-manager's flag: a comma-separated
// list of "*", "name", "-name", or "none". It returns the names that run.
func parseControllers(spec string) ([]string, error) {
	var parts []string
	for p := range strings.SplitSeq(spec, ",") {
		parts = append(parts, strings.TrimSpace(p))
	}
	names, err := controllers.Select(parts)
	if err != nil {
		return nil, errorf("--controllers: %v", err)
	}
	return names, nil
}

// startCluster runs the cluster's own controllers (and the simulated nodes) against srv. They
// are clients like any other: they reach the server over its listener, with the admin
// credentials of the kubeconfig serve writes (bearer token, client certificate, CA), so with
// --token, --client-certs or --authorization=RBAC they authenticate as kubernetes-admin in
// system:masters, which every authorizer allows, as kube-controller-manager's privileged
// identity is. logger receives the controllers' hops (nil: none).
func startCluster(ctx context.Context, srv *apiserver.Server, names []string, nodes int, logger *slog.Logger) (*controllers.Manager, error) {
	cfg, err := clientcmd.NewKubeconfig(srv.AdminKubeconfig()).ClientConfig("")
	if err != nil {
		return nil, fmt.Errorf("the controllers' client: %w", err)
	}
	cfg.UserAgent = "kube-controller-manager/informer-lab"
	spec := names
	if len(spec) == 0 {
		spec = []string{"none"}
	}
	m, err := controllers.Start(ctx, controllers.Options{Config: cfg, Controllers: spec, Nodes: nodes, Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("starting the controllers: %w", err)
	}
	return m, nil
}

// controllerHops counts, per controller, the hops it logs and the writes among them (hops
// with a cause attribute), for the dashboard. It is a sink of the controllers' trace.
type controllerHops struct {
	hops   map[string]*atomic.Int64
	writes map[string]*atomic.Int64
}

func newControllerHops(names []string) *controllerHops {
	c := &controllerHops{hops: map[string]*atomic.Int64{}, writes: map[string]*atomic.Int64{}}
	for _, n := range names {
		c.hops[n], c.writes[n] = new(atomic.Int64), new(atomic.Int64)
	}
	return c
}

func (c *controllerHops) observe(h *hop) {
	n, ok := c.hops[h.Component] // the maps are never written after newControllerHops
	if !ok {
		return
	}
	n.Add(1)
	if _, isWrite := h.Attr("cause"); isWrite {
		c.writes[h.Component].Add(1)
	}
}

// clusterStats is the dashboard's view of demo serve: the server's counters and each
// controller's queue depth and hops. A controller with several queues (the garbage
// collector's) shows their sum; a queue named after no controller gets its own row.
func clusterStats(srv *apiserver.Server, m *controllers.Manager, hops *controllerHops) dashboard.Stats {
	st := dashboard.Stats{ServerRV: fmt.Sprint(srv.ResourceVersion())}
	for k, n := range srv.RequestCounts() {
		switch k.Verb {
		case "list":
			st.Lists += int64(n)
		case "watch":
			st.Watches += int64(n)
		}
	}
	if m == nil {
		return st
	}
	depths := m.QueueDepths()
	rows := map[string]*dashboard.ControllerStats{}
	for _, n := range m.Names() {
		rows[n] = &dashboard.ControllerStats{Name: n, Hops: hops.hops[n].Load(), Writes: hops.writes[n].Load()}
	}
	for q, d := range depths {
		owner := q
		for n := range rows {
			if q == n || strings.HasPrefix(q, n+"_") || strings.HasPrefix(q, n+"-") {
				owner = n
			}
		}
		if rows[owner] == nil {
			rows[owner] = &dashboard.ControllerStats{Name: owner}
		}
		rows[owner].Depth += d
		st.WorkqueueDepth += d
	}
	for _, n := range slices.Sorted(maps.Keys(rows)) {
		st.Controllers = append(st.Controllers, *rows[n])
	}
	return st
}

// controllerTrace keeps the hops of the running controllers and drops the rest (their
// informers' reflector, fifo and workqueue hops, thousands a second on a busy cluster), so
// --trace and the dashboard show what each controller decided and wrote.
type controllerTrace struct {
	names     map[string]bool
	component string // set by WithAttrs
	next      slog.Handler
}

func newControllerTrace(names []string, next slog.Handler) slog.Handler {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return &controllerTrace{names: m, next: next}
}

func (f *controllerTrace) Enabled(ctx context.Context, l slog.Level) bool {
	return f.next.Enabled(ctx, l)
}

func (f *controllerTrace) Handle(ctx context.Context, r slog.Record) error {
	comp := f.component
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == trace.KeyComponent {
			comp = a.Value.String()
			return false
		}
		return true
	})
	if !f.names[comp] {
		return nil
	}
	return f.next.Handle(ctx, r)
}

func (f *controllerTrace) WithAttrs(attrs []slog.Attr) slog.Handler {
	g := *f
	for _, a := range attrs {
		if a.Key == trace.KeyComponent {
			g.component = a.Value.String()
		}
	}
	g.next = f.next.WithAttrs(attrs)
	return &g
}

func (f *controllerTrace) WithGroup(name string) slog.Handler {
	g := *f
	g.next = f.next.WithGroup(name)
	return &g
}

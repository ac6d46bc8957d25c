package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/client/restmapper"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/msgcat"
	"github.com/informer-lab/informer-lab/rest"
	"github.com/informer-lab/informer-lab/store"
)

// shortNames are the kubectl short names of the core kinds we know.
var shortNames = map[string]string{"po": "pods", "pod": "pods", "cm": "configmaps", "configmap": "configmaps",
	"ns": "namespaces", "namespace": "namespaces", "deploy": "deployments.apps", "deployment": "deployments.apps"}

// parseResource reads --resource the ways kubectl users write it: "pods" or "po",
// "deployments.apps" (version v1), "deployments.v1.apps", or "apps/v1/deployments".
func parseResource(s string) (api.GroupVersionResource, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if long, ok := shortNames[s]; ok {
		s = long
	}
	if s == "" {
		return api.GroupVersionResource{}, errorf("--resource must not be empty")
	}
	if parts := strings.Split(s, "/"); len(parts) > 1 {
		switch len(parts) {
		case 2: // v1/pods
			return api.GroupVersionResource{Version: parts[0], Resource: parts[1]}, nil
		case 3: // apps/v1/deployments
			return api.GroupVersionResource{Group: parts[0], Version: parts[1], Resource: parts[2]}, nil
		}
		return api.GroupVersionResource{}, errorf("--resource %q: want resource, resource.group or group/version/resource", s)
	}
	res, after, found := strings.Cut(s, ".")
	if !found {
		return api.GroupVersionResource{Version: "v1", Resource: res}, nil
	}
	version, group := "v1", after
	if v, g, ok := strings.Cut(after, "."); ok && len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		version, group = v, g
	}
	return api.GroupVersionResource{Group: group, Version: version, Resource: res}, nil
}

// resolveResource finds what --resource names the way kubectl does, from discovery: "deploy",
// "deployments", "sts", "leases.coordination.k8s.io". A group/version/resource is taken as
// it is, and so is any name when discovery cannot be read (the first request then says why).
func resolveResource(ctx context.Context, cfg *rest.Config, text string) (api.GroupVersionResource, error) {
	gvr, err := parseResource(text)
	if err != nil || strings.Contains(text, "/") {
		return gvr, err
	}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return gvr, nil
	}
	m, err := restmapper.NewDiscoveryRESTMapperForClient(ctx, dc)
	if err != nil {
		return gvr, nil
	}
	mapping, err := m.MappingFor(strings.TrimSpace(strings.ToLower(text)))
	if err != nil {
		return gvr, errorf("--resource %q: %v", text, err)
	}
	return mapping.Resource, nil
}

// watchConfig builds the client Config from --kubeconfig/--context or --server/--token.
func watchConfig(kubeconfig, kubeContext, server, token string, insecure bool) (*rest.Config, string, error) {
	var cfg *rest.Config
	ns := ""
	if server == "" {
		k, err := clientcmd.LoadKubeconfig(kubeconfig)
		if err != nil {
			return nil, "", err
		}
		if token != "" {
			k = withToken(k, kubeContext, token)
		}
		if cfg, err = k.ClientConfig(kubeContext); err != nil {
			return nil, "", err
		}
		ns, _ = k.Namespace(kubeContext)
	} else {
		cfg = &rest.Config{Host: server}
	}
	if token != "" {
		cfg.BearerToken = token
	}
	if insecure {
		cfg.Insecure, cfg.CAData = true, nil
	}
	return cfg, ns, nil
}

// withToken returns a copy of k whose context (kubeContext, else the current one)
// authenticates with token alone, while the cluster's server and CA still come from the
// file. --token thus replaces whatever the kubeconfig's user holds: a client certificate, an
// exec plugin, or a field clientcmd refuses (auth-provider, say). kubectl --token instead
// merges the token into the user, so a client certificate is still presented; both skip the
// exec plugin once a token is set.
func withToken(k *clientcmd.Kubeconfig, kubeContext, token string) *clientcmd.Kubeconfig {
	name := kubeContext
	if name == "" {
		name = k.CurrentContext
	}
	c, ok := k.Contexts[name]
	if !ok || c.AuthInfo == "" {
		return k // ClientConfig reports the missing context; no user means the token is added later
	}
	out := *k
	out.AuthInfos = maps.Clone(k.AuthInfos)
	out.AuthInfos[c.AuthInfo] = &api.AuthInfo{Token: token}
	return &out
}

func cmdWatch(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlags("watch", out)
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig file (default $KUBECONFIG or ~/.kube/config)")
	kubeContext := fs.String("context", "", "kubeconfig context (default its current-context)")
	server := fs.String("server", "", "apiserver URL, instead of a kubeconfig")
	token := fs.String("token", "", "bearer token (e.g. the output of kubectl create token NAME); replaces the kubeconfig user's "+
		"client certificate or exec plugin")
	insecure := fs.Bool("insecure-skip-tls-verify", false, "do not check the server's certificate")
	resource := fs.String("resource", "pods", "what to watch: pods, configmaps, namespaces, deployments.apps, group/version/resource …")
	var namespace string
	fs.StringVar(&namespace, "namespace", "", "only this namespace (default: all namespaces)")
	fs.StringVar(&namespace, "n", "", "shorthand for --namespace")
	profile := fs.String("profile", "current", "informer profile: classic, inorder or current")
	traceOn := fs.Bool("trace", false, "print every hop of the pipeline, not just the handler's calls")
	color := fs.String("color", "auto", "colour: auto, always or never")
	timeout := fs.Duration("request-timeout", 30*time.Second,
		"bound on each request other than a watch, the first one included (0: none)")
	langName := langFlag(fs, args)
	if err := parse(fs, args); err != nil {
		return err
	}
	lang, err := resolveLang(*langName, os.Getenv)
	if err != nil {
		return err
	}
	if *timeout < 0 {
		return errorf("--request-timeout must not be negative, got %v", *timeout)
	}
	if err := checkServerURL(*server); err != nil {
		return err
	}
	if _, err := parseResource(*resource); err != nil {
		return err
	}
	prof, ok := informer.ParseProfile(*profile)
	if !ok {
		return errorf("--profile must be classic, inorder or current, not %q", *profile)
	}
	pal, err := usePalette(*color, out)
	if err != nil {
		return err
	}
	cfg, _, err := watchConfig(*kubeconfig, *kubeContext, *server, *token, *insecure)
	if err != nil {
		return err
	}
	j := newJourney(out, pal)
	if *traceOn {
		j.setFilter(showAll)
	} else {
		j.setFilter(problems)
	}
	logger := slog.New(newTap(j))
	cfg.Logger = logger
	cfg.UserAgent = "informer-lab-demo-watch"
	cfg.Timeout = *timeout
	rc, err := rest.RESTClientFor(cfg)
	if err != nil {
		return err
	}
	gvr, err := resolveResource(ctx, cfg, *resource)
	if err != nil {
		return err
	}
	where := messages.T(lang, "watch.all")
	if namespace != "" {
		where = messages.T(lang, "watch.ns", namespace)
	}
	// One small request first, so a wrong URL, token or resource is a clear error rather than
	// a reflector retrying forever with backoff.
	// Config.Timeout bounds it (a server that accepts the connection and never answers).
	if _, err := rc.Resource(gvr).Namespace(namespace).List(ctx, api.ListOptions{Limit: 1}); err != nil {
		if ctx.Err() != nil {
			return nil // Ctrl-C before the server answered
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("cannot list %s at %s: no answer within --request-timeout=%v", resourceName(gvr), cfg.Host, *timeout)
		}
		return fmt.Errorf("cannot list %s at %s: %w", resourceName(gvr), cfg.Host, err)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts := []informer.SharedInformerOption{informer.WithProfile(prof), informer.WithLogger(logger)}
	if namespace != "" {
		opts = append(opts, informer.WithNamespace(namespace))
	}
	factory := informer.NewSharedInformerFactoryWithOptions(informer.NewRESTSource(rc), 0, opts...)
	defer factory.Shutdown()
	defer cancel() // runs first: the informers stop, then Shutdown waits for them
	gi, err := factory.ForResource(gvr)
	if err != nil {
		return err
	}
	inf := gi.Informer()
	printer := &watchPrinter{j: j, pal: pal, cache: inf.GetIndexer(), lang: lang}
	reg, err := inf.AddEventHandler(printer)
	if err != nil {
		return err
	}
	j.say("%s", messages.T(lang, "watch.watching", resourceName(gvr), where, cfg.Host, prof))
	factory.StartWithContext(ctx)
	// The registration syncs once the handler has returned from every initial-list add.
	if !informer.WaitFor(ctx, resourceName(gvr), inf.HasSyncedChecker(), reg.HasSyncedChecker()) {
		return nil // stopped before the first sync
	}
	j.say("%s", messages.T(lang, "watch.synced", len(inf.GetIndexer().ListKeys()), resourceName(gvr), inf.LastSyncResourceVersion()))
	<-ctx.Done()
	return nil
}

// checkServerURL refuses a --server that cannot name an apiserver: a scheme other than http
// or https, or no host. A bare host:port is fine (https is assumed, as kubectl does).
func checkServerURL(s string) error {
	if s == "" {
		return nil
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return errorf("--server %q is not a URL: %v", s, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return errorf("--server %q: the scheme must be http or https", s)
	case u.Host == "":
		return errorf("--server %q names no host", s)
	}
	return nil
}

// problems is the filter of `demo watch` without --trace: warnings and errors, a watch the
// network cut, a watch that ended for a reason other than a clean close (410 Gone, say), and
// every backoff, so a server that goes away is never silent while the reflector retries.
func problems(h *hop, _ bool) bool {
	switch {
	case h.Level >= slog.LevelWarn:
		return true
	case h.Is("reflector", "backoff"):
		return true
	case h.Is("listwatch", "watch-close"):
		r := h.Text("reason")
		return r == "disconnected" || r == "error"
	case h.Is("reflector", "watch-end"):
		r := h.Text("reason")
		return r != "" && r != "closed" && r != "stopped"
	}
	return false
}

// resourceName is "pods" or "deployments.apps".
func resourceName(gvr api.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Resource
	}
	return gvr.Resource + "." + gvr.Group
}

// watchPrinter is the handler of `demo watch`: one line per call, with the cache's size
// (which already includes the change: the cache is written before handlers are told).
type watchPrinter struct {
	j     *journey
	pal   palette
	cache store.Indexer
	lang  msgcat.Lang
}

func (w *watchPrinter) line(verb, color string, obj any, note string) {
	key, rv, _ := store.KeyAndResourceVersion(obj)
	w.j.say("%s %-40s rv=%-8s cache=%d%s", w.pal.paint(color, fmt.Sprintf("%-6s", verb)), key, rv, len(w.cache.ListKeys()), note)
}

func (w *watchPrinter) OnAdd(obj any, isInInitialList bool) {
	note := ""
	if isInInitialList {
		note = "  " + messages.T(w.lang, "watch.initial")
	}
	w.line("add", w.pal.green, obj, note)
}

func (w *watchPrinter) OnUpdate(oldObj, newObj any) {
	_, oldRV, _ := store.KeyAndResourceVersion(oldObj)
	_, newRV, _ := store.KeyAndResourceVersion(newObj)
	note := ""
	if oldRV == newRV {
		note = "  " + messages.T(w.lang, "watch.resync")
	}
	w.line("update", w.pal.yellow, newObj, note)
}

func (w *watchPrinter) OnDelete(obj any) {
	note := ""
	if _, ok := obj.(store.DeletedFinalStateUnknown); ok {
		note = "  " + messages.T(w.lang, "watch.tombstone")
	}
	w.line("delete", w.pal.red, obj, note)
}

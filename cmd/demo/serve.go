package main

import (
	"context"
	cryptorand "crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/clientcmd"
	"github.com/informer-lab/informer-lab/controllers"
	"github.com/informer-lab/informer-lab/internal/dashboard"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// serveReady is what `demo serve` tells its caller once it is ready: the tests use it instead
// of reading the output.
type serveReady struct {
	url        string
	kubeconfig string
	server     *apiserver.Server
	// manager runs the cluster's controllers; nil with --controllers=none.
	manager *controllers.Manager
	// ui is the dashboard's URL, empty without --ui.
	ui string
}

func cmdServe(ctx context.Context, args []string, out io.Writer, ready func(serveReady)) (err error) {
	fs := newFlags("serve", out)
	listen := fs.String("listen", "127.0.0.1:6443", "address to serve on (host:port; port 0 picks a free one)")
	seed := fs.Int("seed-pods", 3, "pods to create in namespace default at start")
	kubeconfig := fs.String("kubeconfig", defaultKubeconfigPath(), "where to write a kubeconfig for this server: always a fresh 0600 file, never through a symbolic link (the default is in a per-user directory)")
	token := fs.String("token", "", "require this bearer token (a wrong or missing one gets 401); implies --tls")
	tlsOn := fs.Bool("tls", false, "serve https with a self-signed CA, written into the kubeconfig and beside it as FILE.ca.crt")
	clientCerts := fs.Bool("client-certs", false, "require a client certificate of a CA made at start-up, as kind and kubeadm do: the kubeconfig gets an admin one (CN kubernetes-admin, O system:masters), also written as FILE.client.crt and FILE.client.key; implies --tls")
	authorization := fs.String("authorization", apiserver.AuthorizationAlwaysAllow, "authorization mode: AlwaysAllow (every request passes) or RBAC (what the roles and bindings grant; the bootstrap roles are created at start; the kubeconfig's user is in system:masters); RBAC without --token or --client-certs makes a random admin token, as --token would")
	faults := fs.Bool("faults", true, "serve the fault API as JSON at /debug/faults")
	traceOn := fs.Bool("trace", false, "print the server's trace (one line per request, write and watch event) and every controller's hops, each write with its cause")
	ctrlSpec := fs.String("controllers", "*", "the cluster's controllers, as kube-controller-manager's flag: \"*\" (every default one), \"name\" to add one, \"-name\" to leave one out, comma-separated (\"*,-job\"), or \"none\" for the apiserver alone, as envtest runs it; known: "+strings.Join(controllers.Known(), ", "))
	nodeCount := fs.Int("nodes", 3, "simulated nodes to register, each with its kubelet (0: none)")
	ui := fs.String("ui", "", "serve the dashboard on this address, e.g. 127.0.0.1:8080: each controller's queue depth and hops, the trace and the fault buttons")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process to FILE from start-up until it stops (read it with go tool pprof)")
	var crdFiles stringList
	fs.Var(&crdFiles, "crd", "a CustomResourceDefinition manifest (YAML or JSON, one or more documents) to create at start; repeatable")
	langName := langFlag(fs, args)
	if err := parse(fs, args); err != nil {
		return err
	}
	lang, err := resolveLang(*langName, os.Getenv)
	if err != nil {
		return err
	}
	tr := func(id string, args ...any) string { return messages.T(lang, id, args...) }
	crds, err := readCRDs(crdFiles)
	if err != nil {
		return err
	}
	ctrlNames, err := parseControllers(*ctrlSpec)
	if err != nil {
		return err
	}
	if *nodeCount < 0 || *nodeCount > maxNodes {
		return errorf("--nodes must be between 0 and %d, got %d", maxNodes, *nodeCount)
	}
	if *ui != "" {
		if _, err := checkListen("--ui", *ui); err != nil {
			return err
		}
	}
	if *seed < 0 || *seed > 10000 {
		return errorf("--seed-pods must be between 0 and 10000, got %d", *seed)
	}
	host, err := checkListen("--listen", *listen)
	if err != nil {
		return err
	}
	if *kubeconfig == "" {
		return errorf("--kubeconfig must name a file")
	}
	if *authorization == apiserver.AuthorizationRBAC && *token == "" && !*clientCerts {
		// RBAC is shown with other users' tokens, which kubectl sends only over https to a
		// server that authenticates: the kubeconfig's user gets a random admin token.
		t, err := randomToken()
		if err != nil {
			return err
		}
		*token = t
	}
	opts := apiserver.Options{BearerToken: *token, ClientCertAuth: *clientCerts, DebugFaults: *faults, Authorization: *authorization, Bootstrap: true}
	if *traceOn {
		opts.Logger = trace.NewPlainLogger(out)
	}
	if err := opts.Validate(); err != nil {
		return errorf("%v", err)
	}
	// kubectl (client-go) sends a bearer token only over https, so a token needs TLS; client
	// certificates exist only in a TLS handshake.
	useTLS := *tlsOn || *token != "" || *clientCerts
	caFile, certFile, keyFile := "", "", ""
	if useTLS {
		caFile = *kubeconfig + ".ca.crt"
	}
	if *clientCerts {
		certFile, keyFile = *kubeconfig+".client.crt", *kubeconfig+".client.key"
	}
	// Refuse a bad target before listening, and before writing any of the files.
	if err := prepareCredentialDir(*kubeconfig, caFile, certFile, keyFile); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer func() {
			if perr := stopProfile(); err == nil && perr != nil {
				err = fmt.Errorf("--cpuprofile: %w", perr)
			}
		}()
	}
	srv := apiserver.New(opts)
	defer srv.Close()
	start := srv.Start
	if useTLS {
		start = srv.StartTLS
	}
	url, err := start(*listen)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", *listen, err)
	}
	// With the cluster's scheduler the seeded pods are left to it (and to the kubelets), as bare
	// pods on a real cluster are; without it they are made Running on the demo's node names.
	if err := seedServer(ctx, srv, *seed, !slices.Contains(ctrlNames, "scheduler")); err != nil {
		return err
	}
	for _, crd := range crds {
		if _, err := srv.Create(ctx, "customresourcedefinitions", "", crd.obj); err != nil {
			return fmt.Errorf("--crd %s: %w", crd.file, err)
		}
	}
	// The kubeconfig in YAML, as kubectl writes one; the file itself is written below, 0600,
	// created exclusively.
	kc, err := clientcmd.Write(srv.AdminKubeconfig())
	if err != nil {
		return err
	}
	files := []credentialFile{{"kubeconfig", *kubeconfig, kc}}
	if useTLS {
		files = append(files, credentialFile{"CA certificate", caFile, srv.CACertPEM()})
	}
	// The admin certificate and key beside the kubeconfig too, for curl.
	if *clientCerts {
		cert, key := srv.ClientCertificatePEM()
		files = append(files, credentialFile{"client certificate", certFile, cert}, credentialFile{"client key", keyFile, key})
	}
	if err := writeCredentialFiles(files); err != nil {
		return err
	}
	url = strings.TrimSpace(url)

	var ln net.Listener
	if *ui != "" {
		if ln, err = net.Listen("tcp", *ui); err != nil {
			return fmt.Errorf("--ui: %w", err)
		}
		defer ln.Close()
	}
	// The controllers' hops go to the dashboard (its counters and its stream) and to --trace;
	// with neither, the controllers get no logger and build no hop at all.
	hops := newControllerHops(ctrlNames)
	var hub *dashboard.Hub
	var sinks fanout
	if ln != nil {
		hub = dashboard.NewHub()
		sinks = append(sinks, newTap(hops), hub)
	}
	if *traceOn {
		sinks = append(sinks, opts.Logger.Handler())
	}
	var logger *slog.Logger
	if len(sinks) > 0 {
		logger = slog.New(newControllerTrace(ctrlNames, sinks))
	}
	var mgr *controllers.Manager
	if len(ctrlNames) > 0 || *nodeCount > 0 {
		if mgr, err = startCluster(ctx, srv, ctrlNames, *nodeCount, logger); err != nil {
			if ctx.Err() != nil {
				// Interrupted while the controllers' caches synced: a clean stop, not a failure.
				fmt.Fprintf(out, "stopped\n")
				return nil
			}
			return err
		}
		defer mgr.Stop()
	}
	uiURL := ""
	var wg sync.WaitGroup
	defer wg.Wait()
	if ln != nil {
		hs := &http.Server{Handler: dashboard.New(dashboard.Options{Hub: hub, Actions: &serveActions{srv: srv},
			Stats: func() dashboard.Stats { return clusterStats(srv, mgr, hops) },
			Title: "informer-lab · cluster", CheckHost: true, Lang: dashboardLang(*langName, lang)}),
			ReadHeaderTimeout: 10 * time.Second}
		wg.Go(func() { _ = hs.Serve(ln) })
		defer hs.Close() // closes the event streams too: their requests' contexts end
		uiURL = "http://" + ln.Addr().String() + "/"
	}

	fmt.Fprintln(out, tr("serve.serving", url))
	fmt.Fprintln(out, tr("serve.seeded", *seed))
	for _, crd := range crds {
		fmt.Fprintln(out, tr("serve.crd", crd.obj.GetName(), crd.file))
	}
	fmt.Fprintln(out, tr("serve.kubeconfig", *kubeconfig))
	if len(ctrlNames) > 0 {
		fmt.Fprintln(out, tr("serve.controllers", strings.Join(ctrlNames, ",")))
	} else {
		fmt.Fprintln(out, tr("serve.controllers.none"))
	}
	switch {
	case *nodeCount > 0 && !slices.Contains(ctrlNames, "kubelet"):
		fmt.Fprintln(out, tr("serve.nodes.none", *nodeCount))
	default:
		fmt.Fprintln(out, tr("serve.nodes", *nodeCount))
	}
	if uiURL != "" {
		fmt.Fprintln(out, tr("serve.dashboard", uiURL))
	}
	if caFile != "" {
		fmt.Fprintln(out, tr("serve.tls", caFile))
	}
	switch {
	case *clientCerts && *token != "":
		fmt.Fprintln(out, tr("serve.auth.both", apiserver.AdminCommonName, apiserver.AdminGroup))
	case *clientCerts:
		fmt.Fprintln(out, tr("serve.auth.cert", apiserver.AdminCommonName, apiserver.AdminGroup))
	case *token != "":
		fmt.Fprintln(out, tr("serve.auth.token"))
	default:
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			fmt.Fprintln(out, tr("serve.warning", host))
		}
	}
	if certFile != "" {
		fmt.Fprintln(out, tr("serve.client", certFile, keyFile))
	}
	if *authorization == apiserver.AuthorizationRBAC {
		fmt.Fprintln(out, tr("serve.authz"))
	}
	fmt.Fprintln(out, tr("serve.try"))
	fmt.Fprintf(out, "  kubectl --kubeconfig %s get pods\n", *kubeconfig)
	if slices.Contains(ctrlNames, "deployment") {
		fmt.Fprintf(out, "  kubectl --kubeconfig %s create deployment web --image=nginx --replicas=3\n", *kubeconfig)
	}
	fmt.Fprintf(out, "  go run ./cmd/demo watch --kubeconfig %s\n", *kubeconfig)
	if *faults {
		auth := ""
		if caFile != "" {
			auth += " --cacert " + caFile
		}
		if certFile != "" {
			auth += " --cert " + certFile + " --key " + keyFile
		} else if *token != "" {
			auth += " -H 'Authorization: Bearer " + *token + "'"
		}
		fmt.Fprintf(out, "  curl -s%s %s/debug/faults\n", auth, url)
		fmt.Fprintf(out, "  curl -s%s -H 'Content-Type: application/json' -d '{\"action\":\"drop-next-events\",\"count\":1}' %s/debug/faults\n", auth, url)
		fmt.Fprintf(out, "  curl -s%s -H 'Content-Type: application/json' -d '{\"action\":\"compact\"}' %s/debug/faults\n", auth, url)
		fmt.Fprintf(out, "  curl -s%s -H 'Content-Type: application/json' -d '{\"action\":\"close-all-watches\"}' %s/debug/faults\n", auth, url)
	}
	fmt.Fprintln(out, tr("serve.stop"))
	if ready != nil {
		ready(serveReady{url: url, kubeconfig: *kubeconfig, server: srv, manager: mgr, ui: uiURL})
	}
	<-ctx.Done()
	if mgr != nil {
		mgr.Stop() // before the server, so no controller sees its server vanish
	}
	srv.Close()
	fmt.Fprintln(out, tr("serve.stopped"))
	return nil
}

// checkListen refuses an address that cannot be listened on whatever the machine: not
// host:port, or a port that is not a number from 0 to 65535. It returns the host.
func checkListen(flagName, addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", errorf("%s must be host:port, got %q: %v", flagName, addr, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil && port != "" {
		return "", errorf("%s %q: the port must be a number from 0 to 65535", flagName, addr)
	}
	return host, nil
}

// seedServer creates n pods and a configmap in namespace default, through the Go API. The
// pods are Running on the demo's node names when running is set, else Pending and unscheduled.
func seedServer(ctx context.Context, srv *apiserver.Server, n int, running bool) error {
	for i := 1; i <= n; i++ {
		pod := newPod("web-"+strconv.Itoa(i), nil)
		if running {
			pod.Spec.NodeName = pickNode("default/" + pod.Name)
			pod.Status.Phase = api.PodRunning
		}
		if _, err := srv.Create(ctx, "pods", "default", pod); err != nil {
			return fmt.Errorf("seeding pod %s: %w", pod.Name, err)
		}
	}
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "app-config"}, Data: map[string]string{"greeting": "hello"}}
	if _, err := srv.Create(ctx, "configmaps", "default", cm); err != nil {
		return fmt.Errorf("seeding configmap: %w", err)
	}
	srv.ResetRequestCounts()
	return nil
}

// randomToken is a fresh bearer token: 16 random bytes in hex.
func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := cryptorand.Read(b); err != nil {
		return "", fmt.Errorf("making a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

package apiserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/admission"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/core"
	"github.com/informer-lab/informer-lab/apiserver/internal/serviceaccount"
	"github.com/informer-lab/informer-lab/apiserver/storage"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// Server is the simulated kube-apiserver: versioned storage with one global resourceVersion,
// a bounded event history, watch fan-out, the HTTP handlers of the wire spec and a fault API.
// It mirrors the parts of k8s.io/apiserver (genericapiserver, endpoints/handlers, storage/
// cacher, storage/etcd3) that clients can observe. Every method is safe for concurrent use.
type Server struct {
	opts   Options
	clock  clock.Clock
	log    *slog.Logger
	scheme *api.Scheme

	// store holds every object, the revision, the history and the watchers (package storage).
	store *storage.Store
	// table is the set of served resources, reg the generic store that writes them
	// (internal/registry), admission the chain it runs (internal/admission).
	table *registry.Table
	reg   *registry.Store

	faults  faults
	counts  requestCounts
	version api.VersionInfo

	life    *lifecycle
	ep      *endpoints // the HTTP handlers and the Go API behind the exported verbs
	handler http.Handler
	// self is the address and identity the start-up objects advertise (Options.Bootstrap).
	self advertised
}

// New mirrors genericapiserver's New + PrepareRun for our single process: a ready Server with
// the namespaces default, kube-system and kube-public (NS3). Zero options take their defaults
// and negative ones that mean off turn off (Options). New panics when opts.Validate fails:
// such options are a programming error, and options from a user must be validated first.
func New(opts Options) *Server {
	if err := opts.Validate(); err != nil {
		panic(err)
	}
	opts = opts.withDefaults()
	s := &Server{
		opts:    opts,
		clock:   clock.Or(opts.Clock),
		log:     opts.Logger,
		scheme:  api.DefaultScheme,
		life:    &lifecycle{closing: make(chan struct{})},
		version: newVersionInfo(opts.Version),
	}
	s.store = storage.New(storage.Config{
		HistorySize: opts.HistorySize, WatchBufferSize: opts.WatchBufferSize,
		HistoryBytes: opts.HistoryBytes, QuotaBytes: opts.StoreQuotaBytes,
		MaxOpenWatches: opts.MaxOpenWatches, TooLargeResourceVersionWait: opts.TooLargeResourceVersionWait,
		Clock: s.clock, Logger: opts.Logger, Codec: storedCodec{}, Hooks: &s.faults,
	})
	ips, _ := core.NewClusterIPAllocator(opts.ServiceClusterIPRange) // Validate checked it
	s.table = registry.NewTable(s.store, ips)
	s.table.Log = opts.Logger
	s.reg = &registry.Store{Storage: s.store, Table: s.table, Admission: admission.NewChain(admission.Config{StrictServiceAccounts: opts.StrictServiceAccounts, WebhookFaults: &s.faults.webhooks}), Clock: s.clock, FieldManagers: buildFieldManager,
		NamespaceDeletionInServer: opts.NamespaceDeletion == NamespaceDeletionInServer}
	s.reg.CRDFinalizer.Background = s.life.background
	s.ep = &endpoints{
		opts: opts, clock: s.clock, log: s.log, scheme: s.scheme, version: s.version,
		store: s.store, table: s.table, reg: s.reg, faults: &s.faults, counts: &s.counts, life: s.life,
		debug: debugFaults{s},
	}
	tokens, err := serviceaccount.New(ServiceAccountIssuer, []string{ServiceAccountIssuer})
	if err != nil {
		panic(err) // the system's random source failed
	}
	s.ep.tokens = tokens
	s.ep.authorizer = s.ep.newAuthorizer()
	s.reg.Authorize = policyAuthorizer(s.ep.authorizer)
	s.counts.reset()
	for _, ri := range opts.Resources {
		if err := s.Register(ri); err != nil {
			panic(err)
		}
	}
	postStart{s}.systemNamespaces()
	if opts.Bootstrap {
		postStart{s}.bootstrap(ips)
	}
	if s.ep.authorizer.Mode == AuthorizationRBAC {
		// The rbac/bootstrap-roles hook runs only when RBAC authorizes (authorization.go).
		postStart{s}.ensureRBACPolicy()
	}
	s.counts.reset()
	s.handler = s.ep.buildHandler()
	return s
}

// Register adds a kind to serve under /apis/{group}/{version} (or /api/v1 for the core
// group), stored as Unstructured. It mirrors what creating a CustomResourceDefinition does.
// Registering a resource name twice in one group is an error.
func (s *Server) Register(ri ResourceInfo) error {
	_, err := s.table.Register(ri)
	return err
}

// Resources returns the served resources, built-ins first, for discovery and demos.
func (s *Server) Resources() []ResourceInfo { return s.table.Infos() }

// Handler returns the HTTP handler serving the whole API. It mirrors the handler chain that
// genericapiserver builds (panic recovery, request info, the REST handlers).
func (s *Server) Handler() http.Handler { return s.handler }

// Start serves Handler over plain HTTP on addr ("" or ":0" for a free port). A missing host
// binds 127.0.0.1: without Options.BearerToken anyone who reaches the port may do anything,
// so the server stays on loopback unless asked otherwise (and then logs a warning). It
// returns the base URL, e.g. "http://127.0.0.1:41234". Note that kubectl never sends a
// kubeconfig's token over plain HTTP: with a BearerToken, use StartTLS. With
// Options.ClientCertAuth Start fails: client certificates exist only in a TLS handshake.
func (s *Server) Start(addr string) (string, error) { return s.start(addr, false) }

func (s *Server) start(addr string, useTLS bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if addr == "" {
		host, port, err = "", "0", nil
	}
	if err != nil {
		return "", fmt.Errorf("apiserver: bad listen address %q: %w", addr, err)
	}
	if s.opts.ClientCertAuth && !useTLS {
		return "", errors.New("apiserver: Options.ClientCertAuth needs TLS: clients present certificates only in a TLS handshake, so serve with StartTLS, not Start")
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" {
		// A security warning is worth breaking "nil Logger is silent" for: it goes to
		// slog.Default (stderr) when no Logger is set.
		lg := s.log
		if lg == nil {
			lg = slog.Default()
		}
		if s.opts.BearerToken == "" && !s.opts.ClientCertAuth {
			lg.Warn("apiserver binds a non-loopback address without authentication: anyone who can reach it may do anything", "addr", host)
		} else {
			lg.Warn("apiserver binds a non-loopback address", "addr", host)
		}
	}
	if s.opts.BearerToken != "" && !useTLS && s.log != nil {
		s.log.Warn("apiserver: kubectl does not send a bearer token over plain HTTP; use StartTLS")
	}
	var tlsConfig *tls.Config
	var caPEM []byte
	var clientCA *clientCA
	if useTLS {
		if tlsConfig, caPEM, err = selfSignedTLS(host); err != nil {
			return "", err
		}
	}
	if useTLS && s.opts.ClientCertAuth {
		if clientCA, err = newClientCA(); err != nil {
			return "", err
		}
		// As kube-apiserver's secure serving does: ask for a certificate, naming the CA
		// clients should pick one from, but verify nothing in the handshake (authenticate does).
		tlsConfig.ClientAuth = tls.RequestClientCert
		tlsConfig.ClientCAs = clientCA.pool
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return "", err
	}
	scheme := "http"
	if tlsConfig != nil {
		ln = tls.NewListener(ln, tlsConfig)
		scheme = "https"
	}
	srv := &http.Server{
		Handler: s.handler,
		// No ReadTimeout or WriteTimeout: watches are long-lived (W20), and a ReadTimeout
		// would cancel their contexts. Bodies get BodyReadTimeout in readBody instead.
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		MaxHeaderBytes:    s.opts.MaxHeaderBytes,
	}
	if tlsConfig != nil {
		// Every client that does not trust the self-signed certificate makes a handshake
		// error: keep them off stderr (they go to the Logger at Debug).
		srv.ErrorLog = log.New(io.Discard, "", 0)
		if s.log != nil {
			srv.ErrorLog = slog.NewLogLogger(s.log.Handler(), slog.LevelDebug)
		}
	}
	s.life.mu.Lock()
	if s.life.closed || s.life.httpSrv != nil {
		s.life.mu.Unlock()
		ln.Close()
		return "", errors.New("apiserver: server already started or closed")
	}
	s.life.httpSrv = srv
	s.life.host = host
	s.life.caPEM = caPEM
	if clientCA != nil {
		s.life.clientCA.Store(clientCA)
	}
	s.life.url = scheme + "://" + ln.Addr().String()
	url := s.life.url
	s.life.wg.Add(1)
	s.life.mu.Unlock()
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		postStart{s}.readvertise(a.Port) // before any client can look
	}
	go func() {
		defer s.life.wg.Done()
		_ = srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return url, nil
}

// Close ends every watch, stops the HTTP server and waits for every goroutine the server
// started. Requests after Close get 503. It is safe to call more than once.
func (s *Server) Close() {
	s.life.mu.Lock()
	already := s.life.closed
	s.life.closed = true
	srv := s.life.httpSrv
	s.life.mu.Unlock()
	if !already {
		close(s.life.closing)
		s.store.Close()
		if srv != nil {
			_ = srv.Close()
		}
	}
	s.life.wg.Wait()
}

// lifecycle is the server's open or closed state, its in-flight operations and its
// listener, shared by the Server and its endpoints.
type lifecycle struct {
	// mu guards closed, the WaitGroup's Add and the listener fields, so that Close cannot
	// race a new request.
	mu      sync.Mutex
	closed  bool
	closing chan struct{} // closed by Close
	wg      sync.WaitGroup
	httpSrv *http.Server
	url     string
	host    string // the host Start or StartTLS was asked to bind, one of the server's names
	caPEM   []byte // the self-signed certificate of StartTLS
	// clientCA is the CA of Options.ClientCertAuth, set once by StartTLS; authenticate
	// reads it without a lock.
	clientCA atomic.Pointer[clientCA]
}

// begin registers one in-flight operation; it fails once the server is closed.
func (l *lifecycle) begin() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return api.NewServiceUnavailable("the server is shutting down")
	}
	l.wg.Add(1)
	return nil
}

// background runs fn in a goroutine of the server's own, as genericapiserver runs its
// post-start hooks' controllers (the CRD finalizer): Close cancels ctx and waits for fn. It
// reports false, running nothing, once the server is closed.
func (l *lifecycle) background(fn func(ctx context.Context)) bool {
	if l.begin() != nil {
		return false
	}
	go func() {
		defer l.wg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-l.closing:
				cancel()
			case <-ctx.Done():
			}
		}()
		fn(ctx)
	}()
	return true
}

// certPEM returns the StartTLS certificate, nil before StartTLS.
func (l *lifecycle) certPEM() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.caPEM
}

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
	"strings"
	"sync"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
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
	// tableMu guards the table of served resources: resources and byGV. It is taken after
	// the store's lock where both are held (a CRD's write serves or drops its resource).
	tableMu   sync.RWMutex
	resources map[string]*resource   // by "group/resource"
	byGV      map[string][]*resource // by "group/version", in registration order
	// namespaces is the namespaces resource, which the namespace lifecycle reads.
	namespaces *resource

	faults  faults
	counts  requestCounts
	version api.VersionInfo

	// lifeMu guards closed and the WaitGroup's Add, so that Close cannot race a new request.
	lifeMu  sync.Mutex
	closed  bool
	closing chan struct{} // closed by Close
	wg      sync.WaitGroup
	httpSrv *http.Server
	url     string
	host    string // the host Start or StartTLS was asked to bind, one of the server's names
	caPEM   []byte // the self-signed certificate of StartTLS
	handler http.Handler

	// clientCA is the CA of Options.ClientCertAuth, set once by StartTLS; authenticate
	// reads it without a lock.
	clientCA atomic.Pointer[clientCA]
	// openAPICache holds each group-version's OpenAPI document by the kinds it served when
	// built (openapi.go).
	openAPICache sync.Map
	// serviceIPs hands out Services' cluster IPs from the kubeadm default range.
	serviceIPs *defaulting.ClusterIPAllocator
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
		opts:      opts,
		clock:     clock.Or(opts.Clock),
		log:       opts.Logger,
		scheme:    api.DefaultScheme,
		resources: map[string]*resource{},
		byGV:      map[string][]*resource{},
		closing:   make(chan struct{}),
		version:   newVersionInfo(opts.Version),
	}
	s.store = storage.New(storage.Config{
		HistorySize: opts.HistorySize, WatchBufferSize: opts.WatchBufferSize,
		MaxOpenWatches: opts.MaxOpenWatches, TooLargeResourceVersionWait: opts.TooLargeResourceVersionWait,
		Clock: s.clock, Logger: opts.Logger, Codec: storedCodec{}, Hooks: &s.faults,
	})
	s.serviceIPs, _ = defaulting.NewClusterIPAllocator(defaulting.DefaultServiceCIDR) // a valid constant
	s.counts.reset()
	for _, ri := range builtinResources() {
		s.mustRegister(ri)
	}
	for _, ri := range opts.Resources {
		ri.builtin = false
		s.mustRegister(ri)
	}
	s.namespaces = s.resources["/namespaces"]
	for _, ns := range []string{"default", "kube-system", "kube-public"} {
		obj := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}
		if _, err := s.Create(context.Background(), "namespaces", "", obj); err != nil {
			panic(fmt.Sprintf("apiserver: creating namespace %s: %v", ns, err))
		}
	}
	s.counts.reset()
	s.handler = s.buildHandler()
	return s
}

func (s *Server) mustRegister(ri ResourceInfo) {
	if err := s.Register(ri); err != nil {
		panic(err)
	}
}

// Register adds a kind to serve under /apis/{group}/{version} (or /api/v1 for the core
// group), stored as Unstructured. It mirrors what creating a CustomResourceDefinition does.
// Registering a resource name twice in one group is an error.
func (s *Server) Register(ri ResourceInfo) error {
	if err := ri.validate(); err != nil {
		return err
	}
	ri.ShortNames = append([]string(nil), ri.ShortNames...)
	ri.Categories = append([]string(nil), ri.Categories...)
	ri.FieldLabels = append([]string(nil), ri.FieldLabels...)
	_, err := s.registerResource(ri)
	return err
}

// registerResource adds ri to the table with a new collection.
func (s *Server) registerResource(ri ResourceInfo) (*resource, error) {
	s.tableMu.Lock()
	defer s.tableMu.Unlock()
	id := ri.Group + "/" + ri.Resource
	if _, ok := s.resources[id]; ok {
		return nil, fmt.Errorf("apiserver: resource %s is already registered", ri.GroupResource())
	}
	r := &resource{info: ri, coll: s.store.NewCollection(ri.GroupResource().String(), ri.Resource)}
	s.resources[id] = r
	gv := ri.Group + "/" + ri.Version
	s.byGV[gv] = append(s.byGV[gv], r)
	return r, nil
}

// Resources returns the served resources, built-ins first, for discovery and demos.
func (s *Server) Resources() []ResourceInfo {
	s.tableMu.RLock()
	defer s.tableMu.RUnlock()
	var out []ResourceInfo
	for _, gv := range sortedKeys(s.byGV) {
		for _, r := range s.byGV[gv] {
			ri := r.info
			_, ri.Version, _ = strings.Cut(gv, "/")
			out = append(out, ri)
		}
	}
	return out
}

// lookup finds a resource by plural, short name, "plural.group" or "group/version/plural".
func (s *Server) lookup(name string) (*resource, error) {
	s.tableMu.RLock()
	defer s.tableMu.RUnlock()
	if r, ok := s.resources["/"+name]; ok {
		return r, nil
	}
	if parts := strings.Split(name, "/"); len(parts) == 3 {
		for _, r := range s.byGV[parts[0]+"/"+parts[1]] {
			if r.info.Resource == parts[2] {
				return r, nil
			}
		}
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		if r, ok := s.resources[name[i+1:]+"/"+name[:i]]; ok {
			return r, nil
		}
	}
	var found *resource
	for _, r := range s.resources {
		match := r.info.Resource == name
		for _, sn := range r.info.ShortNames {
			match = match || sn == name
		}
		if match {
			if found != nil {
				return nil, api.NewBadRequest(fmt.Sprintf("resource name %q is ambiguous: qualify it with its group", name))
			}
			found = r
		}
	}
	if found == nil {
		return nil, notFoundResource()
	}
	return found, nil
}

// notFoundResource is the 404 for an unknown resource inside a served group-version (U9).
func notFoundResource() *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure, Code: http.StatusNotFound, Reason: api.StatusReasonNotFound,
		Message: "the server could not find the requested resource",
	}
}

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
	s.lifeMu.Lock()
	if s.closed || s.httpSrv != nil {
		s.lifeMu.Unlock()
		ln.Close()
		return "", errors.New("apiserver: server already started or closed")
	}
	s.httpSrv = srv
	s.host = host
	s.caPEM = caPEM
	if clientCA != nil {
		s.clientCA.Store(clientCA)
	}
	s.url = scheme + "://" + ln.Addr().String()
	url := s.url
	s.wg.Add(1)
	s.lifeMu.Unlock()
	go func() {
		defer s.wg.Done()
		_ = srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return url, nil
}

// Close ends every watch, stops the HTTP server and waits for every goroutine the server
// started. Requests after Close get 503. It is safe to call more than once.
func (s *Server) Close() {
	s.lifeMu.Lock()
	already := s.closed
	s.closed = true
	srv := s.httpSrv
	s.lifeMu.Unlock()
	if !already {
		close(s.closing)
		s.store.Close()
		if srv != nil {
			_ = srv.Close()
		}
	}
	s.wg.Wait()
}

// begin registers one in-flight operation; it fails once the server is closed.
func (s *Server) begin() error {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.closed {
		return api.NewServiceUnavailable("the server is shutting down")
	}
	s.wg.Add(1)
	return nil
}

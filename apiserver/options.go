package apiserver

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/registry/core"

	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// Defaults of Options. They are exported so tests and the README can quote them.
const (
	// DefaultHistorySize is the number of events the history ring keeps (wire spec 0.5). A
	// watch or an Exact list from an RV older than the ring gets 410 Expired.
	DefaultHistorySize = 10000
	// DefaultHistoryBytes bounds the history ring in object bytes too (as JSON would take
	// them): a 1 MiB object rewritten 10,000 times would otherwise pin 10 GiB. The real
	// watch cache bounds its ring by count and by age (75 s); etcd keeps history until the
	// next compaction (5 min), within its quota.
	DefaultHistoryBytes = 64 << 20
	// DefaultStoreQuotaBytes mirrors etcd's --quota-backend-bytes for the objects stored:
	// a create or update beyond it fails as etcd's quota error does upstream (500,
	// "etcdserver: mvcc: database space exceeded"). etcd's default is 2 GiB on disk; the
	// store is in memory, where an object takes several times its JSON size.
	DefaultStoreQuotaBytes = 256 << 20
	// DefaultBookmarkPeriod mirrors the cacher's defaultBookmarkFrequency (W16).
	DefaultBookmarkPeriod = time.Minute
	// DefaultWatchBufferSize is how many undelivered events one watcher may hold before the
	// server closes it with an ERROR event (W19, R12). The real cacher's per-watcher channel
	// is sized 10–1000 by resource; 1000 is its upper end.
	DefaultWatchBufferSize = 1000
	// DefaultMaxBodyBytes is the real server's request body limit, 3 MiB (E8).
	DefaultMaxBodyBytes = 3 * 1024 * 1024
	// DefaultMinRequestTimeout mirrors --min-request-timeout: a watch without timeoutSeconds
	// lasts a random duration in [this, 2×this) (W18).
	DefaultMinRequestTimeout = 30 * time.Minute
	// DefaultTooLargeResourceVersionWait is how long a request for a future resourceVersion
	// waits for it before failing with 504 ResourceVersionTooLarge (L4, W9).
	DefaultTooLargeResourceVersionWait = 3 * time.Second

	// The limits a hostile or broken client meets (docs/behaviour/wire.md §10; limits.go). The real
	// kube-apiserver has the same header limits (its http.Server sets MaxHeaderBytes to 1 MiB
	// and a ReadHeaderTimeout) and caps in-flight requests rather than open watches.

	// DefaultReadHeaderTimeout is how long a client may take to send the request line and
	// headers; a slower connection is closed without a response (slowloris on headers).
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultIdleTimeout is how long a keep-alive connection may sit idle between requests.
	DefaultIdleTimeout = 90 * time.Second
	// DefaultBodyReadTimeout is how long a client may take to send a request body, counted
	// from the start of the body read; a slower body gets 408 Timeout (slowloris on bodies).
	DefaultBodyReadTimeout = time.Minute
	// DefaultMaxHeaderBytes caps the request line plus headers, as net/http's default and the
	// real server do. Beyond it net/http answers 431 in plain text before any handler runs.
	DefaultMaxHeaderBytes = 1 << 20
	// DefaultMaxQueryBytes caps the raw query string; a longer one is 414 (a Status). It is
	// below DefaultMaxHeaderBytes, so an oversized query gets the Status, not net/http's 431.
	DefaultMaxQueryBytes = 128 << 10
	// DefaultMaxOpenWatches caps the watches open at once (HTTP and in-process together); one
	// more is 429 TooManyRequests with Retry-After: 1. Each open watch can hold up to
	// WatchBufferSize queued events, so the cap bounds the memory watchers can pin.
	DefaultMaxOpenWatches = 4096
	// ServiceAccountIssuer mirrors kube-apiserver's --service-account-issuer as kubeadm and
	// kind set it: the iss of the service-account tokens the server issues, and the audience
	// they are for by default (--api-audiences defaults to it).
	ServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local"
	// DefaultWatchWriteTimeout is how long one write to a watch stream may stay blocked
	// because the client is not reading; the connection is then closed, so a watcher that
	// never reads cannot pin its goroutine, queue and buffers (or its MaxOpenWatches place).
	DefaultWatchWriteTimeout = time.Minute
)

// Options configure a Server. It plays the role of the kube-apiserver's command-line options
// (k8s.io/apiserver pkg/server/options).
//
// One convention holds for every field: the zero value is the documented default (above, or
// off for the booleans, none for the lists, the real clock, no logger). A duration or size
// that can meaningfully be switched off (the timeouts, the wait for a future resourceVersion
// and the caps on queries and open watches) is switched off by any negative value; for every
// other one a negative value is invalid. Validate reports exactly what New cannot honour, and
// New panics on it, as on any programming error: options that come from a user (flags, a
// config file) should pass Validate first, as demo serve does.
type Options struct {
	// HistorySize bounds the event history ring (0: DefaultHistorySize; negative: invalid).
	HistorySize int
	// HistoryBytes bounds the history ring in object bytes as well (0: DefaultHistoryBytes;
	// negative: no byte bound). The newest event is always kept.
	HistoryBytes int
	// StoreQuotaBytes is the store's quota in object bytes: a write beyond it is refused as
	// etcd refuses one beyond its quota (0: DefaultStoreQuotaBytes; negative: no quota).
	StoreQuotaBytes int
	// BookmarkPeriod is the interval of periodic BOOKMARKs (0: DefaultBookmarkPeriod;
	// negative: invalid). Clients opt out of bookmarks themselves (allowWatchBookmarks).
	BookmarkPeriod time.Duration
	// WatchBufferSize bounds each watcher's queue of undelivered events (0:
	// DefaultWatchBufferSize; negative: invalid).
	WatchBufferSize int
	// MaxBodyBytes caps request bodies; larger ones get 413 (0: DefaultMaxBodyBytes;
	// negative: invalid).
	MaxBodyBytes int64
	// RejectWatchList answers sendInitialEvents=true with 422, as a server with the WatchList
	// feature gate off does, so the client's LIST+WATCH fallback can be shown (CG5, T9). It
	// also turns off the W6 defaulting of "" and "0" watches to watch-list (false: served).
	RejectWatchList bool
	// HonourLimitWithRV0 pages lists with resourceVersion=0. The real server ignores limit
	// then (L9) and so do we unless this is set (false: ignored).
	HonourLimitWithRV0 bool
	// GoAPIManagedFields makes the Go API's Create, Update, UpdateStatus and Patch record
	// their writer in metadata.managedFields, as HTTP writes do, under the manager
	// "apiserver-go-api" (what a request without fieldManager would record had its client
	// that User-Agent). Off by default (false: Go-API writes own no fields, and objects they
	// create have no managedFields until an HTTP write), because field management about
	// doubles the cost of a Go-API create. A Go-API apply always records its manager.
	GoAPIManagedFields bool
	// MinRequestTimeout sets the lifetime of watches without timeoutSeconds, a random
	// duration in [this, 2×this) (0: DefaultMinRequestTimeout; negative: invalid).
	MinRequestTimeout time.Duration
	// TooLargeResourceVersionWait is how long a request for a future RV waits for it (0:
	// DefaultTooLargeResourceVersionWait; negative: no wait, fail at once).
	TooLargeResourceVersionWait time.Duration
	// Resources are extra kinds to serve, as custom resources are (nil: none). Each must be valid and none may clash with another or a built-in one.
	Resources []ResourceInfo
	// Bootstrap makes New create, after the namespaces default, kube-system and
	// kube-public, the objects a fresh kube-apiserver creates in its post-start hooks: the
	// kube-node-lease namespace, the legacy token tracking ConfigMap, every kind's bootstrap
	// objects (system PriorityClasses, RBAC roles and bindings, FlowSchemas, APIServices, the
	// ServiceCIDR, …), the `kubernetes` Service in default (the first cluster IP, port 443 to
	// the server's port) with its Endpoints and EndpointSlice at the host's address, and the
	// apiserver's identity Lease (bootstrap.go). Until the server listens its port is 6443,
	// kube-apiserver's default; Start and StartTLS update these objects to the port they
	// listen on. demo serve, the kubectl suite and the conformance simulator turn it on. Off
	// by default (false), so that a server starts with its three namespaces only and tests
	// can count resource versions from there.
	Bootstrap bool
	// Clock drives timestamps, bookmarks and timeouts (nil: the real clock). A server created
	// inside a testing/synctest bubble with the real clock runs in virtual time.
	Clock clock.Clock
	// Logger receives one Debug hop per operation, component "apiserver" and op create,
	// update, delete, list, watch-open, watch-send, watch-close or fault (nil: silent, and
	// tracing costs nothing). The CEL interpreter logs there too, component "cel": the
	// stages of compiling a CRD's validation rules and of running them on each write.
	Logger *slog.Logger

	// Version is the Kubernetes version /version reports, such as "v1.33.1" (empty:
	// DefaultVersion; not of the form v1.32.0: invalid). The kubectl dispatcher on the
	// project's machines runs the kubectl of the reported minor (K1).
	Version string
	// BearerToken, when set, makes the server require "Authorization: Bearer <token>" (or,
	// with ClientCertAuth, a client certificate): anything else gets 401 Unauthorized, except
	// the anonymous health and version checks (auth.go). Empty: no token is accepted; with
	// white space: invalid, since no Authorization header could carry it.
	BearerToken string
	// ClientCertAuth mirrors kube-apiserver's --client-ca-file (the x509 authenticator), with
	// the client CA made by the server, as kubeadm and kind make theirs: StartTLS creates it
	// and issues an admin certificate (ClientCertificatePEM, in Kubeconfig), and requests
	// presenting a certificate it signed are authenticated as the certificate's CN (auth.go;
	// IssueClientCertificate mints more users). It needs TLS: Start refuses it (false: off).
	ClientCertAuth bool
	// StrictServiceAccounts makes the server act, for pods, as a kube-apiserver without a
	// controller-manager (the conformance suite's reference): no `default` ServiceAccount
	// exists unless created, so a pod that names none in a namespace without it is refused
	// with 403 "error looking up service account <ns>/default". Off (false): the server
	// admits such a pod as a full cluster does, whose service account controller has made
	// `default` in every namespace (it is not stored), token volume included. A pod that
	// names any other missing account is refused either way.
	StrictServiceAccounts bool
	// NamespaceDeletion says who empties a deleted namespace. NamespaceDeletionController
	// (the default, ""): as kube-apiserver, the server only marks it Terminating and keeps
	// spec.finalizers ["kubernetes"]; the namespace controller (controllers/namespace) deletes
	// its contents, removes the finalizer through …/finalize and deletes it again, so without
	// controllers it stays Terminating, as on a real server without kube-controller-manager.
	// NamespaceDeletionInServer: the server plays that controller itself, inside the DELETE
	// (the namespace goes as soon as it is empty). Anything else: invalid.
	NamespaceDeletion string
	// ServiceClusterIPRange is kube-apiserver's --service-cluster-ip-range: the CIDR Services'
	// cluster IPs come from, whose first address is the `kubernetes` Service's ("":
	// DefaultServiceClusterIPRange, kubeadm's default). The conformance simulator sets the
	// reference server's range, so that the IPs manifests ask for fall inside it or not alike.
	ServiceClusterIPRange string
	// DebugFaults serves the fault API as JSON at /debug/faults, for instructors with curl
	// (debug_faults.go). Anyone who can reach the port can use it (false: not served).
	DebugFaults bool
	// Authorization mirrors --authorization-mode with one mode: AuthorizationAlwaysAllow
	// (every authenticated request passes, as kube-apiserver's default) or AuthorizationRBAC
	// (what the stored roles and bindings grant, plus everything to system:masters; New
	// creates the bootstrap RBAC policy). Impersonation works in both, for those allowed to
	// impersonate (authorization.go). Empty: AlwaysAllow; anything else: invalid.
	Authorization string

	// ReadHeaderTimeout, IdleTimeout and MaxHeaderBytes configure the http.Server of Start and
	// StartTLS (0: DefaultReadHeaderTimeout, DefaultIdleTimeout, DefaultMaxHeaderBytes; a
	// negative timeout: none; a negative MaxHeaderBytes: invalid, net/http has no "no limit").
	// There is deliberately no server-wide ReadTimeout or WriteTimeout: watches are long-lived
	// (W20).
	ReadHeaderTimeout time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// BodyReadTimeout bounds the reading of one request body, which then fails with 408
	// Timeout (0: DefaultBodyReadTimeout; negative: none). It needs a connection that supports
	// read deadlines (Start, StartTLS, httptest servers); elsewhere it is not enforced.
	BodyReadTimeout time.Duration
	// MaxQueryBytes caps the raw query string; longer is 414 (0: DefaultMaxQueryBytes;
	// negative: no cap).
	MaxQueryBytes int
	// MaxOpenWatches caps the watches open at once; one more is 429 TooManyRequests (0:
	// DefaultMaxOpenWatches; negative: no cap).
	MaxOpenWatches int
	// WatchWriteTimeout bounds each write to a watch stream, enforced with a connection write
	// deadline; a client that takes nothing for that long has its connection closed (0:
	// DefaultWatchWriteTimeout; negative: none).
	WatchWriteTimeout time.Duration

	// validateStartupObjects validates the start-up objects as a client's are, which the
	// server itself skips (postStart.context); set only by tests.
	validateStartupObjects bool
}

// The values of Options.NamespaceDeletion.
const (
	// NamespaceDeletionController leaves a Terminating namespace to the namespace
	// controller, as kube-apiserver does.
	NamespaceDeletionController = "controller"
	// NamespaceDeletionInServer empties and removes a deleted namespace inside the server.
	NamespaceDeletionInServer = "in-server"
)

// Validate reports the first option New cannot honour, with a clear error, as the Validate
// methods of k8s.io/apiserver pkg/server/options do for kube-apiserver's flags: a negative
// value where none means off, a malformed Version, a BearerToken with white space, an invalid
// ResourceInfo or two resources of one name. New panics on exactly these.
func (o Options) Validate() error {
	for _, f := range []struct {
		name  string
		value int64
	}{
		{"HistorySize", int64(o.HistorySize)},
		{"BookmarkPeriod", int64(o.BookmarkPeriod)},
		{"WatchBufferSize", int64(o.WatchBufferSize)},
		{"MaxBodyBytes", o.MaxBodyBytes},
		{"MinRequestTimeout", int64(o.MinRequestTimeout)},
		{"MaxHeaderBytes", int64(o.MaxHeaderBytes)},
	} {
		if f.value < 0 {
			return fmt.Errorf("apiserver: Options.%s must not be negative (0 means the default; it cannot be turned off)", f.name)
		}
	}
	if o.Version != "" {
		if err := validateVersion(o.Version); err != nil {
			return err
		}
	}
	if strings.ContainsAny(o.BearerToken, " \t\r\n") {
		return errors.New("apiserver: the bearer token must not contain white space")
	}
	switch o.Authorization {
	case "", AuthorizationAlwaysAllow, AuthorizationRBAC:
	default:
		return fmt.Errorf("apiserver: unknown authorization mode %q: use %q or %q", o.Authorization, AuthorizationAlwaysAllow, AuthorizationRBAC)
	}
	switch o.NamespaceDeletion {
	case "", NamespaceDeletionController, NamespaceDeletionInServer:
	default:
		return fmt.Errorf("apiserver: unknown namespace deletion %q: use %q or %q", o.NamespaceDeletion, NamespaceDeletionController, NamespaceDeletionInServer)
	}
	if o.ServiceClusterIPRange != "" {
		if _, err := core.NewClusterIPAllocator(o.ServiceClusterIPRange); err != nil {
			return fmt.Errorf("apiserver: Options.ServiceClusterIPRange: %w", err)
		}
	}
	if len(o.Resources) == 0 {
		return nil // the built-in kinds' table is built only to check extra resources against
	}
	seen := map[string]bool{}
	for _, ri := range registry.BuiltinInfos() {
		seen[ri.Group+"/"+ri.Resource] = true
	}
	for _, ri := range o.Resources {
		if err := ri.Validate(); err != nil {
			return err
		}
		id := ri.Group + "/" + ri.Resource
		if seen[id] {
			return fmt.Errorf("apiserver: resource %s is already registered", ri.GroupResource())
		}
		seen[id] = true
	}
	return nil
}

// DefaultServiceClusterIPRange is the service range when Options.ServiceClusterIPRange is
// empty: kubeadm's default, 10.96.0.0/12.
const DefaultServiceClusterIPRange = core.DefaultServiceCIDR

// withDefaults resolves the convention of Options for New: every zero becomes its default and
// every negative value that means off becomes 0, which the server reads as off. It assumes
// Validate passed.
func (o Options) withDefaults() Options {
	o.HistorySize = orDefault(o.HistorySize, DefaultHistorySize)
	if o.ServiceClusterIPRange == "" {
		o.ServiceClusterIPRange = DefaultServiceClusterIPRange
	}
	o.HistoryBytes = orDefault(o.HistoryBytes, DefaultHistoryBytes)
	o.StoreQuotaBytes = orDefault(o.StoreQuotaBytes, DefaultStoreQuotaBytes)
	o.BookmarkPeriod = orDefault(o.BookmarkPeriod, DefaultBookmarkPeriod)
	o.WatchBufferSize = orDefault(o.WatchBufferSize, DefaultWatchBufferSize)
	o.MaxBodyBytes = orDefault(o.MaxBodyBytes, DefaultMaxBodyBytes)
	o.MinRequestTimeout = orDefault(o.MinRequestTimeout, DefaultMinRequestTimeout)
	o.TooLargeResourceVersionWait = orDefault(o.TooLargeResourceVersionWait, DefaultTooLargeResourceVersionWait)
	if o.Version == "" {
		o.Version = DefaultVersion
	}
	o.ReadHeaderTimeout = orDefault(o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	o.IdleTimeout = orDefault(o.IdleTimeout, DefaultIdleTimeout)
	o.MaxHeaderBytes = orDefault(o.MaxHeaderBytes, DefaultMaxHeaderBytes)
	o.BodyReadTimeout = orDefault(o.BodyReadTimeout, DefaultBodyReadTimeout)
	o.MaxQueryBytes = orDefault(o.MaxQueryBytes, DefaultMaxQueryBytes)
	o.MaxOpenWatches = orDefault(o.MaxOpenWatches, DefaultMaxOpenWatches)
	o.WatchWriteTimeout = orDefault(o.WatchWriteTimeout, DefaultWatchWriteTimeout)
	return o
}

// orDefault maps 0 to def and any negative value to 0, which then means "off".
func orDefault[T int | int64 | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

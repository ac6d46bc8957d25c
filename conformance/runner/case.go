package runner

// NSPlaceholder is replaced, in every path, query, header, body and kubectl argument of a case,
// by the case's own namespace; SuffixPlaceholder by the case's short hash (to make
// cluster-scoped names unique).
const (
	NSPlaceholder     = "__NS__"
	SuffixPlaceholder = "__SFX__"
)

// ServiceClusterIPRange is the reference server's --service-cluster-ip-range, and the
// simulator's Options.ServiceClusterIPRange: with the same range, a manifest's clusterIP
// falls inside both ranges or neither, and the `kubernetes` Service holds the same first IP.
// A /16, not a /24: thousands of cases create Services and the reference never frees their
// IPs (no namespace is ever finalized), so a /24 runs out mid-run.
const ServiceClusterIPRange = "10.0.0.0/16"

// Case is one independent conformance case: a sequence of steps replayed against both servers,
// each in a fresh namespace of its own (created, with its default ServiceAccount, before the
// first step).
type Case struct {
	// ID is unique and stable across runs: category/source/variant.
	ID string
	// Category groups cases in the report (create, mutation-enum, immutable, ssa, ...).
	Category string
	// Source is the corpus file (module-relative) the case was built from, if any.
	Source string
	// Kind is the group/Kind the case is about ("core/Pod", "apps/Deployment"), for the
	// agreement per kind; "" when it is about none in particular.
	Kind string
	// Steps run in order; a step's variables come from earlier steps on the same server.
	Steps []Step
	// NoNamespace skips the namespace and ServiceAccount setup (cluster-scoped cases).
	NoNamespace bool
	// Serial cases run alone, before the concurrent ones (CRD installs other cases need).
	Serial bool
}

// Step is one HTTP request or one kubectl invocation.
type Step struct {
	// Name labels the step in difference reports ("create", "read-back", ...).
	Name string

	// HTTP: Method and Path (with query) are required for an HTTP step.
	Method  string
	Path    string
	Headers map[string]string
	// Body is sent as is (JSON unless Headers says otherwise).
	Body []byte

	// Kubectl, when set, runs kubectl with these arguments (plus --kubeconfig) instead of an
	// HTTP request; Stdin is fed to it.
	Kubectl []string
	Stdin   []byte

	// Watch reads the response as a stream of watch events until the server ends it (the
	// request should carry timeoutSeconds).
	Watch bool
	// Capture stores string values of the (raw) response body in variables: name -> dotted
	// path (e.g. "metadata.resourceVersion"). ${name} in later steps' Path and Body is
	// replaced by the value the same server returned.
	Capture map[string]string
	// Setup steps are executed but not compared (their failure is an error of the case).
	Setup bool
	// IgnoreBody compares status code, Status and warnings only.
	IgnoreBody bool
	// KeepManagedFields compares metadata.managedFields (times normalised) instead of
	// stripping them.
	KeepManagedFields bool
	// Retry411 re-sends a request the server answered 404/409 while an API was still being
	// installed, up to a few seconds (CRD just created).
	RetryNotFound bool
	// RetryUntil, when set, re-sends the request until the server answers this code, up to
	// a few seconds: the reference serves a CRD's changed schema only once its handler has
	// seen the update.
	RetryUntil int
}

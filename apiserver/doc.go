// Package apiserver is a simulated kube-apiserver that speaks the real wire protocol (the wire
// reference, docs/behaviour/wire.md §0–10) and honours the test-harness contract the reflector
// relies on (docs/behaviour/client-go.md §16, H-1 … H-9). It is layered as k8s.io/apiserver
// is, each layer knowing only the ones below it:
//
//	endpoints    this package: HTTP, routing, negotiation, decoding, tables, watch streams,
//	             discovery, OpenAPI, authentication, TLS, origin checks, limits, /debug/faults,
//	             and the Go API; Server is a thin composition over the layers below
//	admission    internal/admission: named plugins in the real order, mutating then
//	             validating (NamespaceLifecycle)
//	registry     internal/registry: the table of served resources, one strategy per kind
//	             (internal/registry/<group>/, on the model of pkg/registry/rest) and the
//	             generic store that runs decode → admission → strategy → storage for every verb
//	storage      storage: revision, history, 410s, snapshots, continue tokens, watch fan-out,
//	             the fault seam; nothing of HTTP, protobuf or kinds
//
// Serve it over HTTP (Handler, Start, StartTLS, NewTestServer) or in process (Create, Get,
// Update, Patch, Delete, List, Watch, ListerWatcher); real kubectl and client-go work against
// it. What it promises:
//
//  1. Every write bumps one global revision and stamps the object with it; a no-op write
//     writes nothing; the Go API deep-copies objects both ways (storage).
//  2. Lists come in key order at the store's revision, and every page of a paged or Exact
//     list is one snapshot; an RV or continue token older than the history is 410 Expired, a
//     future RV 504 after TooLargeResourceVersionWait (storage, list.go).
//  3. A watch sends exactly the events after its RV, or the current state and then live
//     events, with no gap or duplicate after a list; watch-list and bookmarks are the real
//     watch cache's, and RVs on one stream never go back (storage, watch.go).
//  4. Writers never wait for watchers: a watcher that falls behind ends with an ERROR and one
//     that stops reading is cut off, freeing what it held (storage, watch_serve.go, limits.go).
//  5. Every failure is a Status with the real code, reason and message; a panic is a 500.
//  6. Objects are stored whole: decoded against the kind's real OpenAPI schema as
//     fieldValidation says, defaulted, prepared and validated by the kind's strategy, and
//     patched as kube-apiserver does (object.go, internal/{schema,decode,defaulting,
//     validation,patch}, internal/registry); dryRun=All stores nothing; the status and scale
//     subresources write only their part (ops.go, scale.go).
//  7. Deletes are immediate unless finalizers hold the object; Foreground and Orphan add the
//     garbage collector's finalizer first (internal/registry: delete_gc.go); namespaces
//     have their lifecycle, left to the namespace controller unless
//     Options.NamespaceDeletion says in-server (namespace.go; internal/admission:
//     NamespaceLifecycle).
//  8. Bodies are JSON, or protobuf for built-in kinds, other types 415; the Accept header
//     picks JSON or protobuf, a Table or PartialObjectMetadata (protobuf.go, internal/…).
//  9. Discovery, /version, /openapi/v3, /openapi/v2 (JSON and protobuf, with ETag and 304;
//     internal/openapi) and health checks answer as clients expect.
//  10. With Options.BearerToken or Options.ClientCertAuth a request must authenticate as
//     kube-apiserver's authenticators decide (auth.go), service-account tokens the server
//     issued included (token_request.go); web pages are refused (origin.go). Then
//     Options.Authorization (AlwaysAllow, or RBAC over the stored roles) decides, after
//     impersonation (authorization.go); the reviews answer who and what (reviews.go).
//  11. Every limit a hostile or broken client meets is tested, and is an Options field with
//     an exported default where it has a size or a time (limits.go, options.go).
//  12. Faults come on demand, in process or at /debug/faults (faults.go, debug_faults.go);
//     event faults attach at the storage's Hooks seam; time comes from Options.Clock;
//     Options.Logger gets one Debug hop per operation.
//  13. A CRD is validated as kube-apiserver does, its controllers' conditions written, and
//     its resource served at every served version (discovery, OpenAPI, JSONPath columns,
//     status, scale; None or Webhook conversion); custom objects are pruned, defaulted and
//     checked against their version's structural schema, CEL rules kept but not evaluated;
//     deleting it marks it Terminating (its resource still served for reads and deletes, a
//     create refused), and the CRD finalizer, a goroutine of the server's own that Close
//     stops, deletes them in the background, one write each, then the CRD, which ends their
//     watches (internal/registry: crd.go, crd_finalizer.go, apiextensions; crd.go,
//     crd_versions.go, internal/structural, internal/jsonpath).
//  14. Every write records its manager in metadata.managedFields, and server-side apply merges
//     by field ownership, with the real conflicts, force and removals (apply.go,
//     fieldmanagers.go, internal/registry/fields.go, internal/fieldmanager).
//  15. Deviations, for a teaching simulator: no controller runs (a Deployment makes no Pod);
//     writes through the Go API record no manager; no RBAC (401 where it would answer 403).
//  16. The cost model: no request makes the server do more than linear (or n·log n) work in
//     its size, or hold more than a bounded multiple of it, and every bound is tested
//     (hostile_*_test.go; complexity tests at n and 8n, counting operations with package
//     internal/cost or allocations, never time).
//     - Body: at most MaxBodyBytes (3 MiB, 413), received within BodyReadTimeout (408);
//     an answer that needs no body (401, 403, 405, 413, 415) closes the connection at once.
//     Query: MaxQueryBytes (414). Headers: MaxHeaderBytes (431).
//     - Nesting: 10,000 levels of JSON (encoding/json's limit), 64 of protobuf messages.
//     - Lists and elements: bounded by the body. The protobuf decoder refuses bytes that
//     declare more elements than an honest encoding of their length holds (empty elements
//     count), so decoding is linear in the body, as JSON's is.
//     - Patches: JSON patch and merge patch are linear in the document and the patch;
//     strategic merge patch finds list items through sets and indexes (scalar lists, merge
//     keys, $patch, $deleteFromPrimitiveList, $setElementOrder).
//     - Validation: each check is linear in the object; causes are deduplicated through sets;
//     a string is checked against a long enum in one lookup.
//     - Error size: NotSupported spells 4 KiB of the valid values and counts the rest; an
//     Invalid Status keeps MaxStatusCauses (1,000) causes and MaxStatusBytes (1 MiB) of text,
//     each message within 64 KiB, and ends a cut list with a "too many errors, N more not
//     shown" cause (package api, errors_limits.go). Upstream spells every value and cause.
//     - Memory: the store holds at most StoreQuotaBytes (256 MiB of objects as JSON would
//     take them; beyond it a write fails as etcd's quota does upstream, 500 "etcdserver:
//     mvcc: database space exceeded"); the history at most HistorySize events and
//     HistoryBytes (64 MiB) of objects; each watcher WatchBufferSize queued events (and the
//     batch its consumer is writing, at most as many again), MaxOpenWatches watchers.
//     - Time: a watch ends at timeoutSeconds, counted from before its initial list; a write
//     to a client that does not read waits WatchWriteTimeout at most; a bulk delete (a CRD's
//     objects, DeleteCollection, a namespace's contents) waits for room in the watchers'
//     queues, so a reading watcher gets every event, and stops a watcher that takes nothing
//     for 5 s (storage.DefaultWatchStallBudget), as an overflow.
package apiserver

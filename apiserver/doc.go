// Package apiserver is a simulated kube-apiserver that speaks the real wire protocol
// (spec/apiserver-wire.md §0–10) and honours the test-harness contract the reflector
// relies on (spec/client-go-behaviour.md §16, H-1 … H-9). It mirrors, much reduced, the
// parts of k8s.io/apiserver that a client can observe: the etcd3 store and its revisions,
// the watch cache (cacher, cacheWatcher, watchCache history), the REST handlers in
// endpoints/handlers, the generic registry with the pod, configmap and namespace
// strategies, discovery, server-side printing and content negotiation. Serve it over HTTP
// (Handler, Start, StartTLS, NewTestServer, NewTLSTestServer) or call it in process (Create,
// Get, Update, Patch, Delete, List, Watch, ListerWatcher). Real kubectl (1.27–1.33) and
// client-go work against it.
//
// The contract:
//
//  1. One global uint64 revision is bumped by every write — create, changing update, delete,
//     deletion mark, finalizer removal — across all resources; each object carries the RV of
//     its last write (0.1, H-1). A no-op update or patch writes nothing: same RV, no event
//     (0.3, R16).
//  2. Objects are keyed resource + namespace + name; lists come in key order and report the
//     store revision at read time, not the newest item's RV (0.4, 0.6).
//  3. The history is a ring of HistorySize events, one per write, so retained RVs are
//     contiguous. A watch may start from any RV ≥ OldestResourceVersion; Compact and
//     CompactAll raise that bound, and the ring does as it overflows (0.5).
//  4. Snapshots without MVCC: a list at an older revision (Exact, or a later page of a paged
//     list) is rebuilt from the current state by undoing the retained events after it. Every
//     page of one list therefore has the first page's RV even when writes happen between
//     pages (L7); once that RV leaves the history, the token gets 410 Expired carrying a
//     fresh "latest" token (L12). Exact at a compacted RV is 410; a future RV waits
//     TooLargeResourceVersionWait, then 504 ResourceVersionTooLarge (L4, L5, H-2).
//  5. limit is ignored with resourceVersion=0 unless HonourLimitWithRV0 (L9).
//     remainingItemCount is set only on a non-last page of a list without selectors (L13).
//  6. A watch sends {"type":…,"object":…}\n frames, every object with kind and apiVersion
//     (W3, W4, N6). It flushes whenever no further event is queued for the watcher, as the
//     real watch server does: an event alone goes out at once, a burst in a few writes.
//     From "" or "0" it sends the current objects as ADDED, from N exactly the events after
//     N; from a compacted N it answers 200 with one ERROR 410 Expired and ends (W5, W12).
//     Since 1.34 semantics (W6), "" and "0" watches are watch-lists, so with
//     allowWatchBookmarks they also get the initial-events-end BOOKMARK.
//  7. Watch-list (sendInitialEvents=true, resourceVersionMatch=NotOlderThan): ADDED for the
//     snapshot, a BOOKMARK annotated k8s.io/initial-events-end at the snapshot RV when
//     bookmarks are allowed, then live events (W7, W8, H-5). RejectWatchList answers 422.
//  8. Bookmarks only with allowWatchBookmarks: every BookmarkPeriod and once shortly before
//     the timeout, carrying the current revision only when nothing is still queued for that
//     watcher, so a bookmark never overtakes an event (W16, W17, H-6). RVs on one stream never
//     go back.
//  9. Registration, replay and the initial state happen under the storage lock, so the
//     list→watch hand-off has no gap and no duplicate (W11).
//  10. Selectors apply to lists and watches alike; an object leaving a watch's selection is
//     DELETED with its previous state at the new RV, one entering it is ADDED (W14, T14).
//     A watch from a compacted RV ends with "too old resource version: N (M)", M being the
//     newest compacted RV (the real watch cache's oldest-1).
//  11. Writers never block on watchers: each watcher has a buffer of WatchBufferSize events
//     (default 1000). A watcher whose buffer is full is closed: the events already queued
//     are delivered, then one ERROR event (500 InternalError, which client-go answers by
//     watching again from its last RV) ends the stream (W19, R12). A client that does not
//     take them within WatchWriteTimeout has its connection dropped instead (item 34).
//  12. timeoutSeconds ends a watch cleanly; without it, or with 0, a watch lives 30–60
//     minutes (W18). A negative timeoutSeconds has already expired, as on the real server:
//     200, and the stream ends at once with no events. Close and CloseAllWatches end watches
//     cleanly (no ERROR); a watch whose client is not reading when it ends is cut (item 34).
//  13. Every failure is a Status with the code, reason and message of §6 and §10; a panic in
//     a handler is a 500 Status (no stack trace) and the server goes on; bodies over
//     MaxBodyBytes (3 MiB) are 413 (E8).
//  14. Objects are deep-copied on the way in and out of the Go API (H-8); stored objects are
//     immutable and shared by lists and watchers, each encoded to JSON at most once.
//  15. Deletes are immediate, pods included (the simulator plays a kubelet that has already
//     stopped the containers, so kubectl delete returns at once, T6), unless finalizers hold
//     the object: it is then marked with deletionTimestamp, may gain no new finalizer (422),
//     and goes when an update empties them. Namespaces follow the real lifecycle
//     (namespace_lifecycle.go): created with the spec finalizer "kubernetes"; a DELETE marks
//     one Terminating and deletes its contents one object per hold of the storage lock
//     (O(objects in it), nothing elsewhere waits longer than one object's delete); once it is
//     empty "kubernetes" is removed and, with no other spec finalizer (PUT …/finalize) or
//     metadata finalizer left, it goes. No other write ends it. Creating in a missing
//     namespace is 404, in a terminating one 403 (NS1–NS4).
//  16. Faults: DropNextEvents, CloseAllWatches, CloseNextWatches, Compact, DelayEvents,
//     FailNext (429 with Retry-After, 500, 504, … as a response or a watch ERROR event) and
//     CutNextEvent (half an event, then a broken connection) (H-7).
//  17. Time comes from Options.Clock: timestamps, bookmarks, timeouts and waits, so a server
//     inside a testing/synctest bubble runs in virtual time (H-9).
//  18. With Options.Logger, each operation logs one Debug hop with component "apiserver" and
//     op create, update, delete, list, watch-open, watch-send, watch-close or fault; with no
//     logger tracing costs nothing.
//  19. Discovery (K1–K6): /version reports Options.Version (default v1.32.0, so the kubectl
//     dispatcher runs kubectl 1.32); /api and /apis always answer 200, with the aggregated
//     APIGroupDiscoveryList (apidiscovery.k8s.io v2 or v2beta1, whichever the Accept header
//     names first) or, for a plain application/json Accept, the legacy APIVersions and
//     APIGroupList; /api/v1, /apis/{g} and /apis/{g}/{v} serve APIGroup and APIResourceLists
//     with verbs, kinds, scope, short names, categories and the status subresources.
//     Discovery follows Register. These paths, /version, OpenAPI and the health checks are
//     read-only: another method is 405. A path that does not exist (an unserved group or
//     version, such as POST /apis/authentication.k8s.io/v1/selfsubjectreviews) is Go's plain
//     404 for every method, as from the real NotFound handler (U9).
//  20. /openapi/v3 indexes one document per group-version (URL with a content hash); each
//     document holds, per kind, the PATCH operation of the item path with its fieldManager,
//     fieldValidation and force parameters and no schemas (K11): enough for kubectl create and
//     apply with the default --validate=strict, which then sends fieldValidation=Strict.
//     /openapi/v2 is 404, which kubectl asks for only when v3 is missing; kubectl explain and
//     client-side schema validation do not work.
//  21. /healthz, /livez and /readyz answer "ok" (text/plain), their per-check paths
//     (/readyz/ping, …) too, and ?verbose lists the checks.
//  22. Content negotiation (N1–N4): responses are always JSON. The Accept header picks the
//     first clause, by quality then order, the endpoint can serve: plain JSON (also for
//     application/*, */* or no Accept), a meta.k8s.io v1/v1beta1 Table or
//     PartialObjectMetadata(List) for list, get and watch, an aggregated discovery list for
//     /api and /apis. Protobuf listed first with JSON as an alternative (client-go's typed
//     clients) gets JSON; an Accept with nothing we produce (protobuf or YAML alone) is 406
//     NotAcceptable. Request bodies are JSON only: a protobuf (or YAML) body of a POST or
//     PUT, a body without a Content-Type (item 35), or a DeleteOptions body of a DELETE, is 415 UnsupportedMediaType listing
//     application/json (N2). client-go has no fallback from that 415, so a typed clientset
//     needs rest.Config.ContentType = "application/json"; kubectl's generator commands
//     (create configmap, create namespace, create deployment, …) use typed clients and get
//     the 415 too, while `kubectl create … --dry-run=client -o yaml | kubectl create -f -`
//     works.
//  23. Server-side printing (K7–K9, K15, W21): a Table has the columns of kubectl get — pods
//     NAME READY STATUS RESTARTS AGE (+ IP, NODE, NOMINATED NODE, READINESS GATES at
//     priority 1), configmaps NAME DATA AGE, namespaces NAME STATUS AGE, anything else NAME
//     AGE — one cell per column, and a list's RV, continue and remainingItemCount, or an
//     object's RV for a single object. Row objects follow includeObject: PartialObjectMetadata
//     by default and for Metadata, the object for Object, nothing for None; another value is
//     400 (E43). A Table watch sends each event as a one-row Table whose RV is the object's,
//     with columnDefinitions in the first event only; ERROR events stay Statuses; the
//     stream's Content-Type stays application/json. We keep no container statuses, so READY
//     counts all containers ready when the pod's Ready condition is True and none otherwise,
//     and RESTARTS is 0.
//  24. Options.BearerToken and Options.ClientCertAuth (auth.go): a request must carry
//     "Authorization: Bearer <token>" or a client certificate signed by the client CA that
//     StartTLS makes with ClientCertAuth (as kubeadm and kind do; it issues the admin
//     certificate, CN kubernetes-admin, O system:masters, that ClientCertificatePEM returns
//     and Kubeconfig embeds, and IssueClientCertificate mints more). As in kube-apiserver's
//     union of authenticators, the certificate is checked first and the first success wins:
//     a verified certificate passes whatever token comes with it, and a right token passes
//     whatever certificate. Without credentials only the health endpoints and /version are
//     served (as RBAC's system:public-info-viewer allows anonymous users); wrong credentials
//     (a wrong token; a certificate of another CA, expired or not for client auth) are 401
//     everywhere. The 401 is a Status with reason Unauthorized and message "Unauthorized"
//     (S2), never a failed TLS handshake. The Authorization header is read as the real
//     bearer-token authenticator reads it: trimmed, cut at single spaces into at most three
//     parts, "bearer" in any case, then the token; so "Bearer t extra" carries t, while
//     "Bearer  t" (two spaces), "Bearer" alone or another scheme carry no token (anonymous,
//     not wrong). Authentication runs first: a request without credentials is 401 before
//     item 35's checks. kubectl sends a kubeconfig's token only over
//     https and certificates exist only in TLS, so serve with StartTLS (Start refuses
//     ClientCertAuth): it makes a self-signed certificate at start-up, which CACertPEM
//     returns and Kubeconfig embeds.
//  25. Options.DebugFaults serves the fault API at /debug/faults (JSON; behind the same
//     authentication as everything else). GET shows FaultState (revisions, watchers,
//     pending faults, request counts); POST performs one action, sent with Content-Type:
//     application/json (any other type or none, curl -d's form included, is 415): exactly
//     one JSON object, nothing after it but white space, counts and retryAfterSeconds at most
//     2147483647; a bad body is a 400 Status naming the member. DELETE clears every pending
//     fault (examples below).
//
// Limits against hostile or broken clients (each is a test in the hostile_*_test.go files,
// each default an exported constant in options.go, each an Options field where 0 means the
// default and, for the timeouts and the two new caps, a negative value means none):
//
//  26. Start and StartTLS bind 127.0.0.1 when the address names no host ("" or ":6443"). Any
//     non-loopback address is bound as asked, with a Warn naming it (to Options.Logger, or
//     slog.Default when there is none, so the warning is never silent).
//  27. The request line and headers may take MaxHeaderBytes (1 MiB, as net/http and the real
//     server) and must arrive within ReadHeaderTimeout (10 s); a keep-alive connection idle
//     for IdleTimeout (90 s) is closed. These are net/http's: beyond MaxHeaderBytes it answers
//     431 in plain text and a header timeout closes the connection without an answer, before
//     any handler could write a Status (client-go makes one from the code, S6). There is no
//     server-wide ReadTimeout or WriteTimeout, which would cut long watches.
//  28. A query string over MaxQueryBytes (128 KiB) is 414 with a Status whose reason is ""
//     (Kubernetes has no reason for 414) and whose message gives both sizes: "the request URI
//     is too long: the query string has N bytes, the limit is 131072". It is checked after
//     authentication, before routing.
//  29. A body over MaxBodyBytes (3 MiB) is 413 (item 13): at once when Content-Length says
//     so, else after reading the cap plus one byte, so a request never holds more than the
//     cap. A body must arrive within BodyReadTimeout (60 s, enforced with a connection read
//     deadline set when the request starts): a slower one (slowloris) is 408 with reason
//     Timeout, "Timeout: the request body was not received within 1m0s (N bytes read)". Any
//     answer given before the body is read to its end (401, 403, 405, 413, 415, 408) goes out
//     at once with Connection: close, and the connection closes within BodyReadTimeout of
//     the request (conn.go), so net/http's drain of an unread body holds neither.
//  30. JSON nesting is bounded by encoding/json's depth limit (10,000): a deeper body is 400
//     in E1's shape (json parse error "… exceeded max depth"), a deeper patch 400 "invalid
//     JSON patch", so no recursion in the server goes deeper. Invalid UTF-8 inside JSON
//     strings becomes U+FFFD, as with the real decoder: in a name or label it then fails
//     validation (422), in a free-form string it is stored so; responses are valid UTF-8.
//  31. At most MaxOpenWatches (4096) watches are open at once, HTTP and in-process together;
//     one more is 429 TooManyRequests, "too many open watches (the limit is 4096), please try
//     again later", with Retry-After: 1 and details.retryAfterSeconds 1. A watch keeps its
//     place until its stream has ended, not merely until it is unregistered: one closed for
//     overflow (item 11) or by CloseAllWatches that is still writing to a client that does
//     not read frees it when that write fails (item 34). So the goroutines, buffers and
//     queued events (× WatchBufferSize, shared, never copied) watchers can pin are bounded.
//  32. An object name in a path that cannot be a path segment, "." or ".." or one containing
//     "%", is 400 `Name parameter invalid: "..": may not be '..'` (the real registry's key
//     functions), before storage is touched; a %2F in a name splits the path, hence 404. No
//     path reaches an object outside the collection it names.
//  33. A panic in a handler is a 500 InternalError Status carrying the panic value's text and
//     no stack trace (the stack goes to Options.Logger at Error); locks are released by
//     defer, so the server goes on with its state intact (item 13).
//  34. Every write to a watch stream has a connection write deadline, WatchWriteTimeout
//     (60 s); once the watch's end is known it is also no later than timeoutSeconds plus at
//     most a second (watch_http.go). A client that takes nothing for that long has its
//     connection dropped (no ERROR can reach it), and its goroutine, queue and place are
//     freed. `make abuse` opens thousands of non-reading watches and slow bodies and shows
//     goroutines and heap back at baseline and the watch cap held.
//  35. Web pages (origin.go). A request whose Origin is not its own Host (another site or
//     port, "null") is 403 Forbidden whatever its method; kubectl, client-go and curl send
//     no Origin. On a server started with Start or StartTLS, a Host that is not an IP
//     literal, localhost, *.localhost, the host it was started on or a name of its
//     certificate is 403 (DNS rebinding); Handler served otherwise is the caller's to guard.
//     A request body without a Content-Type is 415: the real server would assume JSON, but
//     an untyped body is what a page can send without a CORS preflight. The real server
//     checks neither; it relies on authentication and RBAC.
//
// Writes that store nothing:
//
//  36. dryRun=All on create, update, patch, delete and deletecollection runs everything
//     (defaulting, validation, admission, conflicts) and answers with what would be stored,
//     storing nothing: no resourceVersion is consumed and no watch sees an event. A created
//     object comes back without a resourceVersion, an updated or marked one with the stored
//     RV. Any other dryRun value, a bad fieldValidation or fieldManager, force on a non-apply
//     patch are 422s naming CreateOptions, UpdateOptions, PatchOptions or DeleteOptions
//     (write_options.go). An update's resourceVersion "0" means none (unconditional);
//     one that is not a number is the parser's 500, as in the real server.
//
// /debug/faults from a shell, against `demo serve` on its default port:
//
//	curl -s localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"drop-next-events","count":1}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"drop-next-events","key":"default/web","type":"DELETED"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"fail-next","verb":"list","resource":"pods","count":3,"code":500}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"fail-next","verb":"watch","code":410,"asWatchEvent":true}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"delay-events","delay":"2s"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"close-all-watches"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"close-next-watches","count":1}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"cut-next-event"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"compact"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"compact","resourceVersion":12}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"reset-request-counts"}' localhost:6443/debug/faults
//	curl -s -X DELETE localhost:6443/debug/faults
//
// With StartTLS and a token, use https and add --cacert ca.crt -H "Authorization: Bearer
// $TOKEN". Every POST needs -H 'Content-Type: application/json' (curl -d alone sends a
// form, which is 415); a bad body is a 400 Status naming the bad member.
//
// The status subresource (…/{name}/status, U2, U5) is served for every kind but configmaps,
// as the real pod, namespace and custom-resource strategies do: a PUT or PATCH there changes
// only the status, and one on the main resource keeps the stored status whatever the body
// says; generation moves on spec changes only (P5).
//
// Deviations, chosen for a teaching simulator: apply-patch is approximated by a merge of the
// applied configuration (X4) with no field ownership; request bodies are JSON only (item
// 22), and an untyped body is 415 and a foreign Origin or Host 403 (item 35); a request without credentials on a resource path is 401 (a real
// server authenticates it as system:anonymous and RBAC answers 403); a Table of a kind
// without a printer has NAME AGE, as for a custom resource, rather than the real default
// convertor's Name and Created At; a metadata-only Accept clause on the wrong endpoint
// (PartialObjectMetadata for a list) is skipped rather than answered 406.
package apiserver

// Package listwatch is the client side of the wire: the ListerWatcher interfaces and
// ListWatch, a small JSON REST client (RESTClient, Request, ResourceClient, Config,
// kubeconfig loading and exec credential plugins), the watch stream decoder (StreamWatcher)
// and the pager (ListPager). It mirrors client-go tools/cache/listwatch.go,
// tools/pager/pager.go, rest/ (config.go, client.go, request.go, with_retry.go),
// rest/watch/decoder.go, tools/clientcmd (loading only), plugin/pkg/client/auth/exec, and
// apimachinery pkg/watch/streamwatcher.go and pkg/util/framer. It imports only api and
// internal packages, never the apiserver: client and server share nothing but the wire.
//
// The contract (IDs refer to the behaviour and wire specifications):
//
//  1. ListWatch prefers its WithContext functions when they are set (LW-1), and
//     ToListerWatcherWithContext keeps the IsWatchListSemanticsUnSupported opt-out (LW-2).
//  2. A list result is an api.ListObject: items plus the list's resourceVersion and continue
//     token (LW-3).
//  3. ListPager.List sets an unset limit to PageSize (none when PageSize is 0), returns a
//     single page unchanged, concatenates several pages into one list of the first page's
//     type at the first page's resourceVersion, sends continuation requests with the token
//     and without resourceVersion or its match, falls back once to a full list at the
//     original resourceVersion when a continuation fails with reason Expired, and stops with
//     ctx.Err() when the context ends between pages (PG-1 … PG-6).
//  4. Requests address /api/v1 for the core group and /apis/{group}/{version} otherwise, with
//     namespaces/{ns} for a namespaced request and none for all namespaces (U1–U4). List
//     options become query parameters exactly as client-go encodes them: only set fields, a
//     set pointer even when it points to 0 or false, keys sorted.
//  5. Every request asks for JSON only. A non-2xx answer becomes the server's *api.Status
//     when the body is a failure Status (S1); otherwise a Status is synthesized from the HTTP
//     code, as client-go's NewGenericServerResponse does (S6).
//  6. Watch returns once the headers arrive. A 200 stream is decoded frame by frame:
//     {"type":…,"object":…} objects, newline optional (W4); objects decode through the
//     Scheme (typed kinds) or as *api.Unstructured; an ERROR event carries an *api.Status
//     (LW-5); BOOKMARK objects keep their annotations, so the initial-events-end marker is
//     visible (LW-4).
//  7. A broken stream (a truncated frame, a frame over the size limit, 16 MiB by default,
//     bytes that are not a JSON object, an object without a kind, an unknown event type)
//     ends with exactly one ERROR event holding a 500 Status that says what was wrong, then
//     the channel closes. A clean end of the body, or a connection that drops between events,
//     just closes the channel.
//  8. Stop closes the body and cancels the request: the reader goroutine ends and the
//     connection is released; the result channel is then closed. Stop is idempotent.
//  9. A kubeconfig (the YAML subset kubeconfig files use, or JSON) gives server, CA data or
//     file, insecure-skip-tls-verify and the user's credentials: a bearer token or token
//     file, a client certificate and key (data or files, data winning), an exec credential
//     plugin (client.authentication.k8s.io/v1 or v1beta1), or a token with either. Auth
//     providers, basic auth and impersonation are refused with an error naming the field; CA
//     data together with insecure is refused as in client-go, and so are a certificate
//     without its key (or a key without its certificate) and a pair that does not parse. The
//     certificate is presented whenever the server asks for one. An exec plugin runs on the
//     first request, without a terminal and with KUBERNETES_EXEC_INFO set (spec.cluster only
//     with provideClusterInfo); its token becomes the Authorization header, or its
//     certificate the client certificate, cached until its expirationTimestamp on
//     Config.Clock and renewed once after a 401 answer; a failed run is the request's error.
//     A token or client certificate on the Config switches the plugin off, as in client-go;
//     interactiveMode Always, which needs a terminal, is refused.
//  10. With Config.Logger, each list, watch open, watch event and watch close logs one Debug
//     hop (component "listwatch", ops list, watch-open, watch-event, watch-close, and retry
//     for item 11); with no logger or Debug disabled, tracing allocates nothing.
//  11. Do and Watch retry as client-go's withRetry does (rest/with_retry.go): an answer of 429
//     or any 5xx carrying Retry-After in whole seconds is sent again after that many seconds,
//     for every verb (bodies are byte slices, so they can be resent), at most MaxRetries
//     times (DefaultMaxRetries, 10); other answers, and Retry-After as a date, are returned
//     at once. A GET whose connection is cut is retried after 1 s, a write is not; a watch
//     whose connection is cut or times out before the headers is retried after 1 s and, once
//     retries run out, is an empty closed watch. The waits run on Config.Clock and end with
//     the context (or Config.Timeout, which bounds a call with its retries); the final error
//     is the last answer's *api.Status, or the context's error.
//  12. VersionedParams takes *api.ListOptions, *GetOptions, *CreateOptions, *UpdateOptions
//     or *PatchOptions and encodes only the set fields; AbsPath replaces the group-version
//     prefix; SetHeader replaces a header, Accept included.
package listwatch

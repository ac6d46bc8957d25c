// Package rest is a small JSON REST client for the Kubernetes API: RESTClient and the Request
// builder, Result, Config (server, TLS, bearer tokens, client certificates, exec credential
// plugins) and the retries client-go makes on Retry-After. It mirrors client-go rest/
// (config.go, client.go, request.go, with_retry.go) and the query encoding of metav1's
// ParameterCodec; the watch stream is decoded by package rest/watch, credential plugins run
// in package plugin/pkg/client/auth/exec (client-go's path), and kubeconfig files become a
// Config in package clientcmd. It imports only api, internal and plugin packages, never the
// apiserver and never clientcmd: client and server share nothing but the wire, and
// kubeconfig loading sits above the REST client, not beside it.
//
// The contract (IDs refer to the behaviour and wire specifications):
//
//  1. Requests address /api/v1 for the core group and /apis/{group}/{version} otherwise, with
//     namespaces/{ns} for a namespaced request and none for all namespaces (U1–U4). List
//     options become query parameters exactly as client-go encodes them: only set fields, a
//     set pointer even when it points to 0 or false, keys sorted.
//  2. Every request asks for JSON only. A non-2xx answer becomes the server's *api.Status
//     when the body is a failure Status (S1); otherwise a Status is synthesized from the HTTP
//     code, as client-go's NewGenericServerResponse does (S6).
//  3. Watch returns once the headers arrive; a 200 stream is handed to a rest/watch
//     StreamWatcher, whose Stop also cancels the request. A watch response that is not JSON
//     is an error.
//  4. Config's TLS settings are checked when the client is built: CA data together with
//     insecure is refused as in client-go, and so are a certificate without its key (or a key
//     without its certificate) and a pair that does not parse; the certificate is presented
//     whenever the server asks for one. A token or client certificate on the Config switches
//     its exec plugin off, as in client-go.
//  5. With Config.Logger, each list and watch open logs one Debug hop (component
//     "listwatch", ops list and watch-open, and retry for item 6); with no logger or Debug
//     disabled, tracing allocates nothing.
//  6. Do and Watch retry as client-go's withRetry does (rest/with_retry.go): an answer of 429
//     or any 5xx carrying Retry-After in whole seconds is sent again after that many seconds,
//     for every verb (bodies are byte slices, so they can be resent), at most MaxRetries
//     times (DefaultMaxRetries, 10); other answers, and Retry-After as a date, are returned
//     at once. A GET whose connection is cut is retried after 1 s, a write is not; a watch
//     whose connection is cut or times out before the headers is retried after 1 s and, once
//     retries run out, is an empty closed watch. The waits run on Config.Clock and end with
//     the context (or Config.Timeout, which bounds a call with its retries); the final error
//     is the last answer's *api.Status, or the context's error.
//  7. VersionedParams takes *api.ListOptions, *api.GetOptions, *api.CreateOptions,
//     *api.UpdateOptions or *api.PatchOptions and encodes only the set fields; AbsPath
//     replaces the group-version prefix; SetHeader replaces a header, Accept included.
package rest

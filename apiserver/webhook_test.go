package apiserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// hookServer is a webhook served on loopback with its own certificate, as a test process
// serves one (controller-runtime's webhook server, envtest's WebhookInstallOptions).
type hookServer struct {
	*httptest.Server
	mu       sync.Mutex
	calls    map[string]int              // by path
	requests map[string][]map[string]any // the AdmissionReview requests, by path
}

// reply answers one AdmissionReview request; nil answers garbage.
type reply func(req map[string]any) map[string]any

func newHookServer(t *testing.T, routes map[string]reply) *hookServer {
	t.Helper()
	h := &hookServer{calls: map[string]int{}, requests: map[string][]map[string]any{}}
	h.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review struct {
			Request map[string]any `json:"request"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &review)
		h.mu.Lock()
		h.calls[r.URL.Path]++
		h.requests[r.URL.Path] = append(h.requests[r.URL.Path], review.Request)
		h.mu.Unlock()
		if r.URL.Path == "/500" {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		if r.URL.Path == "/hang" {
			<-r.Context().Done() // a webhook that never answers, until the caller gives up
			// Abort rather than return: a return would send an empty 200, which a caller
			// on a loaded machine can read before its own deadline fires.
			panic(http.ErrAbortHandler)
		}
		fn := routes[r.URL.Path]
		if fn == nil {
			http.NotFound(w, r)
			return
		}
		resp := fn(review.Request)
		if resp == nil {
			_, _ = w.Write([]byte("this is not json"))
			return
		}
		if _, ok := resp["uid"]; !ok {
			resp["uid"] = review.Request["uid"]
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": resp})
	}))
	t.Cleanup(h.Close)
	return h
}

// otherCA is a fresh self-signed certificate, in PEM.
func otherCA(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "other-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func (h *hookServer) count(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls[path]
}

func (h *hookServer) caBundle() string {
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: h.Certificate().Raw}))
}

// webhookFor is one webhook of a configuration, posting to path on h, for configmaps.
func (h *hookServer) webhookFor(name, path string, extra map[string]any) map[string]any {
	w := map[string]any{
		"name": name, "admissionReviewVersions": []any{"v1"}, "sideEffects": "None",
		"clientConfig": map[string]any{"url": h.URL + path, "caBundle": h.caBundle()},
		"rules":        []any{map[string]any{"operations": []any{"CREATE", "UPDATE"}, "apiGroups": []any{""}, "apiVersions": []any{"v1"}, "resources": []any{"configmaps"}}},
	}
	for k, v := range extra {
		w[k] = v
	}
	return w
}

func registerWebhooks(t *testing.T, c *client, kind, name string, hooks ...map[string]any) {
	t.Helper()
	list := make([]any, len(hooks))
	for i, h := range hooks {
		list[i] = h
	}
	resource := "validatingwebhookconfigurations"
	if kind == "MutatingWebhookConfiguration" {
		resource = "mutatingwebhookconfigurations"
	}
	r := c.do("POST", "/apis/admissionregistration.k8s.io/v1/"+resource, map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": map[string]any{"name": name}, "webhooks": list})
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
}

func configMap(name string, labels map[string]any) map[string]any {
	meta := map[string]any{"name": name}
	if labels != nil {
		meta["labels"] = labels
	}
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": map[string]any{"k": "v"}}
}

func allow(map[string]any) map[string]any { return map[string]any{"allowed": true} }

// TestCh01_Webhook_ValidatingRefusals: what a validating webhook's answer, or its failure,
// makes of a create, with the real server's codes and messages; nothing is stored when the
// request is refused.
func TestCh01_Webhook_ValidatingRefusals(t *testing.T) {
	routes := map[string]reply{
		"/deny": func(map[string]any) map[string]any {
			return map[string]any{"allowed": false, "status": map[string]any{"code": 403, "message": "no configmaps today"}}
		},
		"/deny-bare": func(map[string]any) map[string]any { return map[string]any{"allowed": false} },
		"/warn": func(map[string]any) map[string]any {
			return map[string]any{"allowed": true, "warnings": []any{"configmaps are going away"}}
		},
		"/garbage":   func(map[string]any) map[string]any { return nil },
		"/wrong-uid": func(map[string]any) map[string]any { return map[string]any{"uid": "x", "allowed": true} },
		"/deny-reason": func(map[string]any) map[string]any {
			return map[string]any{"allowed": false, "status": map[string]any{"reason": "NotAllowed", "code": 200}}
		},
		"/bad-patch": func(map[string]any) map[string]any {
			return jsonPatch(`[{"op":"replace","path":"/nope/x","value":1}]`)
		},
		"/patch": func(map[string]any) map[string]any {
			return map[string]any{"allowed": true, "patchType": "JSONPatch", "patch": base64.StdEncoding.EncodeToString([]byte(`[]`))}
		},
	}
	hs := newHookServer(t, routes)
	wrongCA := base64.StdEncoding.EncodeToString(otherCA(t)) // a CA that did not sign hs's certificate

	cases := []struct {
		name    string
		hook    map[string]any
		kind    string // ValidatingWebhookConfiguration when empty
		code    int
		message string
		warning string
	}{
		{name: "refused", hook: hs.webhookFor("deny.example.com", "/deny", nil), code: 403,
			message: `admission webhook "deny.example.com" denied the request: no configmaps today`},
		{name: "refused without explanation", hook: hs.webhookFor("bare.example.com", "/deny-bare", nil), code: 400,
			message: `admission webhook "bare.example.com" denied the request without explanation`},
		{name: "warning", hook: hs.webhookFor("warn.example.com", "/warn", nil), code: 201, warning: `299 - "configmaps are going away"`},
		{name: "garbage", hook: hs.webhookFor("garbage.example.com", "/garbage", nil), code: 500,
			message: `Internal error occurred: failed calling webhook "garbage.example.com": failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`},
		{name: "server error", hook: hs.webhookFor("e.example.com", "/500", nil), code: 500,
			message: `Internal error occurred: failed calling webhook "e.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding`},
		{name: "wrong uid", hook: hs.webhookFor("uid.example.com", "/wrong-uid", nil), code: 500,
			message: `Internal error occurred: failed calling webhook "uid.example.com": received invalid webhook response: expected response.uid=`},
		{name: "refused with a reason and a 200", hook: hs.webhookFor("r.example.com", "/deny-reason", nil), code: 400,
			message: `admission webhook "r.example.com" denied the request: NotAllowed`},
		{name: "patch that does not apply", kind: "MutatingWebhookConfiguration", hook: hs.webhookFor("p.example.com", "/bad-patch", nil), code: 500,
			// The reference ends "doc is missing path: /nope/x: missing value"; the patch
			// package words the path its own way.
			message: `Internal error occurred: replace operation does not apply: doc is missing path: `},
		{name: "garbage ignored", hook: hs.webhookFor("garbage.example.com", "/garbage", map[string]any{"failurePolicy": "Ignore"}), code: 201},
		{name: "validating patch", hook: hs.webhookFor("patch.example.com", "/patch", nil), code: 500,
			message: `Internal error occurred: failed calling webhook "patch.example.com": received invalid webhook response: validating webhook may not return response.patch`},
		{name: "untrusted certificate", hook: hs.webhookFor("tls.example.com", "/deny", map[string]any{
			"clientConfig": map[string]any{"url": hs.URL + "/deny", "caBundle": wrongCA}}), code: 500,
			message: `Internal error occurred: failed calling webhook "tls.example.com": failed to call webhook: Post "` + hs.URL + `/deny?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`},
		{name: "hangs past its timeout", hook: hs.webhookFor("hang.example.com", "/hang", map[string]any{"timeoutSeconds": 1}), code: 500,
			message: `Internal error occurred: failed calling webhook "hang.example.com": failed to call webhook: Post "` + hs.URL + `/hang?timeout=1s": context deadline exceeded`},
		{name: "hang ignored", hook: hs.webhookFor("hang.example.com", "/hang", map[string]any{"timeoutSeconds": 1, "failurePolicy": "Ignore"}), code: 201},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, Options{})
			kind := tc.kind
			if kind == "" {
				kind = "ValidatingWebhookConfiguration"
			}
			registerWebhooks(t, c, kind, "v", tc.hook)
			r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
			require.Equal(t, tc.code, r.code, string(r.body))
			if tc.message != "" {
				// The uid is new each time: the wrong-uid message is compared up to it.
				msg := r.status(t).Message
				if strings.HasSuffix(tc.message, "=") || strings.HasSuffix(tc.message, ": ") {
					msg = msg[:min(len(msg), len(tc.message))]
				}
				assert.Equal(t, tc.message, msg)
			}
			if tc.warning != "" {
				assert.Equal(t, tc.warning, r.header.Get("Warning"))
			}
			stored := c.get("/api/v1/namespaces/default/configmaps/cm").code
			if tc.code == 201 {
				assert.Equal(t, http.StatusOK, stored)
			} else {
				assert.Equal(t, http.StatusNotFound, stored, "nothing is stored when a webhook refuses")
			}
		})
	}
}

// TestCh01_Webhook_Matching: rules, scope, namespaceSelector, objectSelector and
// matchConditions decide which requests a webhook sees.
func TestCh01_Webhook_Matching(t *testing.T) {
	deny := func(map[string]any) map[string]any {
		return map[string]any{"allowed": false, "status": map[string]any{"message": "seen"}}
	}
	hs := newHookServer(t, map[string]reply{"/deny": deny})
	rule := func(ops, resources []any, scope string) map[string]any {
		r := map[string]any{"operations": ops, "apiGroups": []any{"*"}, "apiVersions": []any{"*"}, "resources": resources}
		if scope != "" {
			r["scope"] = scope
		}
		return map[string]any{"rules": []any{r}}
	}
	with := func(extra ...map[string]any) map[string]any {
		out := map[string]any{}
		for _, e := range extra {
			for k, v := range e {
				out[k] = v
			}
		}
		return out
	}
	cases := []struct {
		name   string
		extra  map[string]any
		labels map[string]any
		called bool
		code   int
		msg    string
	}{
		{name: "every resource", extra: rule([]any{"*"}, []any{"*"}, ""), called: true},
		{name: "update only", extra: rule([]any{"UPDATE"}, []any{"*"}, "")},
		{name: "other resource", extra: rule([]any{"*"}, []any{"secrets"}, "")},
		{name: "subresources only", extra: rule([]any{"*"}, []any{"*/status"}, "")},
		{name: "all and subresources", extra: rule([]any{"*"}, []any{"*/*"}, ""), called: true},
		{name: "cluster scope", extra: rule([]any{"*"}, []any{"*"}, "Cluster")},
		{name: "namespaced scope", extra: rule([]any{"*"}, []any{"*"}, "Namespaced"), called: true},
		{name: "namespace selector misses", extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"team": "a"}}})},
		{name: "namespace selector hits", extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"namespaceSelector": map[string]any{"matchExpressions": []any{map[string]any{"key": "kubernetes.io/metadata.name", "operator": "In", "values": []any{"default"}}}}}), called: true},
		{name: "object selector misses", extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"objectSelector": map[string]any{"matchLabels": map[string]any{"app": "web"}}})},
		{name: "object selector hits", labels: map[string]any{"app": "web"}, extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"objectSelector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}), called: true},
		{name: "match condition false", extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"matchConditions": []any{map[string]any{"name": "only-web", "expression": `object.metadata.name == "web"`}}})},
		{name: "match condition true", extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"matchConditions": []any{map[string]any{"name": "cm", "expression": `request.operation == "CREATE" && object.metadata.name == "cm"`}}}), called: true},
		{name: "match condition error fails closed", extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"matchConditions": []any{map[string]any{"name": "labels", "expression": `object.metadata.labels.app == "x"`}}}),
			code: 403, msg: `configmaps "cm" is forbidden: expression 'object.metadata.labels.app == "x"' resulted in error: no such key: labels`},
		{name: "match condition error ignored", extra: with(rule([]any{"*"}, []any{"*"}, ""),
			map[string]any{"failurePolicy": "Ignore", "matchConditions": []any{map[string]any{"name": "labels", "expression": `object.metadata.labels.app == "x"`}}})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, Options{})
			before := hs.count("/deny")
			registerWebhooks(t, c, "ValidatingWebhookConfiguration", "v", hs.webhookFor("match.example.com", "/deny", tc.extra))
			r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", tc.labels))
			switch {
			case tc.code != 0:
				require.Equal(t, tc.code, r.code, string(r.body))
				assert.Equal(t, tc.msg, r.status(t).Message)
				assert.Equal(t, before, hs.count("/deny"))
			case tc.called:
				require.Equal(t, http.StatusBadRequest, r.code, string(r.body))
				assert.Equal(t, `admission webhook "match.example.com" denied the request: seen`, r.status(t).Message)
				assert.Equal(t, before+1, hs.count("/deny"))
			default:
				require.Equal(t, http.StatusCreated, r.code, string(r.body))
				assert.Equal(t, before, hs.count("/deny"))
			}
		})
	}
}

// jsonPatch answers with a JSONPatch.
func jsonPatch(ops string) map[string]any {
	return map[string]any{"allowed": true, "patchType": "JSONPatch", "patch": base64.StdEncoding.EncodeToString([]byte(ops))}
}

// TestCh01_Webhook_Mutating: patches are applied in the webhooks' order after the built-in
// plugins; validating webhooks see the result; IfNeeded webhooks run once more when a later
// webhook changed the object, and a webhook that always mutates is bounded to two calls.
func TestCh01_Webhook_Mutating(t *testing.T) {
	var mu sync.Mutex
	var seenByValidator map[string]any
	hs := newHookServer(t, map[string]reply{
		"/label": func(req map[string]any) map[string]any {
			return jsonPatch(`[{"op":"add","path":"/metadata/labels","value":{"patched":"yes"}}]`)
		},
		"/annotate": func(req map[string]any) map[string]any {
			return jsonPatch(`[{"op":"add","path":"/metadata/annotations","value":{"b":"1"}}]`)
		},
		"/noop": func(map[string]any) map[string]any { return jsonPatch(`[]`) },
		"/loop": func(req map[string]any) map[string]any {
			// Always changes the object: a new annotation value each call.
			obj := req["object"].(map[string]any)
			n := len(obj["metadata"].(map[string]any)["annotations"].(map[string]any))
			return jsonPatch(`[{"op":"add","path":"/metadata/annotations/n` + string(rune('0'+n)) + `","value":"x"}]`)
		},
		"/see": func(req map[string]any) map[string]any {
			mu.Lock()
			seenByValidator = req
			mu.Unlock()
			return map[string]any{"allowed": true}
		},
		"/pod": func(req map[string]any) map[string]any {
			spec := req["object"].(map[string]any)["spec"].(map[string]any)
			if spec["serviceAccountName"] != "default" {
				return map[string]any{"allowed": false, "status": map[string]any{"message": "built-in plugins did not run first"}}
			}
			return jsonPatch(`[{"op":"add","path":"/metadata/labels","value":{"seen":"sa"}}]`)
		},
	})
	ifNeeded := map[string]any{"reinvocationPolicy": "IfNeeded"}
	// Each server in its own subtest: its leak check runs when it has closed.
	t.Run("order and reinvocation", func(t *testing.T) {
		_, c := newServer(t, Options{})
		registerWebhooks(t, c, "MutatingWebhookConfiguration", "a-first",
			hs.webhookFor("noop.example.com", "/noop", ifNeeded),
			hs.webhookFor("label.example.com", "/label", nil))
		registerWebhooks(t, c, "MutatingWebhookConfiguration", "b-second", hs.webhookFor("annotate.example.com", "/annotate", nil))
		registerWebhooks(t, c, "ValidatingWebhookConfiguration", "see", hs.webhookFor("see.example.com", "/see", nil))

		r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
		var got map[string]any
		r.decode(t, &got)
		meta := got["metadata"].(map[string]any)
		assert.Equal(t, map[string]any{"patched": "yes"}, meta["labels"])
		assert.Equal(t, map[string]any{"b": "1"}, meta["annotations"])
		assert.Equal(t, 2, hs.count("/noop"), "an IfNeeded webhook runs again after a later webhook changed the object")
		assert.Equal(t, 1, hs.count("/label"))
		mu.Lock()
		seen := seenByValidator["object"].(map[string]any)["metadata"].(map[string]any)
		mu.Unlock()
		assert.Equal(t, map[string]any{"patched": "yes"}, seen["labels"], "validating webhooks see the mutated object")

	})
	t.Run("looping webhooks", func(t *testing.T) {
		// A webhook that always mutates: called twice, no more.
		_, c := newServer(t, Options{})
		registerWebhooks(t, c, "MutatingWebhookConfiguration", "loop", hs.webhookFor("loop.example.com", "/loop", ifNeeded))
		registerWebhooks(t, c, "MutatingWebhookConfiguration", "loop2", hs.webhookFor("loop2.example.com", "/loop", ifNeeded))
		cm := configMap("cm", nil)
		cm["metadata"].(map[string]any)["annotations"] = map[string]any{}
		r := c.do("POST", "/api/v1/namespaces/default/configmaps", cm)
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
		assert.Equal(t, 4, hs.count("/loop"), "each of two looping webhooks runs once, then once more")

	})
	t.Run("after the built-in plugins", func(t *testing.T) {
		// Pods: the webhook runs after ServiceAccount and the other built-in mutating plugins.
		_, c := newServer(t, Options{})
		podHook := hs.webhookFor("pod.example.com", "/pod", map[string]any{"rules": []any{map[string]any{
			"operations": []any{"CREATE"}, "apiGroups": []any{""}, "apiVersions": []any{"v1"}, "resources": []any{"pods"}}}})
		registerWebhooks(t, c, "MutatingWebhookConfiguration", "pods", podHook)
		r := c.do("POST", "/api/v1/namespaces/default/pods", podBody("p", map[string]any{"name": "c", "image": "x"}))
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
		var got map[string]any
		r.decode(t, &got)
		assert.Equal(t, map[string]any{"seen": "sa"}, got["metadata"].(map[string]any)["labels"])
	})
}

// TestCh01_Webhook_DryRunAndUpdates: a webhook with side effects refuses a dry run with the
// real 400 before it is called; updates are sent with the old object; a refused update
// leaves the stored object as it was.
func TestCh01_Webhook_DryRunAndUpdates(t *testing.T) {
	hs := newHookServer(t, map[string]reply{
		"/deny-update": func(req map[string]any) map[string]any {
			if req["operation"] == "UPDATE" && req["oldObject"] != nil {
				return map[string]any{"allowed": false, "status": map[string]any{"message": "frozen", "reason": "Forbidden", "code": 403}}
			}
			return map[string]any{"allowed": true}
		},
	})
	cases := []struct {
		name        string
		sideEffects string
		code        int
	}{
		// v1 refuses these in a configuration, as the reference does; the dry-run refusal of
		// a webhook with side effects is tested in the admission package.
		{name: "Unknown", sideEffects: "Unknown", code: 422},
		{name: "Some", sideEffects: "Some", code: 422},
		{name: "None", sideEffects: "None", code: 201},
		{name: "NoneOnDryRun", sideEffects: "NoneOnDryRun", code: 201},
	}
	for _, tc := range cases {
		for _, kind := range []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				_, c := newServer(t, Options{})
				before := hs.count("/deny-update")
				hook := hs.webhookFor("dry.example.com", "/deny-update", map[string]any{"sideEffects": tc.sideEffects})
				resource := strings.ToLower(kind) + "s"
				r := c.do("POST", "/apis/admissionregistration.k8s.io/v1/"+resource, map[string]any{
					"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": map[string]any{"name": "dry"}, "webhooks": []any{hook}})
				if tc.code == 422 {
					require.Equal(t, tc.code, r.code, string(r.body))
					assert.Equal(t, kind+`.admissionregistration.k8s.io "dry" is invalid: webhooks[0].sideEffects: Unsupported value: "`+tc.sideEffects+`": supported values: "None", "NoneOnDryRun"`, r.status(t).Message)
					return
				}
				require.Equal(t, http.StatusCreated, r.code, string(r.body))
				r = c.do("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", configMap("cm", nil))
				require.Equal(t, tc.code, r.code, string(r.body))
				require.Equal(t, before+1, hs.count("/deny-update"))
				hs.mu.Lock()
				last := hs.requests["/deny-update"][before]
				hs.mu.Unlock()
				assert.Equal(t, true, last["dryRun"])
				assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/default/configmaps/cm").code)
			})
		}
	}

	_, c := newServer(t, Options{})
	registerWebhooks(t, c, "ValidatingWebhookConfiguration", "upd", hs.webhookFor("upd.example.com", "/deny-update", nil))
	r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	next := configMap("cm", map[string]any{"changed": "yes"})
	r = c.do("PUT", "/api/v1/namespaces/default/configmaps/cm", next)
	require.Equal(t, http.StatusForbidden, r.code, string(r.body))
	st := r.status(t)
	assert.Equal(t, `admission webhook "upd.example.com" denied the request: frozen`, st.Message)
	assert.Equal(t, "Forbidden", string(st.Reason))
	var stored map[string]any
	c.get("/api/v1/namespaces/default/configmaps/cm").decode(t, &stored)
	assert.Nil(t, stored["metadata"].(map[string]any)["labels"])
}

// TestCh01_Webhook_TimeoutFault: the webhook-timeout fault of /debug/faults makes the next
// call behave as a webhook that never answers, without reaching it.
func TestCh01_Webhook_TimeoutFault(t *testing.T) {
	hs := newHookServer(t, map[string]reply{"/ok": allow})
	s, c := newServer(t, Options{DebugFaults: true})
	registerWebhooks(t, c, "ValidatingWebhookConfiguration", "v", hs.webhookFor("ok.example.com", "/ok", map[string]any{"timeoutSeconds": 1}))
	r := c.do("POST", "/debug/faults", map[string]any{"action": "webhook-timeout", "count": 1})
	require.Equal(t, http.StatusOK, r.code, string(r.body))
	var st FaultState
	r.decode(t, &st)
	assert.Equal(t, 1, st.WebhookTimeouts)

	r = c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
	require.Equal(t, http.StatusInternalServerError, r.code, string(r.body))
	assert.Equal(t, `Internal error occurred: failed calling webhook "ok.example.com": failed to call webhook: Post "`+hs.URL+`/ok?timeout=1s": context deadline exceeded`, r.status(t).Message)
	assert.Equal(t, 0, hs.count("/ok"))
	assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/default/configmaps/cm").code)

	r = c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	assert.Equal(t, 1, hs.count("/ok"))
	s.TimeoutNextWebhooks(2)
	s.ClearFaults()
	r = c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm2", nil))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
}

// BenchmarkCreateWebhooks: creates with a webhook configuration that does not match them
// (what every create pays once configurations exist) and with a validating webhook that
// is called on loopback for each create.
func BenchmarkCreateWebhooks(b *testing.B) {
	for _, tc := range []struct {
		name     string
		resource string
	}{{"not-matching", "secrets"}, {"called", "pods"}} {
		b.Run(tc.name, func(b *testing.B) {
			hook := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var review struct {
					Request map[string]any `json:"request"`
				}
				_ = json.NewDecoder(r.Body).Decode(&review)
				_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
					"response": map[string]any{"uid": review.Request["uid"], "allowed": true}})
			}))
			defer hook.Close()
			s := New(Options{})
			defer s.Close()
			ctx := context.Background()
			ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hook.Certificate().Raw}))
			cfg := &api.Unstructured{Object: map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
				"metadata": map[string]any{"name": "bench"}, "webhooks": []any{map[string]any{
					"name": "bench.example.com", "admissionReviewVersions": []any{"v1"}, "sideEffects": "None",
					"clientConfig": map[string]any{"url": hook.URL + "/", "caBundle": ca},
					"rules":        []any{map[string]any{"operations": []any{"CREATE"}, "apiGroups": []any{""}, "apiVersions": []any{"v1"}, "resources": []any{tc.resource}}},
				}}}}
			if _, err := s.Create(ctx, "validatingwebhookconfigurations.admissionregistration.k8s.io", "", cfg); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := s.Create(ctx, "pods", "default", benchPod(i)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
		})
	}
}

// TestCh01_Webhook_CallsBackIntoTheServer: a webhook that writes to the server while it
// admits a create (as a webhook with a client may) is not blocked by the request that
// called it: webhooks are called outside the storage lock.
func TestCh01_Webhook_CallsBackIntoTheServer(t *testing.T) {
	var c *client
	var mu sync.Mutex
	codes := map[string]int{}
	hs := newHookServer(t, map[string]reply{
		"/record": func(req map[string]any) map[string]any {
			name := "seen-" + req["name"].(string)
			r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap(name, nil))
			mu.Lock()
			codes[name] = r.code
			mu.Unlock()
			return map[string]any{"allowed": true}
		},
	})
	_, c = newServer(t, Options{})
	only := map[string]any{"timeoutSeconds": 5, "objectSelector": map[string]any{"matchLabels": map[string]any{"record": "yes"}}}
	registerWebhooks(t, c, "ValidatingWebhookConfiguration", "v", hs.webhookFor("v.example.com", "/record", only))
	registerWebhooks(t, c, "MutatingWebhookConfiguration", "m", hs.webhookFor("m.example.com", "/record", only))
	r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", map[string]any{"record": "yes"}))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	mu.Lock()
	// The mutating call creates seen-cm; the validating call finds it there.
	assert.Equal(t, map[string]int{"seen-cm": http.StatusConflict}, codes)
	mu.Unlock()

	// An update: its webhooks too run outside the lock, and may write.
	r = c.do("PUT", "/api/v1/namespaces/default/configmaps/cm", configMap("cm", map[string]any{"record": "yes", "v": "2"}))
	require.Equal(t, http.StatusOK, r.code, string(r.body))
}

// TestCh01_Webhook_UpdateTriesAgainWhenTheObjectChanged: a webhook that changes the object
// being updated, while it admits the update, makes the update try again on the new state,
// calling the webhook again; an update that names the old resourceVersion is a conflict.
func TestCh01_Webhook_UpdateTriesAgainWhenTheObjectChanged(t *testing.T) {
	var c *client
	var mu sync.Mutex
	touched := false
	hs := newHookServer(t, map[string]reply{
		"/touch": func(req map[string]any) map[string]any {
			mu.Lock()
			first := !touched
			touched = true
			mu.Unlock()
			if first && req["operation"] == "UPDATE" {
				cm := configMap("cm", map[string]any{"touched": "yes"})
				r := c.do("PUT", "/api/v1/namespaces/default/configmaps/cm", cm)
				if r.code != http.StatusOK {
					return map[string]any{"allowed": false, "status": map[string]any{"message": string(r.body)}}
				}
			}
			return map[string]any{"allowed": true}
		},
	})
	_, c = newServer(t, Options{})
	r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	registerWebhooks(t, c, "ValidatingWebhookConfiguration", "v", hs.webhookFor("v.example.com", "/touch", map[string]any{
		"timeoutSeconds": 5, "objectSelector": map[string]any{"matchLabels": map[string]any{"mine": "yes"}}}))
	r = c.do("PUT", "/api/v1/namespaces/default/configmaps/cm", configMap("cm", map[string]any{"mine": "yes"}))
	require.Equal(t, http.StatusOK, r.code, string(r.body))
	assert.Equal(t, 2, hs.count("/touch"), "called again on the changed object")
	var got map[string]any
	c.get("/api/v1/namespaces/default/configmaps/cm").decode(t, &got)
	assert.Equal(t, map[string]any{"mine": "yes"}, got["metadata"].(map[string]any)["labels"])

	// With the resourceVersion it was read at, the same update is a conflict.
	mu.Lock()
	touched = false
	mu.Unlock()
	rv := got["metadata"].(map[string]any)["resourceVersion"].(string)
	body := configMap("cm", map[string]any{"mine": "yes", "again": "1"})
	body["metadata"].(map[string]any)["resourceVersion"] = rv
	r = c.do("PUT", "/api/v1/namespaces/default/configmaps/cm", body)
	require.Equal(t, http.StatusConflict, r.code, string(r.body))
}

package admission

import (
	"context"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_Webhook_UnitRefusalsBeforeCalling: what the plugins refuse without reaching a
// webhook: a dry run to a webhook whose stored sideEffects say it has side effects (v1
// refuses Unknown and Some on create; older stored configurations keep them), and a
// service reference with no Service or no endpoints.
func TestCh01_Webhook_UnitRefusalsBeforeCalling(t *testing.T) {
	rules := []any{map[string]any{"operations": []any{"*"}, "apiGroups": []any{"*"}, "apiVersions": []any{"*"}, "resources": []any{"*"}}}
	config := func(kind, resource string, hook map[string]any) fakeStore {
		hook["name"] = "x.example.com"
		hook["rules"] = rules
		return fakeStore{"admissionregistration.k8s.io/" + resource: {obj(map[string]any{
			"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
			"metadata": map[string]any{"name": "c"}, "webhooks": []any{hook}})}}
	}
	svcRef := map[string]any{"service": map[string]any{"namespace": "ns", "name": "hooks", "path": "/v"}}
	withService := func(s fakeStore, endpoints bool) fakeStore {
		s["/services"] = []*api.Unstructured{obj(map[string]any{"metadata": map[string]any{"name": "hooks", "namespace": "ns"},
			"spec": map[string]any{"ports": []any{map[string]any{"port": int64(443)}}}})}
		if endpoints {
			s["/endpoints"] = []*api.Unstructured{obj(map[string]any{"metadata": map[string]any{"name": "hooks", "namespace": "ns"},
				"subsets": []any{map[string]any{"addresses": []any{map[string]any{"ip": "127.0.0.1"}}, "ports": []any{map[string]any{"port": int64(1)}}}}})}
		}
		return s
	}
	cases := []struct {
		name   string
		plugin string
		store  fakeStore
		dryRun bool
		code   int32
		msg    string
	}{
		{name: "mutating side effects Unknown on dry run", plugin: "m", dryRun: true, code: 400,
			store: config("MutatingWebhookConfiguration", "mutatingwebhookconfigurations", map[string]any{"sideEffects": "Unknown", "clientConfig": map[string]any{"url": "https://127.0.0.1:1/"}}),
			msg:   `admission webhook "x.example.com" does not support dry run`},
		{name: "validating side effects Some on dry run", plugin: "v", dryRun: true, code: 400,
			store: config("ValidatingWebhookConfiguration", "validatingwebhookconfigurations", map[string]any{"sideEffects": "Some", "clientConfig": map[string]any{"url": "https://127.0.0.1:1/"}}),
			msg:   `admission webhook "x.example.com" does not support dry run`},
		{name: "service not found", plugin: "v", code: 500,
			store: config("ValidatingWebhookConfiguration", "validatingwebhookconfigurations", map[string]any{"sideEffects": "None", "clientConfig": svcRef}),
			msg:   `Internal error occurred: failed calling webhook "x.example.com": failed to call webhook: Post "https://hooks.ns.svc:443/v?timeout=10s": service "hooks" not found`},
		{name: "no endpoints", plugin: "m", code: 500,
			store: withService(config("MutatingWebhookConfiguration", "mutatingwebhookconfigurations", map[string]any{"sideEffects": "None", "clientConfig": svcRef}), false),
			msg:   `Internal error occurred: failed calling webhook "x.example.com": failed to call webhook: Post "https://hooks.ns.svc:443/v?timeout=10s": no endpoints available for service "hooks"`},
		{name: "endpoints resolved", plugin: "v", code: 500,
			store: withService(config("ValidatingWebhookConfiguration", "validatingwebhookconfigurations", map[string]any{"sideEffects": "None", "clientConfig": svcRef}), true),
			msg:   `Internal error occurred: failed calling webhook "x.example.com": failed to call webhook: Post "https://127.0.0.1:1/v?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused`},
		{name: "ignored", plugin: "v",
			store: config("ValidatingWebhookConfiguration", "validatingwebhookconfigurations", map[string]any{"sideEffects": "None", "failurePolicy": "Ignore", "clientConfig": svcRef})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := &Attributes{Operation: Create, Resource: api.GroupResource{Resource: "configmaps"}, Kind: api.GroupKind{Kind: "ConfigMap"},
				Namespace: "default", Name: "cm", DryRun: tc.dryRun, Store: tc.store,
				Object: obj(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "default"}})}
			var err error
			if tc.plugin == "m" {
				err = MutatingAdmissionWebhook{}.Admit(context.Background(), a)
			} else {
				err = ValidatingAdmissionWebhook{}.Validate(context.Background(), a)
			}
			if tc.code == 0 {
				assert.NoError(t, err)
				return
			}
			var st *api.Status
			require.ErrorAs(t, err, &st)
			assert.Equal(t, tc.code, st.Code)
			assert.Equal(t, tc.msg, st.Message)
		})
	}
}

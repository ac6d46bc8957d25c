package admissionregistration

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func decode(t *testing.T, js string) *api.Unstructured {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(js)), js)
	return &u
}

// TestCh01_Strategy_AdmissionKinds checks points 1–3: names, category, scope, generation,
// status, unconditional updates, field labels and the static-suffix warnings.
func TestCh01_Strategy_AdmissionKinds(t *testing.T) {
	tests := []struct {
		kind     rest.Kind
		resource string
		status   bool
		storage  string // the storage version, "" for v1
	}{
		{ValidatingWebhookConfigurations(), "validatingwebhookconfigurations", false, ""},
		{MutatingWebhookConfigurations(), "mutatingwebhookconfigurations", false, ""},
		{ValidatingAdmissionPolicies(), "validatingadmissionpolicies", true, ""},
		{ValidatingAdmissionPolicyBindings(), "validatingadmissionpolicybindings", false, ""},
		{MutatingAdmissionPolicies(), "mutatingadmissionpolicies", false, "v1beta1"},
		{MutatingAdmissionPolicyBindings(), "mutatingadmissionpolicybindings", false, "v1beta1"},
	}
	for _, tt := range tests {
		k, s := tt.kind, tt.kind.Strategy
		assert.Equal(t, Group, k.Group)
		assert.Equal(t, tt.resource, k.Resource)
		assert.Equal(t, []string{"api-extensions"}, k.Categories, tt.resource)
		assert.Equal(t, []string{"metadata.namespace"}, keys(k.Fields), tt.resource)
		assert.Equal(t, tt.storage, k.Storage.Version, tt.resource)
		assert.False(t, s.NamespaceScoped(), tt.resource)
		assert.True(t, s.HasGeneration(), tt.resource)
		assert.False(t, s.AllowUnconditionalUpdate(), tt.resource)
		assert.Equal(t, tt.status, s.HasStatus(), tt.resource)

		o := decode(t, `{"metadata":{"name":"a.static.k8s.io"},"status":{"x":1}}`)
		s.PrepareForCreate(rest.Context{}, o)
		if tt.status {
			assert.Equal(t, map[string]any{}, o.Object["status"], tt.resource)
		}
		want := []string{`metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API`}
		assert.Equal(t, want, s.WarningsOnCreate(o), tt.resource)
		assert.Equal(t, want, s.WarningsOnUpdate(o, o), tt.resource)
		assert.Nil(t, s.WarningsOnCreate(decode(t, `{"metadata":{"name":"ok"}}`)), tt.resource)
	}
}

func keys(m map[string]rest.FieldRead) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestCh01_Strategy_AdmissionGeneration checks point 1: a webhook or spec change moves the
// generation, labels do not.
func TestCh01_Strategy_AdmissionGeneration(t *testing.T) {
	s := ValidatingWebhookConfigurations().Strategy
	old := decode(t, `{"metadata":{"name":"v","generation":3},"webhooks":[{"name":"a.b.c"}]}`)
	labels := old.DeepCopy()
	labels.SetLabels(map[string]string{"a": "b"})
	s.PrepareForUpdate(rest.Context{}, labels, old)
	assert.Equal(t, int64(3), labels.GetGeneration())
	hooks := old.DeepCopy()
	hooks.Object["webhooks"] = []any{}
	s.PrepareForUpdate(rest.Context{}, hooks, old)
	assert.Equal(t, int64(4), hooks.GetGeneration())

	p := ValidatingAdmissionPolicies().Strategy
	oldP := decode(t, `{"metadata":{"name":"p","generation":1},"spec":{"failurePolicy":"Fail"},"status":{"observedGeneration":1}}`)
	newP := decode(t, `{"metadata":{"name":"p","generation":1},"spec":{"failurePolicy":"Ignore"},"status":{}}`)
	p.PrepareForUpdate(rest.Context{}, newP, oldP)
	assert.Equal(t, int64(2), newP.GetGeneration())
	assert.Equal(t, oldP.Object["status"], newP.Object["status"], "the main resource keeps the status")
}

// causesOf validates js (already defaulted as the server would) and lists "field: message".
func causesOf(t *testing.T, k rest.Kind, js string) []string {
	t.Helper()
	var out []string
	for _, c := range k.Strategy.Validate(decode(t, js)) {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

const (
	goodHook = `"name":"a.example.com","clientConfig":{"service":{"name":"s","namespace":"n","port":443}},"sideEffects":"None",
		"admissionReviewVersions":["v1"],"failurePolicy":"Fail","matchPolicy":"Equivalent","timeoutSeconds":10,"namespaceSelector":{},"objectSelector":{}`
	goodMatch = `"matchConstraints":{"matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},
		"resourceRules":[{"operations":["CREATE"],"apiGroups":["apps"],"apiVersions":["v1"],"resources":["deployments"],"scope":"*"}]}`
)

// TestCh01_Strategy_AdmissionValidate checks point 4 with the real messages.
func TestCh01_Strategy_AdmissionValidate(t *testing.T) {
	tests := []struct {
		name string
		kind rest.Kind
		js   string
		want []string
	}{
		{"valid webhook", ValidatingWebhookConfigurations(), `{"webhooks":[{` + goodHook + `}]}`, nil},
		{"webhook problems", MutatingWebhookConfigurations(), `{"webhooks":[{"name":"short.com","clientConfig":{"url":"http://h/p?q=1"},
			"admissionReviewVersions":["v2"],"timeoutSeconds":31,"reinvocationPolicy":"Always",
			"rules":[{"operations":["*","CREATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["*","pods"]}]}]}`, []string{
			`webhooks[0].name: Invalid value: "short.com": should be a domain with at least three segments separated by dots`,
			`webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if '*' is present, must not specify other operations`,
			`webhooks[0].rules[0].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources`,
			"webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
			"webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
			`webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"`,
			`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
			`webhooks[0].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL`,
			`webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1`,
		}},
		{"duplicate webhooks and no client config", ValidatingWebhookConfigurations(), `{"webhooks":[{` + goodHook + `},{"name":"a.example.com","sideEffects":"None","admissionReviewVersions":["v1"]}]}`, []string{
			"webhooks[1].clientConfig: Required value: exactly one of url or service is required",
			`webhooks[1].name: Duplicate value: "a.example.com"`,
		}},
		{"valid policy", ValidatingAdmissionPolicies(), `{"metadata":{"name":"p"},"spec":{"failurePolicy":"Fail",` + goodMatch + `,"validations":[{"expression":"true"}]}}`, nil},
		{"policy problems", ValidatingAdmissionPolicies(), `{"metadata":{"name":"p"},"spec":{"failurePolicy":"Fail","paramKind":{"apiVersion":"a/b/c"}}}`, []string{
			"spec.paramKind.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c",
			"spec.paramKind.kind: Required value",
			"spec.matchConstraints: Required value",
			"spec.validations: Required value: validations or auditAnnotations must contain at least one item",
			"spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
		}},
		{"mutating policy problems", MutatingAdmissionPolicies(), `{"metadata":{"name":"p"},"spec":{"failurePolicy":"Fail",` + goodMatch + `,
			"mutations":[{"patchType":"JSONPatch"}]}}`, []string{
			"spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch",
			"spec.reinvocationPolicy: Required value",
		}},
		{"valid binding", ValidatingAdmissionPolicyBindings(), `{"spec":{"policyName":"p","validationActions":["Deny"]}}`, nil},
		{"binding problems", ValidatingAdmissionPolicyBindings(), `{"spec":{"paramRef":{"name":"a/b","selector":{}},"validationActions":["Deny","Warn"]}}`, []string{
			"spec.policyName: Required value",
			"spec.paramRef.name: Invalid value: \"a/b\": may not contain '/'",
			"spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
			"spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
			"spec.paramRef.parameterNotFoundAction: Required value",
			`spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)`,
		}},
		{"mutating binding matches what can be mutated", MutatingAdmissionPolicyBindings(), `{"spec":{"policyName":"p","matchResources":{"matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},
			"resourceRules":[{"operations":["DELETE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"]}]}}}`, []string{
			`spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"`,
		}},
	}
	for _, tt := range tests {
		got := causesOf(t, tt.kind, tt.js)
		want, _ := json.MarshalIndent(tt.want, "", " ")
		have, _ := json.MarshalIndent(got, "", " ")
		assert.Equal(t, string(want), string(have), tt.name)
	}
}

package apiserver

import (
	"net/http"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// policyFixtures are the policies and bindings the admission policy tests create, each
// also created on the reference to take its answers.
var policyFixtures = []struct{ path, body string }{
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"max-replicas"},
		"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["deployments"]}]},
		"variables":[{"name":"replicas","expression":"object.spec.replicas"}],
		"validations":[{"expression":"variables.replicas <= 5","message":"replicas must be no greater than 5"},
			{"expression":"object.metadata.name != 'bad'","messageExpression":"'name ' + object.metadata.name + ' is refused'","reason":"Forbidden"}]}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"max-replicas-b"},
		"spec":{"policyName":"max-replicas","validationActions":["Deny"]}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"cm-warn"},
		"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},
		"validations":[{"expression":"has(object.data) && 'owner' in object.data"}]}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"cm-warn-b"},
		"spec":{"policyName":"cm-warn","validationActions":["Warn"]}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"param-policy"},
		"spec":{"failurePolicy":"Fail","paramKind":{"apiVersion":"v1","kind":"ConfigMap"},
		"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["secrets"]}]},
		"validations":[{"expression":"object.metadata.name.startsWith(params.data.prefix)","messageExpression":"'name must start with ' + params.data.prefix"}]}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"param-b"},
		"spec":{"policyName":"param-policy","validationActions":["Deny"],"paramRef":{"name":"prefix-params","namespace":"default","parameterNotFoundAction":"Deny"},
		"matchResources":{"namespaceSelector":{"matchLabels":{"vap":"on"}}}}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"errs"},
		"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["serviceaccounts"]}]},
		"validations":[{"expression":"object.metadata.labels.missing == 'x'"}]}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"errs-b"},
		"spec":{"policyName":"errs","validationActions":["Deny"]}}`},
	{"/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"vap1","labels":{"vap":"on"}}}`},
}

func deployment(name string, replicas int) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + name + `"},"spec":{"replicas":` + strconv.Itoa(replicas) +
		`,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`
}

// TestCh01_AdmissionPolicy_Validating: ValidatingAdmissionPolicies refuse, warn and read
// params as the reference does; each expected answer is the reference's.
func TestCh01_AdmissionPolicy_Validating(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, f := range policyFixtures {
		r := c.do("POST", f.path, f.body)
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
	}
	for _, tc := range []struct {
		name, path, body string
		code             int
		status           string // the reference's Status, when refused
		warnings         []string
	}{
		{name: "message", path: "/apis/apps/v1/namespaces/default/deployments", body: deployment("d1", 7), code: 422,
			status: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"d1\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: replicas must be no greater than 5","reason":"Invalid","details":{"name":"d1","group":"apps","kind":"deployments","causes":[{"message":"ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: replicas must be no greater than 5"}]},"code":422}`},
		{name: "messageExpression and reason", path: "/apis/apps/v1/namespaces/default/deployments", body: deployment("bad", 1), code: 403,
			status: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"bad\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: name bad is refused","reason":"Forbidden","details":{"name":"bad","group":"apps","kind":"deployments","causes":[{"message":"ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: name bad is refused"}]},"code":403}`},
		{name: "admitted", path: "/apis/apps/v1/namespaces/default/deployments", body: deployment("good", 5), code: 201},
		{name: "warn", path: "/api/v1/namespaces/default/configmaps", body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c1"},"data":{"x":"y"}}`, code: 201,
			warnings: []string{`299 - "Validation failed for ValidatingAdmissionPolicy 'cm-warn' with binding 'cm-warn-b': failed expression: has(object.data) && 'owner' in object.data"`}},
		{name: "param not found, Deny", path: "/api/v1/namespaces/vap1/secrets", body: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s1"}}`, code: 422,
			status: "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"secrets \\\"s1\\\" is forbidden: ValidatingAdmissionPolicy 'param-policy' with binding 'param-b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction\",\"reason\":\"Invalid\",\"details\":{\"name\":\"s1\",\"kind\":\"secrets\",\"causes\":[{\"message\":\"ValidatingAdmissionPolicy 'param-policy' with binding 'param-b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction\"}]},\"code\":422}"},
		{name: "the param", path: "/api/v1/namespaces/default/configmaps", body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"prefix-params"},"data":{"prefix":"ok-"}}`, code: 201,
			warnings: []string{`299 - "Validation failed for ValidatingAdmissionPolicy 'cm-warn' with binding 'cm-warn-b': failed expression: has(object.data) && 'owner' in object.data"`}},
		{name: "param refuses", path: "/api/v1/namespaces/vap1/secrets", body: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s1"}}`, code: 422,
			status: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"secrets \"s1\" is forbidden: ValidatingAdmissionPolicy 'param-policy' with binding 'param-b' denied request: name must start with ok-","reason":"Invalid","details":{"name":"s1","kind":"secrets","causes":[{"message":"ValidatingAdmissionPolicy 'param-policy' with binding 'param-b' denied request: name must start with ok-"}]},"code":422}`},
		{name: "param admits", path: "/api/v1/namespaces/vap1/secrets", body: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"ok-s1"}}`, code: 201},
		{name: "namespace selector excludes", path: "/api/v1/namespaces/default/secrets", body: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s2"}}`, code: 201},
		{name: "evaluation error", path: "/api/v1/namespaces/default/serviceaccounts", body: `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa1","labels":{"a":"b"}}}`, code: 422,
			status: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"serviceaccounts \"sa1\" is forbidden: ValidatingAdmissionPolicy 'errs' with binding 'errs-b' denied request: expression 'object.metadata.labels.missing == 'x'' resulted in error: no such key: missing","reason":"Invalid","details":{"name":"sa1","kind":"serviceaccounts","causes":[{"message":"ValidatingAdmissionPolicy 'errs' with binding 'errs-b' denied request: expression 'object.metadata.labels.missing == 'x'' resulted in error: no such key: missing"}]},"code":422}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", tc.path, tc.body)
			require.Equal(t, tc.code, r.code, string(r.body))
			if tc.status != "" {
				assert.JSONEq(t, tc.status, string(r.body))
			}
			assert.Equal(t, tc.warnings, r.header.Values("Warning"))
		})
	}
}

// TestCh01_AdmissionPolicy_Mutating: a MutatingAdmissionPolicy sets a label by
// ApplyConfiguration and replaces data by JSONPatch, skips what its match condition
// excludes, and a patch that cannot apply refuses the request with the reference's Status.
func TestCh01_AdmissionPolicy_Mutating(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, f := range []struct{ path, body string }{
		{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"add-label"},
			"spec":{"failurePolicy":"Fail","reinvocationPolicy":"Never","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},
			"matchConditions":[{"name":"not-skipped","expression":"!has(object.metadata.labels) || !('skip' in object.metadata.labels)"}],
			"variables":[{"name":"team","expression":"'platform'"}],
			"mutations":[{"patchType":"ApplyConfiguration","applyConfiguration":{"expression":"Object{metadata: Object.metadata{labels: {'team': variables.team}}}"}},
				{"patchType":"JSONPatch","jsonPatch":{"expression":"[JSONPatch{op: 'add', path: '/data', value: {'added': 'yes'}}]"}}]}}`},
		{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"add-label-b"},"spec":{"policyName":"add-label"}}`},
		{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"bad-patch"},
			"spec":{"failurePolicy":"Fail","reinvocationPolicy":"Never","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["serviceaccounts"]}]},
			"mutations":[{"patchType":"JSONPatch","jsonPatch":{"expression":"[JSONPatch{op: 'remove', path: '/metadata/annotations/missing'}]"}}]}}`},
		{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"bad-patch-b"},"spec":{"policyName":"bad-patch"}}`},
		{"/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"vap1"}}`},
	} {
		r := c.do("POST", f.path, f.body)
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
	}
	for _, tc := range []struct {
		name, body   string
		labels, data map[string]any
	}{
		{name: "mutated", body: `{"metadata":{"name":"m1","labels":{"a":"b"}},"data":{"x":"1"}}`,
			labels: map[string]any{"a": "b", "team": "platform"}, data: map[string]any{"added": "yes"}},
		{name: "match condition false", body: `{"metadata":{"name":"m2","labels":{"skip":"b"}},"data":{"x":"1"}}`,
			labels: map[string]any{"skip": "b"}, data: map[string]any{"x": "1"}},
		{name: "no labels yet", body: `{"metadata":{"name":"m3"}}`,
			labels: map[string]any{"team": "platform"}, data: map[string]any{"added": "yes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", "/api/v1/namespaces/vap1/configmaps", tc.body)
			require.Equal(t, http.StatusCreated, r.code, string(r.body))
			var cm struct {
				Metadata struct{ Labels map[string]any } `json:"metadata"`
				Data     map[string]any                  `json:"data"`
			}
			r.decode(t, &cm)
			assert.Equal(t, tc.labels, cm.Metadata.Labels)
			assert.Equal(t, tc.data, cm.Data)
		})
	}
	r := c.do("POST", "/api/v1/namespaces/vap1/serviceaccounts", `{"metadata":{"name":"sa2","annotations":{"a":"b"}}}`)
	require.Equal(t, http.StatusForbidden, r.code, string(r.body))
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"policy 'bad-patch' with binding 'bad-patch-b' denied request: JSON Patch: error in remove for path: '/metadata/annotations/missing': Unable to remove nonexistent key: missing: missing value","reason":"Invalid","details":{"name":"sa2","kind":"serviceaccounts","causes":[{"message":"policy 'bad-patch' with binding 'bad-patch-b' denied request: JSON Patch: error in remove for path: '/metadata/annotations/missing': Unable to remove nonexistent key: missing: missing value"}]},"code":403}`, string(r.body))
}

// TestCh01_AdmissionPolicy_CompileErrorsOnCreate: a policy whose expressions do not compile,
// or compile to the wrong type, is refused with the reference's causes.
func TestCh01_AdmissionPolicy_CompileErrorsOnCreate(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, tc := range []struct{ name, path, body, status string }{
		{name: "validating", path: "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
			body: `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"bad"},"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["pods"]}]},
				"matchConditions":[{"name":"m","expression":"object.x"}],
				"variables":[{"name":"v","expression":"object.("}],
				"validations":[{"expression":"object.metadata.name","messageExpression":"1"},{"expression":"undefinedVar == 1"}],
				"auditAnnotations":[{"key":"k","valueExpression":"1"}]}}`,
			status: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ValidatingAdmissionPolicy.admissionregistration.k8s.io \"bad\" is invalid: [spec.matchConditions[0].expression: Invalid value: \"object.x\": must evaluate to bool but got dyn, spec.variables[0].expression: Invalid value: \"object.(\": compilation failed: ERROR: \u003cinput\u003e:1:8: Syntax error: no viable alternative at input '.('\n | object.(\n | .......^, spec.validations[0].expression: Invalid value: \"object.metadata.name\": must evaluate to bool but got dyn, spec.validations[0].messageExpression: Invalid value: \"1\": must evaluate to string but got int, spec.validations[1].expression: Invalid value: \"undefinedVar == 1\": compilation failed: ERROR: \u003cinput\u003e:1:1: undeclared reference to 'undefinedVar' (in container '')\n | undefinedVar == 1\n | ^, spec.auditAnnotations[0].valueExpression: Invalid value: \"1\": must evaluate to one of [string null_type] but got int]","reason":"Invalid","details":{"name":"bad","group":"admissionregistration.k8s.io","kind":"ValidatingAdmissionPolicy","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"object.x\": must evaluate to bool but got dyn","field":"spec.matchConditions[0].expression"},{"reason":"FieldValueInvalid","message":"Invalid value: \"object.(\": compilation failed: ERROR: \u003cinput\u003e:1:8: Syntax error: no viable alternative at input '.('\n | object.(\n | .......^","field":"spec.variables[0].expression"},{"reason":"FieldValueInvalid","message":"Invalid value: \"object.metadata.name\": must evaluate to bool but got dyn","field":"spec.validations[0].expression"},{"reason":"FieldValueInvalid","message":"Invalid value: \"1\": must evaluate to string but got int","field":"spec.validations[0].messageExpression"},{"reason":"FieldValueInvalid","message":"Invalid value: \"undefinedVar == 1\": compilation failed: ERROR: \u003cinput\u003e:1:1: undeclared reference to 'undefinedVar' (in container '')\n | undefinedVar == 1\n | ^","field":"spec.validations[1].expression"},{"reason":"FieldValueInvalid","message":"Invalid value: \"1\": must evaluate to one of [string null_type] but got int","field":"spec.auditAnnotations[0].valueExpression"}]},"code":422}`},
		{name: "mutating", path: "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies",
			body: `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"bad"},"spec":{"failurePolicy":"Fail","reinvocationPolicy":"Never","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["pods"]}]},
				"mutations":[{"patchType":"ApplyConfiguration","applyConfiguration":{"expression":"object.x"}},{"patchType":"JSONPatch","jsonPatch":{"expression":"[1]"}},{"patchType":"JSONPatch","jsonPatch":{"expression":"foo("}}]}}`,
			status: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"MutatingAdmissionPolicy.admissionregistration.k8s.io \"bad\" is invalid: [spec.mutations[0].applyConfiguration.expression: Invalid value: \"object.x\": must evaluate to Object but got dyn, spec.mutations[1].jsonPatch.expression: Invalid value: \"[1]\": must evaluate to list(JSONPatch) but got list(int), spec.mutations[2].jsonPatch.expression: Invalid value: \"foo(\": compilation failed: ERROR: \u003cinput\u003e:1:5: Syntax error: mismatched input '\u003cEOF\u003e' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | foo(\n | ....^]","reason":"Invalid","details":{"name":"bad","group":"admissionregistration.k8s.io","kind":"MutatingAdmissionPolicy","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"object.x\": must evaluate to Object but got dyn","field":"spec.mutations[0].applyConfiguration.expression"},{"reason":"FieldValueInvalid","message":"Invalid value: \"[1]\": must evaluate to list(JSONPatch) but got list(int)","field":"spec.mutations[1].jsonPatch.expression"},{"reason":"FieldValueInvalid","message":"Invalid value: \"foo(\": compilation failed: ERROR: \u003cinput\u003e:1:5: Syntax error: mismatched input '\u003cEOF\u003e' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | foo(\n | ....^","field":"spec.mutations[2].jsonPatch.expression"}]},"code":422}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", tc.path, tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.body))
			assert.JSONEq(t, tc.status, string(r.body))
		})
	}
}

// TestCh01_AdmissionPolicy_NamesAndParamsOnCreate: match condition and variable names,
// audit annotation keys, and params read by a policy without a paramKind are refused with
// the reference's Status.
func TestCh01_AdmissionPolicy_NamesAndParamsOnCreate(t *testing.T) {
	_, c := newServer(t, Options{})
	body, err := os.ReadFile("testdata/admissionpolicy/bad-names.json")
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/admissionpolicy/bad-names.reference.json")
	require.NoError(t, err)
	r := c.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", body)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.body))
	assert.JSONEq(t, string(want), string(r.body))
}

// authzPolicy checks the requester's and a service account's permissions through the
// `authorizer` variable (created on the reference, which allows both: it runs AlwaysAllow).
var authzPolicy = []struct{ path, body string }{
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"authz"},
		"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["endpoints"]}]},
		"validations":[{"expression":"authorizer.group('').resource('secrets').namespace('default').check('delete').allowed()","message":"requester may not delete secrets"},
			{"expression":"authorizer.serviceAccount('default', 'nobody').group('').resource('pods').check('list').allowed()","message":"nobody may not list pods"}]}}`},
	{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"authz-b"},
		"spec":{"policyName":"authz","validationActions":["Deny"]}}`},
}

// TestCh01_AdmissionPolicy_Authorizer: the `authorizer` variable asks the server's own
// authorizer: everything is allowed under AlwaysAllow, as on the reference; under RBAC a
// service account without a role may not list pods. A message expression has no
// authorizer, as on the reference.
func TestCh01_AdmissionPolicy_Authorizer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		code   int
		reason string
	}{
		{name: "AlwaysAllow", opts: Options{}, code: http.StatusCreated},
		{name: "RBAC", opts: Options{BearerToken: adminToken, Authorization: AuthorizationRBAC}, code: http.StatusUnprocessableEntity,
			reason: `endpoints "e1" is forbidden: ValidatingAdmissionPolicy 'authz' with binding 'authz-b' denied request: nobody may not list pods`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, tc.opts)
			for _, f := range authzPolicy {
				r := c.do("POST", f.path, f.body, bearer(adminToken)...)
				require.Equal(t, http.StatusCreated, r.code, string(r.body))
			}
			r := c.do("POST", "/api/v1/namespaces/default/endpoints", `{"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"e1"}}`, bearer(adminToken)...)
			require.Equal(t, tc.code, r.code, string(r.body))
			if tc.reason != "" {
				assert.Equal(t, tc.reason, r.status(t).Message)
			}
		})
	}
	_, c := newServer(t, Options{})
	r := c.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"authz"},
		"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["endpoints"]}]},
		"validations":[{"expression":"true","messageExpression":"'nobody may not list pods: ' + authorizer.serviceAccount('default', 'nobody').group('').resource('pods').check('list').reason()"}]}}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.body))
	assert.Equal(t, `ValidatingAdmissionPolicy.admissionregistration.k8s.io "authz" is invalid: spec.validations[0].messageExpression: Invalid value: "'nobody may not list pods: ' + authorizer.serviceAccount('default', 'nobody').group('').resource('pods').check('list').reason()": compilation failed: ERROR: <input>:1:32: undeclared reference to 'authorizer' (in container '')
 | 'nobody may not list pods: ' + authorizer.serviceAccount('default', 'nobody').group('').resource('pods').check('list').reason()
 | ...............................^`, r.status(t).Message)
}

// TestCh01_AdmissionPolicy_UpdateSeesOldObjectAndNamespace: on update a policy compares
// object with oldObject and reads namespaceObject and request, with the reference's answer.
func TestCh01_AdmissionPolicy_UpdateSeesOldObjectAndNamespace(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, f := range []struct{ path, body string }{
		{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"frozen"},
			"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["UPDATE"],"resources":["configmaps"]}]},
			"validations":[{"expression":"object.data == oldObject.data || namespaceObject.metadata.?labels.?frozen.orValue('') != 'true'",
				"messageExpression":"'namespace ' + namespaceObject.metadata.name + ' is frozen; ' + request.operation + ' of ' + request.kind.kind + ' ' + request.resource.version + ' refused'"}]}}`},
		{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"frozen-b"},
			"spec":{"policyName":"frozen","validationActions":["Deny"]}}`},
		{"/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"frozen1","labels":{"frozen":"true"}}}`},
		{"/api/v1/namespaces/frozen1/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}}`},
	} {
		r := c.do("POST", f.path, f.body)
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
	}
	r := c.do("PUT", "/api/v1/namespaces/frozen1/configmaps/c", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"3"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.body))
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'frozen' with binding 'frozen-b' denied request: namespace frozen1 is frozen; UPDATE of ConfigMap v1 refused","reason":"Invalid","details":{"name":"c","kind":"configmaps","causes":[{"message":"ValidatingAdmissionPolicy 'frozen' with binding 'frozen-b' denied request: namespace frozen1 is frozen; UPDATE of ConfigMap v1 refused"}]},"code":422}`, string(r.body))
	r = c.do("PUT", "/api/v1/namespaces/frozen1/configmaps/c", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"x":"y"}},"data":{"a":"1"}}`)
	require.Equal(t, http.StatusOK, r.code, string(r.body))
}

// TestCh01_AdmissionPolicy_Reinvocation: a policy with reinvocationPolicy IfNeeded runs
// again when a later policy changed the object, and one with Never does not; the labels
// are the reference's.
func TestCh01_AdmissionPolicy_Reinvocation(t *testing.T) {
	for _, tc := range []struct {
		policy string
		labels map[string]any
	}{
		{policy: "IfNeeded", labels: map[string]any{"b": "x", "copy": "x", "z": "1"}},
		{policy: "Never", labels: map[string]any{"b": "x", "copy": "none", "z": "1"}},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			_, c := newServer(t, Options{})
			rules := `"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["podtemplates"]}]}`
			for _, f := range []struct{ path, body string }{
				{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"a-copy"},
					"spec":{"failurePolicy":"Fail","reinvocationPolicy":"` + tc.policy + `",` + rules + `,
					"mutations":[{"patchType":"ApplyConfiguration","applyConfiguration":{"expression":"Object{metadata: Object.metadata{labels: {'copy': object.metadata.?labels.?b.orValue('none')}}}"}}]}}`},
				{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"a-copy-b"},"spec":{"policyName":"a-copy"}}`},
				{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"b-set"},
					"spec":{"failurePolicy":"Fail","reinvocationPolicy":"Never",` + rules + `,
					"mutations":[{"patchType":"JSONPatch","jsonPatch":{"expression":"[JSONPatch{op: 'add', path: '/metadata/labels/b', value: 'x'}]"}}]}}`},
				{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"b-set-b"},"spec":{"policyName":"b-set"}}`},
			} {
				r := c.do("POST", f.path, f.body)
				require.Equal(t, http.StatusCreated, r.code, string(r.body))
			}
			r := c.do("POST", "/api/v1/namespaces/default/podtemplates", `{"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"pt1","labels":{"z":"1"}},
				"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}`)
			require.Equal(t, http.StatusCreated, r.code, string(r.body))
			var pt struct {
				Metadata struct{ Labels map[string]any } `json:"metadata"`
			}
			r.decode(t, &pt)
			assert.Equal(t, tc.labels, pt.Metadata.Labels)
		})
	}
}

// TestCh01_AdmissionPolicy_MutationIsDefaulted: what a mutating policy adds gets the
// kind's defaults, as the real server decodes the patched object again; the container is
// the reference's.
func TestCh01_AdmissionPolicy_MutationIsDefaulted(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, f := range []struct{ path, body string }{
		{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"sidecar"},
			"spec":{"failurePolicy":"Fail","reinvocationPolicy":"Never","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["podtemplates"]}]},
			"mutations":[{"patchType":"JSONPatch","jsonPatch":{"expression":"[JSONPatch{op: 'add', path: '/template/spec/containers/-', value: {'name': 'sidecar', 'image': 'busybox'}}]"}}]}}`},
		{"/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"sidecar-b"},"spec":{"policyName":"sidecar"}}`},
	} {
		r := c.do("POST", f.path, f.body)
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
	}
	r := c.do("POST", "/api/v1/namespaces/default/podtemplates", `{"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"pt3"},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}`)
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	var pt struct {
		Template struct {
			Spec struct{ Containers []map[string]any } `json:"spec"`
		} `json:"template"`
	}
	r.decode(t, &pt)
	require.Len(t, pt.Template.Spec.Containers, 2)
	assert.Equal(t, map[string]any{"name": "sidecar", "image": "busybox", "resources": map[string]any{}, "terminationMessagePath": "/dev/termination-log",
		"terminationMessagePolicy": "File", "imagePullPolicy": "Always"}, pt.Template.Spec.Containers[1])
}

// TestCh01_AdmissionPolicy_Delete: a policy matching DELETE sees oldObject (object is
// null) and refuses the delete with the reference's Status; nothing is deleted.
func TestCh01_AdmissionPolicy_Delete(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, f := range []struct{ path, body string }{
		{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"keep"},
			"spec":{"failurePolicy":"Fail","matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["DELETE"],"resources":["configmaps"]}]},
			"validations":[{"expression":"object == null && oldObject.metadata.?labels.?keep.orValue('') != 'true'","messageExpression":"'configmap ' + oldObject.metadata.name + ' is kept; ' + request.operation"}]}}`},
		{"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"keep-b"},
			"spec":{"policyName":"keep","validationActions":["Deny"]}}`},
		{"/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"del1"}}`},
		{"/api/v1/namespaces/del1/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"k","labels":{"keep":"true"}}}`},
		{"/api/v1/namespaces/del1/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"g"}}`},
	} {
		r := c.do("POST", f.path, f.body)
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
	}
	r := c.do("DELETE", "/api/v1/namespaces/del1/configmaps/k", nil)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.body))
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \"k\" is forbidden: ValidatingAdmissionPolicy 'keep' with binding 'keep-b' denied request: configmap k is kept; DELETE","reason":"Invalid","details":{"name":"k","kind":"configmaps","causes":[{"message":"ValidatingAdmissionPolicy 'keep' with binding 'keep-b' denied request: configmap k is kept; DELETE"}]},"code":422}`, string(r.body))
	require.Equal(t, http.StatusOK, c.do("GET", "/api/v1/namespaces/del1/configmaps/k", nil).code)
	require.Equal(t, http.StatusOK, c.do("DELETE", "/api/v1/namespaces/del1/configmaps/g", nil).code)
}

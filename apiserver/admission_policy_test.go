package apiserver

import (
	"net/http"
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

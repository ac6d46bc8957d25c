package apiserver

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	authnV1 = "/apis/authentication.k8s.io/v1/"
	authzV1 = "/apis/authorization.k8s.io/v1/"
)

// answer posts a review and returns the answer's status member, or fails on another code.
func answer(t *testing.T, c *client, path string, body map[string]any, header ...string) map[string]any {
	t.Helper()
	r := c.do("POST", path, body, header...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var out map[string]any
	r.decode(t, &out)
	st, _ := out["status"].(map[string]any)
	return st
}

func review(kind string, spec map[string]any) map[string]any {
	group := "authorization.k8s.io/v1"
	if kind == "TokenReview" || kind == "SelfSubjectReview" {
		group = "authentication.k8s.io/v1"
	}
	return map[string]any{"apiVersion": group, "kind": kind, "spec": spec}
}

// TestCh01_AccessReviews checks point 3 of reviews.go under RBAC: the access reviews ask the
// server's authorizer about the user they name, or the requester.
func TestCh01_AccessReviews(t *testing.T) {
	_, c := rbacServer(t)
	token := saToken(t, c, "default", "robot")
	listPods := map[string]any{"resourceAttributes": map[string]any{"verb": "list", "resource": "pods", "namespace": "default"}}

	assert.Equal(t, map[string]any{"allowed": true}, answer(t, c, authzV1+"selfsubjectaccessreviews", review("SelfSubjectAccessReview", listPods), bearer(adminToken)...),
		"system:masters is allowed without a reason")
	assert.Equal(t, map[string]any{"allowed": false}, answer(t, c, authzV1+"selfsubjectaccessreviews", review("SelfSubjectAccessReview", listPods), bearer(token)...))
	assert.Equal(t, map[string]any{"allowed": true, "reason": `RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"`},
		answer(t, c, authzV1+"selfsubjectaccessreviews", review("SelfSubjectAccessReview", map[string]any{
			"resourceAttributes": map[string]any{"verb": "create", "group": "authorization.k8s.io", "resource": "selfsubjectaccessreviews"}}), bearer(token)...))
	assert.Equal(t, map[string]any{"allowed": true, "reason": `RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"`},
		answer(t, c, authzV1+"subjectaccessreviews", review("SubjectAccessReview", map[string]any{
			"nonResourceAttributes": map[string]any{"verb": "get", "path": "/healthz"}, "user": "system:anonymous", "groups": []any{"system:unauthenticated"}}), bearer(adminToken)...))

	sar := review("SubjectAccessReview", map[string]any{"resourceAttributes": map[string]any{"verb": "get", "resource": "nodes"}, "user": "kubelet", "groups": []any{"system:masters"}})
	assert.Equal(t, map[string]any{"allowed": true}, answer(t, c, authzV1+"subjectaccessreviews", sar, bearer(adminToken)...))

	lsar := review("LocalSubjectAccessReview", map[string]any{"resourceAttributes": map[string]any{"verb": "list", "resource": "pods", "namespace": "default"},
		"user": "system:serviceaccount:default:robot"})
	assert.Equal(t, map[string]any{"allowed": false}, answer(t, c, authzV1+"namespaces/default/localsubjectaccessreviews", lsar, bearer(adminToken)...))
}

// TestCh01_AccessReviewErrors checks the validation of the access reviews with the real
// server's texts.
func TestCh01_AccessReviewErrors(t *testing.T) {
	_, c := newServer(t, Options{})
	tests := []struct {
		path string
		body map[string]any
		code int
		msg  string
	}{
		{authzV1 + "subjectaccessreviews", review("SubjectAccessReview", map[string]any{}), 422,
			`.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]`},
		{authzV1 + "subjectaccessreviews", map[string]any{"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview", "metadata": map[string]any{"name": "x", "labels": map[string]any{"a": "b"}},
			"spec": map[string]any{"resourceAttributes": map[string]any{"verb": "get"}, "nonResourceAttributes": map[string]any{"path": "/x", "verb": "get"}, "groups": []any{"g"}}}, 422,
			`.authorization.k8s.io "" is invalid: [spec.nonResourceAttributes: Invalid value: {"Path":"/x","Verb":"get"}: cannot be specified in combination with resourceAttributes, metadata: Invalid value: {"name":"x","labels":{"a":"b"},"managedFields":[{"manager":"Go-http-client","operation":"Update","apiVersion":"authorization.k8s.io/v1","time":"<time>","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{"f:groups":{},"f:nonResourceAttributes":{".":{},"f:path":{},"f:verb":{}},"f:resourceAttributes":{".":{},"f:verb":{}}}}}]}: must be empty]`},
		{authzV1 + "namespaces/default/localsubjectaccessreviews", review("LocalSubjectAccessReview", map[string]any{
			"resourceAttributes": map[string]any{"verb": "list", "resource": "pods", "namespace": "other"}, "user": "bob"}), 422,
			`.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace`},
		{authzV1 + "namespaces/default/localsubjectaccessreviews", map[string]any{"apiVersion": "authorization.k8s.io/v1", "kind": "LocalSubjectAccessReview",
			"metadata": map[string]any{"name": "x"}, "spec": map[string]any{"nonResourceAttributes": map[string]any{"path": "/x", "verb": "get"}, "user": "u"}}, 422,
			`.authorization.k8s.io "" is invalid: [metadata: Invalid value: {"name":"x","namespace":"default","managedFields":[{"manager":"Go-http-client","operation":"Update","apiVersion":"authorization.k8s.io/v1","time":"<time>","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:nonResourceAttributes":{".":{},"f:path":{},"f:verb":{}},"f:user":{}}}}]}: must be empty except for namespace, spec.nonResourceAttributes: Invalid value: {"Path":"/x","Verb":"get"}: disallowed on this kind of request]`},
		{authzV1 + "selfsubjectaccessreviews", review("SelfSubjectAccessReview", map[string]any{"resourceAttributes": map[string]any{"verb": "get", "fieldSelector": map[string]any{}}}), 422,
			`.authorization.k8s.io "" is invalid: spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required`},
		{authzV1 + "selfsubjectrulesreviews", review("SelfSubjectRulesReview", map[string]any{}), 400, "no namespace on request"},
		{authnV1 + "tokenreviews", review("TokenReview", map[string]any{}), 400, "token is required for TokenReview in authentication"},
	}
	// The create handler records the write before validation, so an invalid review's
	// metadata shows its managedFields entry, as the reference's does (the conformance
	// suite's sar and review cases); its time is the request's.
	stamp := regexp.MustCompile(`"time":"[^"]*"`)
	for _, tt := range tests {
		r := c.do("POST", tt.path, tt.body)
		assert.Equal(t, tt.code, r.code, "%s", r.body)
		assert.Equal(t, tt.msg, stamp.ReplaceAllString(r.status(t).Message, `"time":"<time>"`))
	}
	assert.Equal(t, http.StatusMethodNotAllowed, c.get(authzV1+"subjectaccessreviews").code)
	assert.Equal(t, http.StatusNotFound, c.get(authnV1+"tokenreviews/x").code, "no item routes")
}

// TestCh01_SelfSubjectRulesReview checks point 4: AlwaysAllow's everything in the real shape,
// and under RBAC the rules of the requester's bindings.
func TestCh01_SelfSubjectRulesReview(t *testing.T) {
	body := review("SelfSubjectRulesReview", map[string]any{"namespace": "default"})
	t.Run("AlwaysAllow", func(t *testing.T) {
		_, c := newServer(t, Options{})
		r := c.do("POST", authzV1+"selfsubjectrulesreviews", body)
		require.Equal(t, http.StatusCreated, r.code)
		assert.JSONEq(t, `{"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1","metadata":{},"spec":{},
			"status":{"resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"]}],"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}],"incomplete":false}}`,
			string(r.body))
	})
	_, c := rbacServer(t)
	token := saToken(t, c, "default", "robot")
	st := answer(t, c, authzV1+"selfsubjectrulesreviews", body, bearer(token)...)
	rules, _ := st["resourceRules"].([]any)
	assert.Contains(t, rules, map[string]any{"verbs": []any{"create"}, "apiGroups": []any{"authorization.k8s.io"},
		"resources": []any{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}})
	nonRes, _ := st["nonResourceRules"].([]any)
	assert.Contains(t, nonRes, map[string]any{"verbs": []any{"get"}, "nonResourceURLs": []any{"/healthz", "/livez", "/readyz", "/version", "/version/"}})
	assert.Equal(t, false, st["incomplete"])
}

// TestCh01_TokenAndSelfSubjectReviews checks points 1 and 2: the admin token, a
// service-account token and a bad one, and whoami with and without impersonation.
func TestCh01_TokenAndSelfSubjectReviews(t *testing.T) {
	_, c := rbacServer(t)
	token := saToken(t, c, "default", "robot")
	tr := func(spec map[string]any) map[string]any {
		return answer(t, c, authnV1+"tokenreviews", review("TokenReview", spec), bearer(adminToken)...)
	}
	assert.Equal(t, map[string]any{"authenticated": true, "user": map[string]any{"username": AdminCommonName,
		"groups": []any{AdminGroup, "system:authenticated"}}, "audiences": []any{ServiceAccountIssuer}},
		tr(map[string]any{"token": adminToken}))
	assert.Equal(t, map[string]any{"user": map[string]any{}, "error": "invalid bearer token"}, tr(map[string]any{"token": "abc"}))
	assert.Equal(t, map[string]any{"user": map[string]any{}, "error": "invalid bearer token"}, tr(map[string]any{"token": adminToken, "audiences": []any{"vault"}}))

	st := tr(map[string]any{"token": token})
	assert.Equal(t, true, st["authenticated"])
	user, _ := st["user"].(map[string]any)
	assert.Equal(t, "system:serviceaccount:default:robot", user["username"])
	assert.Equal(t, []any{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}, user["groups"])
	assert.NotEmpty(t, user["uid"])
	assert.Contains(t, user["extra"], "authentication.kubernetes.io/credential-id")
	assert.Equal(t, map[string]any{"user": map[string]any{},
		"error": `[invalid bearer token, token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]]`},
		tr(map[string]any{"token": token, "audiences": []any{"vault"}}))

	who := func(header ...string) map[string]any {
		st := answer(t, c, authnV1+"selfsubjectreviews", map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}, header...)
		u, _ := st["userInfo"].(map[string]any)
		return u
	}
	assert.Equal(t, map[string]any{"username": AdminCommonName, "groups": []any{AdminGroup, "system:authenticated"}}, who(bearer(adminToken)...))
	assert.Equal(t, "system:serviceaccount:default:robot", who(bearer(token)...)["username"])
	assert.Equal(t, map[string]any{"username": "bob", "groups": []any{"devs", "system:authenticated"}, "extra": map[string]any{"scopes": []any{"a"}}},
		who(append(bearer(adminToken), "Impersonate-User", "bob", "Impersonate-Group", "devs", "Impersonate-Extra-Scopes", "a")...))
}

package apiserver

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const saPath = "/api/v1/namespaces/default/serviceaccounts"

func tokenRequest(spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": spec}
}

// claimsOf decodes a JWT's payload.
func claimsOf(t *testing.T, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	require.Len(t, parts, 3)
	data, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}

// TestCh01_TokenRequest checks points 2 and 5 of token_request.go: the defaults, the answer's
// metadata and status, the token's claims, and that the token authenticates as the service
// account until the account is gone.
func TestCh01_TokenRequest(t *testing.T) {
	_, c := newServer(t, Options{BearerToken: adminToken})
	admin := bearer(adminToken)
	r := c.do("POST", saPath, map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "robot"}}, admin...)
	require.Equal(t, http.StatusCreated, r.code)
	var sa struct{ Metadata struct{ UID string } }
	r.decode(t, &sa)

	before := time.Now().Truncate(time.Second)
	r = c.do("POST", saPath+"/robot/token", tokenRequest(map[string]any{}), admin...)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var out map[string]any
	r.decode(t, &out)
	md, _ := out["metadata"].(map[string]any)
	assert.Equal(t, "robot", md["name"])
	assert.Equal(t, "default", md["namespace"])
	assert.Equal(t, sa.Metadata.UID, md["uid"])
	assert.NotEmpty(t, md["creationTimestamp"])
	assert.Equal(t, map[string]any{"audiences": []any{ServiceAccountIssuer}, "expirationSeconds": float64(3600), "boundObjectRef": nil}, out["spec"])
	status, _ := out["status"].(map[string]any)
	token, _ := status["token"].(string)
	exp, err := time.Parse(time.RFC3339, status["expirationTimestamp"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, before.Add(time.Hour), exp, 2*time.Second)

	claims := claimsOf(t, token)
	assert.Equal(t, ServiceAccountIssuer, claims["iss"])
	assert.Equal(t, "system:serviceaccount:default:robot", claims["sub"])
	assert.Equal(t, []any{ServiceAccountIssuer}, claims["aud"])
	assert.Equal(t, float64(exp.Unix()), claims["exp"])
	assert.Equal(t, claims["iat"], claims["nbf"])
	assert.Equal(t, map[string]any{"namespace": "default", "serviceaccount": map[string]any{"name": "robot", "uid": sa.Metadata.UID}}, claims["kubernetes.io"])

	who := answer(t, c, authnV1+"selfsubjectreviews", map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}, bearer(token)...)
	assert.Equal(t, "system:serviceaccount:default:robot", who["userInfo"].(map[string]any)["username"])

	r = c.do("DELETE", saPath+"/robot", nil, admin...)
	require.Equal(t, http.StatusOK, r.code)
	r = c.do("GET", "/api/v1/namespaces", nil, bearer(token)...)
	assert.Equal(t, http.StatusUnauthorized, r.code, "the token dies with its service account")
}

// TestCh01_TokenRequestErrors checks points 1 to 3: the errors of the real TokenRequest.
func TestCh01_TokenRequestErrors(t *testing.T) {
	s, c := newServer(t, Options{})
	r := c.do("POST", saPath, map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "robot"}})
	require.Equal(t, http.StatusCreated, r.code)
	r = c.do("POST", saPath, map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "other"}})
	require.Equal(t, http.StatusCreated, r.code, "the ServiceAccount plugin refuses a pod whose account is missing")
	other := pod("default", "web", nil)
	other.Spec.ServiceAccountName = "other"
	mustCreate(t, s, "pods", "default", other)
	tests := []struct {
		name string
		path string
		body map[string]any
		code int
		msg  string
	}{
		{"missing account", saPath + "/nope/token", tokenRequest(map[string]any{}), 404, `serviceaccounts "nope" not found`},
		{"too short", saPath + "/robot/token", tokenRequest(map[string]any{"expirationSeconds": 10}), 422,
			`TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 10: may not specify a duration less than 10 minutes`},
		{"too long", saPath + "/robot/token", tokenRequest(map[string]any{"expirationSeconds": 10000000000}), 422,
			`TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 10000000000: may not specify a duration larger than 2^32 seconds`},
		{"another name", saPath + "/robot/token", map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "metadata": map[string]any{"name": "x"}}, 422,
			`TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified`},
		{"bound to a kind that cannot be", saPath + "/robot/token", tokenRequest(map[string]any{"boundObjectRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}}), 400,
			"cannot bind token to object of type apps/v1, Kind=Deployment"},
		{"bound to a missing pod", saPath + "/robot/token", tokenRequest(map[string]any{"boundObjectRef": map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "gone"}}), 404,
			`pods "gone" not found`},
		{"bound to another account's pod", saPath + "/robot/token", tokenRequest(map[string]any{"boundObjectRef": map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "web"}}), 400,
			`cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", tt.path, tt.body)
			assert.Equal(t, tt.code, r.code, "%s", r.body)
			assert.Equal(t, tt.msg, r.status(t).Message)
		})
	}
	assert.Equal(t, http.StatusMethodNotAllowed, c.get(saPath+"/robot/token").code)
}

// TestCh01_TokenRequestBound checks points 3 and 4: a token bound to a pod names the pod and
// its node, the kubelet's 3607 seconds are extended to a year with warnafter, and a uid that
// does not match is a conflict.
func TestCh01_TokenRequestBound(t *testing.T) {
	s, c := newServer(t, Options{})
	r := c.do("POST", saPath, map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "robot"}})
	require.Equal(t, http.StatusCreated, r.code)
	p := pod("default", "web", nil)
	p.Spec.ServiceAccountName = "robot"
	p.Spec.NodeName = "n1"
	created := mustCreate(t, s, "pods", "default", p)
	podUID := uidOfObject(t, created)

	r = c.do("POST", saPath+"/robot/token", tokenRequest(map[string]any{"expirationSeconds": 3607,
		"boundObjectRef": map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "web", "uid": podUID}}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var out struct {
		Status struct {
			Token               string
			ExpirationTimestamp time.Time
		}
	}
	r.decode(t, &out)
	claims := claimsOf(t, out.Status.Token)
	k8s, _ := claims["kubernetes.io"].(map[string]any)
	assert.Equal(t, map[string]any{"name": "web", "uid": podUID}, k8s["pod"])
	assert.Equal(t, map[string]any{"name": "n1"}, k8s["node"], "the node does not exist: its name only")
	iat := claims["iat"].(float64)
	assert.Equal(t, iat+3607, k8s["warnafter"])
	assert.Equal(t, iat+365*24*3600, claims["exp"])
	assert.Equal(t, int64(iat)+3607, out.Status.ExpirationTimestamp.Unix(), "the status keeps the asked expiry")

	r = c.do("POST", saPath+"/robot/token", tokenRequest(map[string]any{
		"boundObjectRef": map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "web", "uid": "stale"}}))
	assert.Equal(t, http.StatusConflict, r.code)
	assert.Equal(t, `Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated`,
		r.status(t).Message)
}

// uidOfObject returns an object's uid.
func uidOfObject(t *testing.T, obj any) string {
	t.Helper()
	data, err := json.Marshal(obj)
	require.NoError(t, err)
	var m struct{ Metadata struct{ UID string } }
	require.NoError(t, json.Unmarshal(data, &m))
	require.NotEmpty(t, m.Metadata.UID)
	return m.Metadata.UID
}

package serviceaccount

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
)

const issuer = "https://kubernetes.default.svc.cluster.local"

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// objects is a Getter over fixed objects, keyed "resource/ns/name".
type objects map[string]map[string]any

func (o objects) get(resource, ns, name string) map[string]any { return o[resource+"/"+ns+"/"+name] }

func meta(uid string, deleted string) map[string]any {
	md := map[string]any{"uid": uid}
	if deleted != "" {
		md["deletionTimestamp"] = deleted
	}
	return map[string]any{"metadata": md}
}

func decodePart(t *testing.T, part string) map[string]any {
	t.Helper()
	data, err := base64.RawURLEncoding.DecodeString(part)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}

// TestCh01_TokenClaims checks points 1 and 2: the header and the claims of a token bound
// to a pod on a node, with the JSON keys sorted as the real serializer writes them.
func TestCh01_TokenClaims(t *testing.T) {
	tokens, err := New(issuer, []string{issuer})
	require.NoError(t, err)
	tok, err := tokens.Issue(Request{Namespace: "ns", ServiceAccount: Ref{"robot", "sa-uid"}, Pod: &Ref{"web", "pod-uid"},
		Node: &Ref{"n1", "node-uid"}, Audiences: []string{issuer}, Expiration: time.Hour, Now: t0})
	require.NoError(t, err)
	parts := strings.Split(tok, ".")
	require.Len(t, parts, 3)
	header := decodePart(t, parts[0])
	assert.Equal(t, "ES256", header["alg"])
	assert.Len(t, header["kid"], 43, "unpadded base64url of a SHA-256")
	claims := decodePart(t, parts[1])
	jti, _ := claims["jti"].(string)
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, jti)
	delete(claims, "jti")
	assert.Equal(t, map[string]any{
		"iss": issuer, "sub": "system:serviceaccount:ns:robot", "aud": []any{issuer},
		"iat": float64(t0.Unix()), "nbf": float64(t0.Unix()), "exp": float64(t0.Add(time.Hour).Unix()),
		"kubernetes.io": map[string]any{
			"namespace":      "ns",
			"serviceaccount": map[string]any{"name": "robot", "uid": "sa-uid"},
			"pod":            map[string]any{"name": "web", "uid": "pod-uid"},
			"node":           map[string]any{"name": "n1", "uid": "node-uid"},
		},
	}, claims)
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	assert.True(t, strings.HasPrefix(string(raw), `{"aud":`), "keys sorted: %s", raw)
}

// TestCh01_TokenAuthenticate checks point 3 case by case.
func TestCh01_TokenAuthenticate(t *testing.T) {
	tokens, err := New(issuer, []string{issuer})
	require.NoError(t, err)
	other, err := New(issuer, []string{issuer})
	require.NoError(t, err)
	issue := func(tk *Tokens, req Request) string {
		if req.Namespace == "" {
			req.Namespace = "ns"
		}
		if req.ServiceAccount.Name == "" {
			req.ServiceAccount = Ref{"robot", "sa-uid"}
		}
		if req.Expiration == 0 {
			req.Expiration = time.Hour
		}
		if req.Now.IsZero() {
			req.Now = t0
		}
		if req.Audiences == nil {
			req.Audiences = []string{issuer}
		}
		tok, err := tk.Issue(req)
		require.NoError(t, err)
		return tok
	}
	world := objects{
		"serviceaccounts/ns/robot": meta("sa-uid", ""),
		"pods/ns/web":              meta("pod-uid", ""),
		"secrets/ns/s":             meta("secret-uid", ""),
		"nodes//n1":                meta("node-uid", ""),
	}
	robot := &authz.User{Name: "system:serviceaccount:ns:robot", UID: "sa-uid", Groups: []string{"system:serviceaccounts", "system:serviceaccounts:ns"}}
	tests := []struct {
		name  string
		token string
		want  []string // audiences asked for
		now   time.Time
		world objects
		ok    bool
		err   string
		extra []string // extra keys of the user
	}{
		{name: "good", token: issue(tokens, Request{}), ok: true, extra: []string{CredentialIDKey}},
		{name: "bound to a pod on a node", token: issue(tokens, Request{Pod: &Ref{"web", "pod-uid"}, Node: &Ref{"n1", "node-uid"}}), ok: true,
			extra: []string{CredentialIDKey, NodeNameKey, NodeUIDKey, PodNameKey, PodUIDKey}},
		{name: "not a JWT", token: "abc"},
		{name: "another issuer", token: func() string { tk, _ := New("https://elsewhere", nil); return issue(tk, Request{}) }()},
		{name: "another key", token: issue(other, Request{}), err: "go-jose/go-jose: error in cryptographic primitive"},
		{name: "tampered", token: issue(tokens, Request{}) + "x", err: "go-jose/go-jose: error in cryptographic primitive"},
		{name: "another audience", token: issue(tokens, Request{Audiences: []string{"vault"}}),
			err: `token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]`},
		{name: "the audience asked for", token: issue(tokens, Request{Audiences: []string{"vault"}}), want: []string{"vault"}, ok: true,
			extra: []string{CredentialIDKey}},
		{name: "expired", token: issue(tokens, Request{}), now: t0.Add(time.Hour + 2*time.Minute), err: "service account token has expired"},
		{name: "within the leeway", token: issue(tokens, Request{}), now: t0.Add(time.Hour + 30*time.Second), ok: true, extra: []string{CredentialIDKey}},
		{name: "not yet valid", token: issue(tokens, Request{}), now: t0.Add(-2 * time.Minute), err: "service account token is not valid yet"},
		{name: "account gone", token: issue(tokens, Request{}), world: objects{}, err: `serviceaccounts "robot" not found`},
		{name: "account recreated", token: issue(tokens, Request{}), world: objects{"serviceaccounts/ns/robot": meta("new-uid", "")},
			err: "service account UID (new-uid) does not match claim (sa-uid)"},
		{name: "account deleted", token: issue(tokens, Request{}), world: objects{"serviceaccounts/ns/robot": meta("sa-uid", "2026-01-02T03:00:00Z")},
			err: "service account ns/robot has been deleted"},
		{name: "pod gone", token: issue(tokens, Request{Pod: &Ref{"gone", "x"}}), err: "service account token has been invalidated"},
		{name: "secret recreated", token: issue(tokens, Request{Secret: &Ref{"s", "old"}}),
			err: "secret UID (secret-uid) does not match service account secret ref claim (old)"},
		{name: "node-bound", token: issue(tokens, Request{Node: &Ref{"n1", "node-uid"}}), ok: true, extra: []string{CredentialIDKey, NodeNameKey, NodeUIDKey}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now, w := tt.now, tt.world
			if now.IsZero() {
				now = t0
			}
			if w == nil {
				w = world
			}
			u, auds, ok, err := tokens.Authenticate(tt.token, tt.want, now, w.get)
			assert.Equal(t, tt.ok, ok)
			if tt.err != "" {
				require.Error(t, err)
				assert.Equal(t, tt.err, err.Error())
				return
			}
			require.NoError(t, err)
			if !tt.ok {
				assert.Nil(t, u)
				return
			}
			assert.Equal(t, robot.Name, u.Name)
			assert.Equal(t, robot.UID, u.UID)
			assert.Equal(t, robot.Groups, u.Groups)
			var keys []string
			for k := range u.Extra {
				keys = append(keys, k)
			}
			assert.ElementsMatch(t, tt.extra, keys)
			assert.NotEmpty(t, auds)
		})
	}
}

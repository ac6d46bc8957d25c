package authz

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowList is an authorizer that allows exactly the listed "verb group/resource/sub name
// ns" questions, and records every question.
type allowList struct {
	allowed map[string]bool
	asked   []string
}

func (a *allowList) Authorize(attrs Attributes) (Decision, string) {
	q := attrs.Verb + " " + attrs.APIGroup + "/" + attrs.Resource + "/" + attrs.Subresource + " " + attrs.Name + " " + attrs.Namespace
	a.asked = append(a.asked, q)
	if a.allowed[q] || a.allowed["*"] {
		return DecisionAllow, ""
	}
	return DecisionNoOpinion, ""
}

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// TestCh01_Impersonate checks point 6: the modes in order, the user each gives, the first
// refusal, and the 400 without a user name.
func TestCh01_Impersonate(t *testing.T) {
	requester := &User{Name: "bob", Groups: []string{AllAuthenticated}}
	podsList := Attributes{User: requester, Verb: "list", ResourceRequest: true, APIVersion: "v1", Namespace: "default", Resource: "pods"}
	tests := []struct {
		name    string
		h       http.Header
		allowed []string
		want    *User
		status  string
	}{
		{name: "no impersonation", h: header(), want: requester},
		{name: "legacy user", h: header("Impersonate-User", "alice"),
			allowed: []string{"impersonate /users/ alice "},
			want:    &User{Name: "alice", Groups: []string{AllAuthenticated}}},
		{name: "user-info mode", h: header("Impersonate-User", "alice", "Impersonate-Group", "devs"),
			allowed: []string{"impersonate-on:user-info:list /pods/  default", "impersonate:user-info authentication.k8s.io/users/ alice ",
				"impersonate:user-info authentication.k8s.io/groups/ devs "},
			want: &User{Name: "alice", Groups: []string{"devs", AllAuthenticated}}},
		{name: "service account gets its groups", h: header("Impersonate-User", "system:serviceaccount:ns:robot"),
			allowed: []string{"impersonate /serviceaccounts/ robot ns"},
			want:    &User{Name: "system:serviceaccount:ns:robot", Groups: []string{AllServiceAccounts, "system:serviceaccounts:ns", AllAuthenticated}}},
		{name: "serviceaccount mode", h: header("Impersonate-User", "system:serviceaccount:ns:robot"),
			allowed: []string{"impersonate-on:serviceaccount:list /pods/  default", "impersonate:serviceaccount authentication.k8s.io/serviceaccounts/ robot ns"},
			want:    &User{Name: "system:serviceaccount:ns:robot", Groups: []string{AllServiceAccounts, "system:serviceaccounts:ns", AllAuthenticated}}},
		{name: "arbitrary node", h: header("Impersonate-User", "system:node:n1"),
			allowed: []string{"impersonate-on:arbitrary-node:list /pods/  default", "impersonate:arbitrary-node authentication.k8s.io/nodes/ n1 "},
			want:    &User{Name: "system:node:n1", Groups: []string{nodesGroup, AllAuthenticated}}},
		{name: "anonymous", h: header("Impersonate-User", Anonymous), allowed: []string{"impersonate /users/ system:anonymous "},
			want: &User{Name: Anonymous, Groups: []string{AllUnauthenticated}}},
		{name: "uid and extra", h: header("Impersonate-User", "alice", "Impersonate-Uid", "42", "Impersonate-Extra-Scopes", "read"),
			allowed: []string{"impersonate /users/ alice ", "impersonate authentication.k8s.io/uids/ 42 ", "impersonate authentication.k8s.io/userextras/scopes read "},
			want:    &User{Name: "alice", UID: "42", Groups: []string{AllAuthenticated}, Extra: map[string][]string{"scopes": {"read"}}}},
		{name: "refused: the first mode's refusal", h: header("Impersonate-User", "alice"),
			status: `pods is forbidden: User "bob" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "default"`},
		{name: "refused group", h: header("Impersonate-User", "alice", "Impersonate-Group", "admins"),
			allowed: []string{"impersonate /users/ alice "},
			status:  `pods is forbidden: User "bob" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "default"`},
		{name: "constrained modes refuse system:masters, legacy may allow it", h: header("Impersonate-User", "alice", "Impersonate-Group", "system:masters"),
			allowed: []string{"*"}, want: &User{Name: "alice", Groups: []string{"system:masters", AllAuthenticated}}},
		{name: "group without a user", h: header("Impersonate-Group", "devs"),
			status: `requested &user.DefaultInfo{Name:"", UID:"", Groups:[]string{"devs"}, Extra:map[string][]string(nil)} without impersonating a user name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			az := &allowList{allowed: map[string]bool{}}
			for _, a := range tt.allowed {
				az.allowed[a] = true
			}
			u, st := Impersonate(tt.h, podsList, az)
			if tt.status != "" {
				require.NotNil(t, st, "asked: %q", az.asked)
				assert.Equal(t, tt.status, st.Message)
				return
			}
			require.Nil(t, st, "asked: %q", az.asked)
			assert.Equal(t, tt.want, u)
			assert.Empty(t, tt.h.Get(ImpersonateUserHeader), "the headers are consumed")
		})
	}
}

// TestCh01_ImpersonateRefusals checks the constrained modes' own refusals.
func TestCh01_ImpersonateRefusals(t *testing.T) {
	attrs := Attributes{User: &User{Name: "bob"}, Verb: "get", Path: "/healthz"}
	only := &allowList{allowed: map[string]bool{"impersonate-on:user-info:get //  ": true}}
	_, st := Impersonate(header("Impersonate-User", "alice", "Impersonate-Group", "system:masters"), attrs, only)
	require.NotNil(t, st)
	assert.Equal(t, `users.authentication.k8s.io "alice" is forbidden: User "bob" cannot impersonate:user-info resource "users" in API group "authentication.k8s.io" at the cluster scope`, st.Message)
	_, st = Impersonate(header("Impersonate-User", "alice", "Impersonate-Group", "system:masters"), attrs,
		&allowList{allowed: map[string]bool{"impersonate-on:user-info:get //  ": true, "impersonate:user-info authentication.k8s.io/users/ alice ": true}})
	require.NotNil(t, st)
	assert.Equal(t, `groups.authentication.k8s.io "system:masters" is forbidden: User "bob" cannot impersonate:user-info resource "groups" in API group "authentication.k8s.io" at the cluster scope: impersonating the system:masters group is not allowed`, st.Message)
}

package authz

import (
	"context"
	"strings"

	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The well-known users and groups of k8s.io/apiserver pkg/authentication/user and
// serviceaccount.
const (
	SystemPrivilegedGroup = "system:masters"
	AllAuthenticated      = "system:authenticated"
	AllUnauthenticated    = "system:unauthenticated"
	Anonymous             = "system:anonymous"
	AllServiceAccounts    = "system:serviceaccounts"

	serviceAccountPrefix      = "system:serviceaccount:"
	serviceAccountGroupPrefix = "system:serviceaccounts:"
	nodePrefix                = "system:node:"
	nodesGroup                = "system:nodes"
)

// User mirrors user.DefaultInfo: who a request is from, after authentication.
type User struct {
	Name   string
	UID    string
	Groups []string
	Extra  map[string][]string
}

// InGroup reports whether the user is a member of group.
func (u *User) InGroup(group string) bool {
	for _, g := range u.Groups {
		if g == group {
			return true
		}
	}
	return false
}

type userKey struct{}

// WithUser mirrors request.WithUser: ctx carrying the request's user.
func WithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFrom mirrors request.UserFrom.
func UserFrom(ctx context.Context) (*User, bool) {
	u, ok := ctx.Value(userKey{}).(*User)
	return u, ok && u != nil
}

// ServiceAccountUser mirrors serviceaccount.MakeUsername: system:serviceaccount:ns:name.
func ServiceAccountUser(namespace, name string) string {
	return serviceAccountPrefix + namespace + ":" + name
}

// ServiceAccountGroups mirrors serviceaccount.MakeGroupNames: system:serviceaccounts and
// system:serviceaccounts:<ns>.
func ServiceAccountGroups(namespace string) []string {
	return []string{AllServiceAccounts, serviceAccountGroupPrefix + namespace}
}

// SplitServiceAccountUser mirrors serviceaccount.SplitUsername: the namespace and name of a
// service account's user name, both valid names, or ok false.
func SplitServiceAccountUser(username string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(username, serviceAccountPrefix)
	if !found {
		return "", "", false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 2 || len(validation.IsDNS1123Label(parts[0])) > 0 || len(validation.IsDNS1123Subdomain(parts[1])) > 0 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// matchesServiceAccount mirrors serviceaccount.MatchesUsername.
func matchesServiceAccount(namespace, name, username string) bool {
	return username == serviceAccountPrefix+namespace+":"+name
}

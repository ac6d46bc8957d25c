package rest

import (
	"context"
	"maps"
	"slices"
)

// UserInfo is the user a request was authenticated as: user.Info of k8s.io/apiserver
// pkg/authentication/user, as a strategy reads it (the CertificateSigningRequest strategy
// copies it into the spec).
type UserInfo struct {
	Name   string
	UID    string
	Groups []string
	Extra  map[string][]string
}

type userKey struct{}

// WithUser mirrors request.WithUser in k8s.io/apiserver pkg/endpoints/request: ctx carrying
// the requesting user.
func WithUser(ctx context.Context, u UserInfo) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFrom mirrors request.UserFrom: the requesting user of ctx, if one was set. The answer
// is a copy the caller may keep.
func UserFrom(ctx context.Context) (UserInfo, bool) {
	u, ok := ctx.Value(userKey{}).(UserInfo)
	if !ok {
		return UserInfo{}, false
	}
	u.Groups = slices.Clone(u.Groups)
	if u.Extra != nil {
		extra := make(map[string][]string, len(u.Extra))
		for k, v := range maps.All(u.Extra) {
			extra[k] = slices.Clone(v)
		}
		u.Extra = extra
	}
	return u, true
}

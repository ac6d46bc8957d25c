package authz

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// The impersonation headers (authenticationv1.Impersonate*Header).
const (
	ImpersonateUserHeader        = "Impersonate-User"
	ImpersonateUIDHeader         = "Impersonate-Uid"
	ImpersonateGroupHeader       = "Impersonate-Group"
	ImpersonateUserExtraPrefix   = "Impersonate-Extra-"
	authenticationGroup, version = "authentication.k8s.io", "v1"
)

// Authorizer is what impersonation asks: Chain, or a stand-in in tests.
type Authorizer interface {
	Authorize(a Attributes) (Decision, string)
}

// Impersonate mirrors WithConstrainedImpersonation (point 6 of the package contract) for
// one request: attrs are the request's, made by the authenticated requester. It returns the
// user to serve the request as, the requester when no impersonation header is set, and
// deletes the headers it read. The failure is a 400 for groups, a uid or extras without a
// user name, else the 403 of the first mode that refused.
//
// Unlike the real filter, it keeps no cache of the mode that last worked, so the refusal it
// reports is always the first mode's in the fixed order.
func Impersonate(h http.Header, attrs Attributes, az Authorizer) (*User, *api.Status) {
	wanted, st := wantedUser(h)
	if st != nil || wanted == nil {
		return attrs.User, st
	}
	var first *api.Status
	for _, m := range modes {
		u, st := m.check(az, wanted, attrs)
		if st != nil {
			if first == nil {
				first = st
			}
			continue
		}
		if u != nil {
			return u, nil
		}
	}
	if first == nil {
		first = api.NewInternalError(fmt.Errorf("all impersonation modes failed"))
	}
	return nil, first
}

// wantedUser mirrors processImpersonationHeaders: nil when no user is asked for.
func wantedUser(h http.Header) (*User, *api.Status) {
	u := &User{Name: h.Get(ImpersonateUserHeader), UID: h.Get(ImpersonateUIDHeader), Groups: h.Values(ImpersonateGroupHeader)}
	hasExtra := false
	for name, values := range h {
		if !strings.HasPrefix(name, ImpersonateUserExtraPrefix) {
			continue
		}
		hasExtra = true
		if len(values) == 0 {
			continue
		}
		key := strings.ToLower(name[len(ImpersonateUserExtraPrefix):])
		if k, err := url.PathUnescape(key); err == nil {
			key = k
		}
		if u.Extra == nil {
			u.Extra = map[string][]string{}
		}
		u.Extra[key] = append(u.Extra[key], values...)
	}
	if u.Name == "" && (u.UID != "" || len(u.Groups) > 0 || hasExtra) {
		return nil, api.NewBadRequest(fmt.Sprintf("requested %s without impersonating a user name", goSyntax(u)))
	}
	if u.Name == "" {
		return nil, nil
	}
	h.Del(ImpersonateUserHeader)
	h.Del(ImpersonateUIDHeader)
	h.Del(ImpersonateGroupHeader)
	for name := range h {
		if strings.HasPrefix(name, ImpersonateUserExtraPrefix) {
			h.Del(name)
		}
	}
	return u, nil
}

// goSyntax prints the wanted user as %#v prints a *user.DefaultInfo.
func goSyntax(u *User) string {
	groups := "[]string(nil)"
	if u.Groups != nil {
		q := make([]string, len(u.Groups))
		for i, g := range u.Groups {
			q[i] = fmt.Sprintf("%q", g)
		}
		groups = "[]string{" + strings.Join(q, ", ") + "}"
	}
	extra := "map[string][]string(nil)"
	if u.Extra != nil {
		keys := make([]string, 0, len(u.Extra))
		for k := range u.Extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			q := make([]string, len(u.Extra[k]))
			for i, v := range u.Extra[k] {
				q[i] = fmt.Sprintf("%q", v)
			}
			parts = append(parts, fmt.Sprintf("%q:[]string{%s}", k, strings.Join(q, ", ")))
		}
		extra = "map[string][]string{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("&user.DefaultInfo{Name:%q, UID:%q, Groups:%s, Extra:%s}", u.Name, u.UID, groups, extra)
}

// mode is one impersonation mode: constrained (its verb is impersonate:<name>, and it asks
// impersonate-on:<name>:<verb> of the request first) or the legacy impersonate verb.
type mode struct {
	name        string
	constrained bool
	// applies is the mode's filter: whether it can impersonate wanted for requester at all.
	applies func(wanted, requester *User) bool
}

// modes are allImpersonationModes, in order.
var modes = []mode{
	{"associated-node", true, func(w, r *User) bool {
		node, ok := nodeName(w.Name)
		if !ok || !onlyName(w) {
			return false
		}
		_, _, isSA := SplitServiceAccountUser(r.Name)
		return isSA && len(r.Extra["authentication.kubernetes.io/node-name"]) == 1 && r.Extra["authentication.kubernetes.io/node-name"][0] == node
	}},
	{"arbitrary-node", true, func(w, _ *User) bool {
		_, ok := nodeName(w.Name)
		return ok && onlyName(w)
	}},
	{"serviceaccount", true, func(w, _ *User) bool {
		_, _, ok := SplitServiceAccountUser(w.Name)
		return ok && onlyName(w)
	}},
	{"user-info", true, func(w, _ *User) bool {
		_, node := nodeName(w.Name)
		_, _, sa := SplitServiceAccountUser(w.Name)
		return !node && !sa
	}},
	{"legacy", false, func(*User, *User) bool { return true }},
}

// check mirrors constrainedImpersonationModeState.check and legacyImpersonationCheck: nil
// and no Status when the mode does not apply.
func (m mode) check(az Authorizer, wanted *User, attrs Attributes) (*User, *api.Status) {
	requester := attrs.User
	if !m.applies(wanted, requester) {
		return nil, nil
	}
	verb, group := "impersonate", ""
	if m.constrained {
		on := attrs
		on.Verb = "impersonate-on:" + m.name + ":" + attrs.Verb
		if m.name == "associated-node" {
			// The real mode caches across nodes, so it asks about every node name.
			on.User = associatedRequester(requester)
		}
		if st := checkAuthorization(az, on); st != nil {
			return nil, st
		}
		verb, group = "impersonate:"+m.name, authenticationGroup
	}
	if m.name == "associated-node" {
		requester = associatedRequester(requester)
	}
	return impersonateFields(az, requester, wanted, verb, group, m.constrained, m.name == "associated-node")
}

// associatedRequester is the requester the associated-node mode asks about: its extra cut
// down to the keys it holds, so one answer holds for every node.
func associatedRequester(u *User) *User {
	keys := make([]string, 0, len(u.Extra))
	for k := range u.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	c := *u
	c.Extra = map[string][]string{"authentication.kubernetes.io/associated-node-keys": keys}
	return &c
}

// impersonateFields mirrors impersonationModeState.check: one authorization per field of
// wanted (the user name, the uid, each group, each extra value), then the
// system:authenticated or system:unauthenticated group.
func impersonateFields(az Authorizer, requester, wanted *User, verb, group string, constrained, anyNode bool) (*User, *api.Status) {
	actual := *wanted
	gv := version
	if !constrained {
		gv = "v1"
	}
	base := Attributes{User: requester, Verb: verb, APIGroup: group, APIVersion: gv, ResourceRequest: true}

	name := base
	name.Resource, name.Name = "users", wanted.Name
	if node, ok := nodeName(wanted.Name); ok && constrained {
		name.Resource, name.Name = "nodes", node
		if anyNode {
			name.Name = "*"
		}
		if len(wanted.Groups) != 0 {
			return nil, Forbidden(name, fmt.Sprintf("when impersonating a node, cannot impersonate groups %q", wanted.Groups))
		}
		actual.Groups = []string{nodesGroup}
	}
	if ns, sa, ok := SplitServiceAccountUser(wanted.Name); ok {
		name.Resource, name.Namespace, name.Name = "serviceaccounts", ns, sa
		if constrained && len(wanted.Groups) != 0 {
			return nil, Forbidden(name, fmt.Sprintf("when impersonating a service account, cannot impersonate groups %q", wanted.Groups))
		}
		if len(wanted.Groups) == 0 {
			actual.Groups = ServiceAccountGroups(ns)
		}
	}
	if st := checkAuthorization(az, name); st != nil {
		return nil, st
	}

	if wanted.UID != "" {
		uid := Attributes{User: requester, Verb: verb, APIGroup: authenticationGroup, APIVersion: version, ResourceRequest: true, Resource: "uids", Name: wanted.UID}
		if st := checkAuthorization(az, uid); st != nil {
			return nil, st
		}
	}

	if len(wanted.Groups) > 0 {
		groups := base
		groups.Resource = "groups"
		if st := checkGroups(az, groups, wanted.Groups, constrained); st != nil {
			return nil, st
		}
	}

	if len(wanted.Extra) > 0 {
		extra := Attributes{User: requester, Verb: verb, APIGroup: authenticationGroup, APIVersion: version, ResourceRequest: true, Resource: "userextras"}
		if st := checkExtra(az, extra, wanted.Extra, constrained); st != nil {
			return nil, st
		}
	}

	switch {
	case actual.Name == Anonymous:
		actual.Groups = withGroup(actual.Groups, AllUnauthenticated)
	case !(&actual).InGroup(AllUnauthenticated):
		actual.Groups = withGroup(actual.Groups, AllAuthenticated)
	}
	return &actual, nil
}

// manyChecks mirrors manyAuthorizationChecksInLoop: from this many groups or extra values on,
// a constrained mode first asks for all of them at once.
const manyChecks = 4

func checkGroups(az Authorizer, attrs Attributes, groups []string, constrained bool) *api.Status {
	if constrained {
		for _, g := range groups {
			if g == "" {
				return Forbidden(attrs, "impersonating the empty string group is not allowed")
			}
		}
		for _, g := range groups {
			if g == SystemPrivilegedGroup {
				attrs.Name = SystemPrivilegedGroup
				return Forbidden(attrs, "impersonating the system:masters group is not allowed")
			}
		}
		if len(groups) >= manyChecks {
			all := attrs
			all.Name = "*"
			if checkAuthorization(az, all) == nil {
				return nil
			}
		}
	}
	for _, g := range groups {
		attrs.Name = g
		if st := checkAuthorization(az, attrs); st != nil {
			return st
		}
	}
	return nil
}

func checkExtra(az Authorizer, attrs Attributes, extra map[string][]string, constrained bool) *api.Status {
	keys := make([]string, 0, len(extra))
	count := 0
	for k, vs := range extra {
		keys = append(keys, k)
		count += len(vs)
	}
	sort.Strings(keys)
	if constrained {
		if msg := badExtra(extra, keys); msg != "" {
			return Forbidden(attrs, msg)
		}
		if len(extra) >= manyChecks || count >= manyChecks {
			all := attrs
			all.Subresource, all.Name = "*", "*"
			if checkAuthorization(az, all) == nil {
				return nil
			}
		}
	}
	for _, k := range keys {
		attrs.Subresource = k
		for _, v := range extra[k] {
			attrs.Name = v
			if st := checkAuthorization(az, attrs); st != nil {
				return st
			}
		}
	}
	return nil
}

// badExtra mirrors validateExtra of the constrained modes.
func badExtra(extra map[string][]string, keys []string) string {
	for _, k := range keys {
		values := extra[k]
		switch {
		case k == "":
			return "impersonating the empty string key in extra is not allowed"
		case domainPrefixedPath(k) != "":
			return "impersonating an invalid key in extra is not allowed: " + domainPrefixedPath(k)
		case k != strings.ToLower(k):
			return fmt.Sprintf("impersonating a non-lowercase key in extra is not allowed: %q", k)
		case len(values) == 0:
			return "impersonating empty values in extra is not allowed"
		}
		for _, v := range values {
			if v == "" {
				return "impersonating the empty string value in extra is not allowed"
			}
		}
	}
	return ""
}

// domainPrefixedPath mirrors IsDomainPrefixedPath at extra.key, as its aggregate prints:
// a DNS subdomain, a slash and a path (whose characters are not checked here), or "".
func domainPrefixedPath(k string) string {
	host, path, found := strings.Cut(k, "/")
	if !found || host == "" || path == "" {
		return fmt.Sprintf("extra.key: Invalid value: %q: must be a domain-prefixed path (such as \"acme.io/foo\")", k)
	}
	var errs []string
	for _, m := range validation.IsDNS1123Subdomain(host) {
		errs = append(errs, fmt.Sprintf("extra.key: Invalid value: %q: %s", host, m))
	}
	if len(errs) > 1 {
		return "[" + strings.Join(errs, ", ") + "]"
	}
	return strings.Join(errs, "")
}

// checkAuthorization mirrors checkAuthorization of the impersonation filter.
func checkAuthorization(az Authorizer, a Attributes) *api.Status {
	d, reason := az.Authorize(a)
	if d == DecisionAllow {
		return nil
	}
	return Forbidden(a, reason)
}

func nodeName(username string) (string, bool) {
	name, ok := strings.CutPrefix(username, nodePrefix)
	if !ok || len(validation.IsDNS1123Subdomain(name)) > 0 {
		return "", false
	}
	return name, true
}

func onlyName(u *User) bool { return u.UID == "" && len(u.Groups) == 0 && len(u.Extra) == 0 }

// withGroup returns groups with g added at the end, unless it is there.
func withGroup(groups []string, g string) []string {
	for _, x := range groups {
		if x == g {
			return groups
		}
	}
	return append(append([]string(nil), groups...), g)
}

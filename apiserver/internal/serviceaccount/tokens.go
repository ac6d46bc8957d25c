package serviceaccount

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
)

// The extra keys of a service account's user (pkg/authentication/serviceaccount).
const (
	PodNameKey      = "authentication.kubernetes.io/pod-name"
	PodUIDKey       = "authentication.kubernetes.io/pod-uid"
	NodeNameKey     = "authentication.kubernetes.io/node-name"
	NodeUIDKey      = "authentication.kubernetes.io/node-uid"
	CredentialIDKey = "authentication.kubernetes.io/credential-id"
)

// leeway mirrors jwt.DefaultLeeway: the clock skew every time check allows.
const leeway = time.Minute

// Ref names a service account or a bound object.
type Ref struct{ Name, UID string }

// Request is what one token is issued for (the arguments of token.Claims).
type Request struct {
	Namespace      string
	ServiceAccount Ref
	// Pod (with the Node it runs on, if any), Secret or Node: the object the token is bound
	// to, or none.
	Pod, Secret, Node *Ref
	Audiences         []string
	Expiration        time.Duration
	// WarnAfter, when set, is the extended token's warnafter, from the issue time.
	WarnAfter time.Duration
	Now       time.Time
}

// Tokens issues and authenticates the server's service-account tokens (point 1 to 3 of the
// package contract).
type Tokens struct {
	// Issuer is the iss of every token, --service-account-issuer.
	Issuer string
	// APIAudiences are the audiences a token must have one of when the request names none
	// (--api-audiences, which defaults to the issuer).
	APIAudiences []string
	// signer makes the key on first use: a server that issues and checks no token (most
	// starts) generates none.
	signer func() (*signer, error)
}

// New mirrors JWTTokenGenerator and JWTTokenAuthenticator over a fresh key, generated when
// the first token is issued or checked; a failure of the system's random source is that
// call's error.
func New(issuer string, apiAudiences []string) (*Tokens, error) {
	return &Tokens{Issuer: issuer, APIAudiences: apiAudiences, signer: sync.OnceValues(newSigner)}, nil
}

// Issue mirrors token.Claims and GenerateToken: the signed token for req.
func (t *Tokens) Issue(req Request) (string, error) {
	k := map[string]any{
		"namespace":      req.Namespace,
		"serviceaccount": ref(req.ServiceAccount),
	}
	switch {
	case req.Pod != nil:
		k["pod"] = ref(*req.Pod)
		if req.Node != nil {
			k["node"] = ref(*req.Node)
		}
	case req.Secret != nil:
		k["secret"] = ref(*req.Secret)
	case req.Node != nil:
		k["node"] = ref(*req.Node)
	}
	if req.WarnAfter != 0 {
		k["warnafter"] = req.Now.Add(req.WarnAfter).Unix()
	}
	now := req.Now.Unix()
	sg, err := t.signer()
	if err != nil {
		return "", err
	}
	return sg.sign(map[string]any{
		"iss": t.Issuer, "sub": authz.ServiceAccountUser(req.Namespace, req.ServiceAccount.Name),
		"aud": req.Audiences, "iat": now, "nbf": now, "exp": req.Now.Add(req.Expiration).Unix(),
		"jti": newUUID(), "kubernetes.io": k,
	})
}

// ref is a Ref as the claims write it: empty members left out.
func ref(r Ref) map[string]any {
	m := map[string]any{}
	if r.Name != "" {
		m["name"] = r.Name
	}
	if r.UID != "" {
		m["uid"] = r.UID
	}
	return m
}

// Getter returns the stored object of a resource ("serviceaccounts", "pods", "secrets",
// "nodes"), or nil when there is none.
type Getter func(resource, namespace, name string) map[string]any

// claims are the parts of a token Authenticate reads.
type claims struct {
	Issuer    string    `json:"iss"`
	Subject   string    `json:"sub"`
	Audience  audiences `json:"aud"`
	Expiry    *int64    `json:"exp"`
	NotBefore *int64    `json:"nbf"`
	IssuedAt  *int64    `json:"iat"`
	ID        string    `json:"jti"`
	K         struct {
		Namespace      string                      `json:"namespace"`
		ServiceAccount struct{ Name, UID string }  `json:"serviceaccount"`
		Pod            *struct{ Name, UID string } `json:"pod"`
		Secret         *struct{ Name, UID string } `json:"secret"`
		Node           *struct{ Name, UID string } `json:"node"`
	} `json:"kubernetes.io"`
}

// audiences reads aud as a string or a list of strings, as JWT allows.
type audiences []string

func (a *audiences) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*a = []string{one}
		return nil
	}
	var many []string
	err := json.Unmarshal(b, &many)
	*a = many
	return err
}

// Authenticate mirrors jwtTokenAuthenticator.AuthenticateToken with the bound-token
// validator (point 3): ok false and no error when the token is not this issuer's. want
// are the audiences asked for (nil: APIAudiences); the answer's audiences are those of the
// token among them.
func (t *Tokens) Authenticate(token string, want []string, now time.Time, get Getter) (u *authz.User, auds []string, ok bool, err error) {
	if unverifiedIssuer(token) != t.Issuer {
		return nil, nil, false, nil
	}
	sg, err := t.signer()
	if err != nil {
		return nil, nil, false, err
	}
	payload, err := sg.verify(token)
	if err != nil {
		return nil, nil, false, err
	}
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return nil, nil, false, errSignature
	}
	tokenAuds := []string(c.Audience)
	if len(tokenAuds) == 0 {
		tokenAuds = t.APIAudiences // a legacy token without aud is for the API
	}
	if want == nil {
		want = t.APIAudiences
	}
	auds = intersect(tokenAuds, want)
	if len(auds) == 0 {
		return nil, nil, false, fmt.Errorf("token audiences %q is invalid for the target audiences %q", tokenAuds, want)
	}
	if err := checkTimes(c, now); err != nil {
		return nil, nil, false, err
	}
	u, err = t.validate(c, now, get)
	if err != nil {
		return nil, nil, false, err
	}
	return u, auds, true, nil
}

// checkTimes mirrors jwt.Claims.Validate with the default leeway, in its order.
func checkTimes(c claims, now time.Time) error {
	n := now.Unix()
	l := int64(leeway / time.Second)
	switch {
	case c.NotBefore != nil && n+l < *c.NotBefore:
		return errors.New("service account token is not valid yet")
	case c.Expiry != nil && n-l > *c.Expiry:
		return errors.New("service account token has expired")
	case c.IssuedAt != nil && n+l < *c.IssuedAt:
		return errors.New("service account token is issued in the future")
	}
	return nil
}

// validate mirrors validator.Validate: the service account and the bound object must still
// exist with the uids the token names, and not have been deleted more than the leeway ago.
func (t *Tokens) validate(c claims, now time.Time, get Getter) (*authz.User, error) {
	ns, sa := c.K.Namespace, c.K.ServiceAccount
	gone := now.Add(-leeway)
	obj := get("serviceaccounts", ns, sa.Name)
	if obj == nil {
		return nil, fmt.Errorf("serviceaccounts %q not found", sa.Name)
	}
	if uid := uidOf(obj); uid != sa.UID {
		return nil, fmt.Errorf("service account UID (%s) does not match claim (%s)", uid, sa.UID)
	}
	if deletedBefore(obj, gone) {
		return nil, fmt.Errorf("service account %s/%s has been deleted", ns, sa.Name)
	}
	if s := c.K.Secret; s != nil {
		secret := get("secrets", ns, s.Name)
		switch {
		case secret == nil, deletedBefore(secret, gone):
			return nil, errors.New("service account token has been invalidated")
		case uidOf(secret) != s.UID:
			return nil, fmt.Errorf("secret UID (%s) does not match service account secret ref claim (%s)", uidOf(secret), s.UID)
		}
	}
	u := &authz.User{Name: authz.ServiceAccountUser(ns, sa.Name), UID: sa.UID, Groups: authz.ServiceAccountGroups(ns)}
	extra := map[string][]string{}
	if p := c.K.Pod; p != nil {
		pod := get("pods", ns, p.Name)
		switch {
		case pod == nil, deletedBefore(pod, gone):
			return nil, errors.New("service account token has been invalidated")
		case uidOf(pod) != p.UID:
			return nil, fmt.Errorf("pod UID (%s) does not match service account pod ref claim (%s)", uidOf(pod), p.UID)
		}
		if p.Name != "" && p.UID != "" {
			extra[PodNameKey], extra[PodUIDKey] = []string{p.Name}, []string{p.UID}
		}
	}
	if n := c.K.Node; n != nil {
		if c.K.Pod == nil {
			node := get("nodes", "", n.Name)
			switch {
			case node == nil, deletedBefore(node, gone):
				return nil, errors.New("service account token has been invalidated")
			case uidOf(node) != n.UID:
				return nil, fmt.Errorf("node UID (%s) does not match service account node ref claim (%s)", uidOf(node), n.UID)
			}
		}
		if n.Name != "" {
			extra[NodeNameKey] = []string{n.Name}
			if n.UID != "" {
				extra[NodeUIDKey] = []string{n.UID}
			}
		}
	}
	if c.ID != "" {
		extra[CredentialIDKey] = []string{"JTI=" + c.ID}
	}
	if len(extra) > 0 {
		u.Extra = extra
	}
	return u, nil
}

func uidOf(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	uid, _ := md["uid"].(string)
	return uid
}

// deletedBefore reports whether obj has a deletionTimestamp before t.
func deletedBefore(obj map[string]any, t time.Time) bool {
	md, _ := obj["metadata"].(map[string]any)
	ts, _ := md["deletionTimestamp"].(string)
	if ts == "" {
		return false
	}
	at, err := time.Parse(time.RFC3339, ts)
	return err == nil && at.Before(t)
}

// intersect mirrors authenticator.Audiences.Intersect: the members of a that are in b.
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// newUUID is a random (version 4) UUID, the jti of a token.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

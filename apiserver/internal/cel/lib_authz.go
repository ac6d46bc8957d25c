package cel

// Kubernetes' authz library (k8s.io/apiserver pkg/cel/library/authz.go), as the admission
// policies' `authorizer` variable uses it: authorizer.group('apps').resource('deployments')
// .namespace('ns').check('create').allowed(). It is added only to environments built with
// WithAuthz; the host answers the checks.

// AuthzRequest is one check: a path or a resource, the verb, and the service account to
// ask for instead of the requester (serviceAccount()).
type AuthzRequest struct {
	Path                                                string
	Group, Resource, Subresource, Namespace, Name, Verb string
	// IsResource tells a resource check from a path check.
	IsResource bool
	// AsServiceAccount asks for ServiceAccountNamespace/ServiceAccountName instead.
	AsServiceAccount                            bool
	ServiceAccountNamespace, ServiceAccountName string
}

// AuthzDecision is the host's answer: "allow", "deny" or "noOpinion", a reason, and an
// error text when the authorizer failed.
type AuthzDecision struct {
	Decision, Reason, Error string
}

// AuthzFunc answers checks.
type AuthzFunc func(AuthzRequest) AuthzDecision

// The authz library's types.
var (
	AuthorizerType    = OpaqueType("kubernetes.authorization.Authorizer")
	PathCheckType     = OpaqueType("kubernetes.authorization.PathCheck")
	GroupCheckType    = OpaqueType("kubernetes.authorization.GroupCheck")
	ResourceCheckType = OpaqueType("kubernetes.authorization.ResourceCheck")
	DecisionType      = OpaqueType("kubernetes.authorization.Decision")
)

// Authorizer is the value of the `authorizer` variable.
type Authorizer struct {
	fn  AuthzFunc
	req AuthzRequest
}

// NewAuthorizer makes the `authorizer` value that asks fn.
func NewAuthorizer(fn AuthzFunc) Authorizer { return Authorizer{fn: fn} }

type authzCheck struct {
	fn   AuthzFunc
	req  AuthzRequest
	kind *Type
}

type authzDecision struct{ d AuthzDecision }

func (a Authorizer) celType() *Type        { return AuthorizerType }
func (c authzCheck) celType() *Type        { return c.kind }
func (d authzDecision) celType() *Type     { return DecisionType }
func (a Authorizer) equal(o Value) bool    { return false }
func (c authzCheck) equal(o Value) bool    { return false }
func (d authzDecision) equal(o Value) bool { return false }

// WithAuthz returns a copy of env with the authz library's functions.
func (env *Env) WithAuthz() *Env {
	l := newLibrary()
	authzLib(l)
	e := *env
	e.funcs = make(map[string]*function, len(env.funcs)+len(l.funcs))
	for k, v := range env.funcs {
		e.funcs[k] = v
	}
	for k, v := range l.funcs {
		if f, ok := e.funcs[k]; ok {
			merged := &function{name: k, byID: map[string]*overload{}}
			merged.overloads = append(append(merged.overloads, f.overloads...), v.overloads...)
			for _, o := range merged.overloads {
				merged.byID[o.id] = o
			}
			e.funcs[k] = merged
			continue
		}
		e.funcs[k] = v
	}
	return &e
}

func authzLib(l *library) {
	S, B := StringType, BoolType
	l.member("path", "authorizer_path", PathCheckType, ts(AuthorizerType, S), func(a, p Value) Value {
		az := a.(Authorizer)
		r := az.req
		r.Path = p.(string)
		return authzCheck{fn: az.fn, req: r, kind: PathCheckType}
	})
	l.member("group", "authorizer_group", GroupCheckType, ts(AuthorizerType, S), func(a, g Value) Value {
		az := a.(Authorizer)
		r := az.req
		r.Group, r.IsResource = g.(string), true
		return authzCheck{fn: az.fn, req: r, kind: GroupCheckType}
	})
	l.member("serviceAccount", "authorizer_serviceaccount", AuthorizerType, ts(AuthorizerType, S, S), func(args []Value) Value {
		az := args[0].(Authorizer)
		az.req.ServiceAccountNamespace, az.req.ServiceAccountName = args[1].(string), args[2].(string)
		az.req.AsServiceAccount = true
		return az
	})
	l.member("resource", "groupcheck_resource", ResourceCheckType, ts(GroupCheckType, S), func(c, v Value) Value {
		x := c.(authzCheck)
		x.req.Resource, x.kind = v.(string), ResourceCheckType
		return x
	})
	set := func(name, id string, f func(r *AuthzRequest, v string)) {
		l.member(name, id, ResourceCheckType, ts(ResourceCheckType, S), func(c, v Value) Value {
			x := c.(authzCheck)
			f(&x.req, v.(string))
			return x
		})
	}
	set("subresource", "resourcecheck_subresource", func(r *AuthzRequest, v string) { r.Subresource = v })
	set("namespace", "resourcecheck_namespace", func(r *AuthzRequest, v string) { r.Namespace = v })
	set("name", "resourcecheck_name", func(r *AuthzRequest, v string) { r.Name = v })
	check := func(c, v Value) Value {
		x := c.(authzCheck)
		x.req.Verb = v.(string)
		return authzDecision{d: x.fn(x.req)}
	}
	l.member("check", "pathcheck_check", DecisionType, ts(PathCheckType, S), check)
	l.member("check", "resourcecheck_check", DecisionType, ts(ResourceCheckType, S), check)
	l.member("allowed", "decision_allowed", B, ts(DecisionType), func(d Value) Value { return d.(authzDecision).d.Decision == "allow" })
	l.member("reason", "decision_reason", S, ts(DecisionType), func(d Value) Value { return d.(authzDecision).d.Reason })
	l.member("errored", "decision_errored", B, ts(DecisionType), func(d Value) Value { return d.(authzDecision).d.Error != "" })
	l.member("error", "decision_error", S, ts(DecisionType), func(d Value) Value { return d.(authzDecision).d.Error })
}

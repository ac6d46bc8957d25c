package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// The reviews, create-only and stored nowhere, each answered from its request, as the REST
// storages of kubernetes pkg/registry/authentication and pkg/registry/authorization:
//
//  1. TokenReview runs the token through the bearer-token authenticators (the static
//     BearerToken, then the service-account tokens), for its spec.audiences or the API
//     audiences, and answers authenticated with the user and audiences, or the error the
//     real authenticator chain gives: "invalid bearer token", joined with the service-account
//     authenticator's reason when it had one. An empty token is 400.
//  2. SelfSubjectReview answers the requester's user (`kubectl auth whoami`), in a new
//     object stamped with the time.
//  3. SubjectAccessReview, SelfSubjectAccessReview and LocalSubjectAccessReview validate
//     their spec as pkg/apis/authorization/validation does (a 422 naming the kind "" of
//     group authorization.k8s.io, as the real one's internal object has no kind), ask the
//     server's authorizer about the user they name (or the requester), and answer the
//     request with status allowed, denied and reason.
//  4. SelfSubjectRulesReview lists what the requester may do in spec.namespace (400 without
//     one), in a new object: AlwaysAllow's everything, or the rules RBAC finds.

// The answers of the review handlers, as objects of their kinds.

// serveTokenReview serves POST tokenreviews.
func serveTokenReview(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	obj, ok := s.decodeReview(w, r, info)
	if !ok {
		return
	}
	spec := memberMap(obj, "spec")
	token, _ := spec["token"].(string)
	if token == "" {
		writeError(w, api.NewBadRequest("token is required for TokenReview in authentication"))
		return
	}
	want := memberStrings(spec, "audiences")
	status := map[string]any{"user": map[string]any{}}
	if u, auds, err := s.reviewToken(token, want); err != nil {
		status["error"] = err.Error()
	} else {
		status["authenticated"] = true
		status["user"] = userInfo(u, true)
		status["audiences"] = auds
	}
	obj["status"] = status
	writeAnswer(w, info, http.StatusCreated, obj)
}

// reviewToken authenticates a bare token as a request carrying only it would be: the
// loopback token of the real server refuses it first ("invalid bearer token"), then the
// static token (audience-agnostic: it holds for the API audiences only) and the
// service-account tokens.
func (s *endpoints) reviewToken(token string, want []string) (*authz.User, []string, error) {
	apiAuds := s.tokens.APIAudiences
	if bt := s.opts.BearerToken; bt != "" && token == bt {
		auds := apiAuds
		if want != nil {
			auds = intersectStrings(apiAuds, want)
		}
		if len(auds) > 0 {
			return authenticated(&authz.User{Name: AdminCommonName, Groups: []string{AdminGroup}}), auds, nil
		}
	}
	u, auds, ok, err := s.tokens.Authenticate(token, want, s.clock.Now(), s.storedObject)
	switch {
	case ok:
		return authenticated(u), auds, nil
	case err != nil:
		return nil, nil, fmt.Errorf("[invalid bearer token, %s]", err.Error())
	}
	return nil, nil, fmt.Errorf("invalid bearer token")
}

// serveSelfSubjectReview serves POST selfsubjectreviews.
func serveSelfSubjectReview(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	if _, ok := s.decodeReview(w, r, info); !ok {
		return
	}
	u, _ := authz.UserFrom(r.Context())
	writeAnswer(w, info, http.StatusCreated, map[string]any{
		"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview",
		"metadata": map[string]any{"creationTimestamp": s.clock.Now().UTC().Format(timeFormat)},
		"status":   map[string]any{"userInfo": userInfo(u, false)},
	})
}

// timeFormat is metav1.Time's RFC 3339 to the second.
const timeFormat = "2006-01-02T15:04:05Z"

// userInfo is a UserInfo of authentication/v1: username, uid, groups and extra, each left
// out when empty; a TokenReview's user always carries its (possibly empty) extra.
func userInfo(u *authz.User, withExtra bool) map[string]any {
	out := map[string]any{}
	if u == nil {
		return out
	}
	if u.Name != "" {
		out["username"] = u.Name
	}
	if u.UID != "" {
		out["uid"] = u.UID
	}
	if len(u.Groups) > 0 {
		out["groups"] = u.Groups
	}
	if len(u.Extra) > 0 || withExtra {
		extra := map[string]any{}
		for k, v := range u.Extra {
			extra[k] = v
		}
		if len(extra) > 0 {
			out["extra"] = extra
		}
	}
	return out
}

// serveAccessReview serves POST subjectaccessreviews, selfsubjectaccessreviews and
// localsubjectaccessreviews.
func serveAccessReview(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	obj, ok := s.decodeReview(w, r, info)
	if !ok {
		return
	}
	kind := info.res.Info.Kind
	spec := memberMap(obj, "spec")
	causes := accessReviewCauses(kind, obj)
	if len(causes) > 0 {
		writeError(w, api.NewInvalid(api.GroupKind{Group: "authorization.k8s.io"}, "", causes))
		return
	}
	var u *authz.User
	if kind == "SelfSubjectAccessReview" {
		u, _ = authz.UserFrom(r.Context())
	} else {
		u = &authz.User{Name: memberText(spec, "user"), UID: memberText(spec, "uid"), Groups: memberStrings(spec, "groups")}
		if extra, ok := spec["extra"].(map[string]any); ok {
			u.Extra = map[string][]string{}
			for k := range extra {
				u.Extra[k] = memberStrings(extra, k)
			}
		}
	}
	attrs := authz.Attributes{User: u}
	if ra, ok := spec["resourceAttributes"].(map[string]any); ok {
		attrs.ResourceRequest = true
		attrs.Verb, attrs.Namespace, attrs.APIGroup = memberText(ra, "verb"), memberText(ra, "namespace"), memberText(ra, "group")
		attrs.APIVersion, attrs.Resource, attrs.Subresource, attrs.Name = memberText(ra, "version"), memberText(ra, "resource"), memberText(ra, "subresource"), memberText(ra, "name")
		if attrs.APIVersion == "" {
			attrs.APIVersion = "*"
		}
	} else {
		nra := memberMap(spec, "nonResourceAttributes")
		attrs.Path, attrs.Verb = memberText(nra, "path"), memberText(nra, "verb")
	}
	d, reason := s.authorizer.Authorize(attrs)
	status := map[string]any{"allowed": d == authz.DecisionAllow}
	if d == authz.DecisionDeny {
		status["denied"] = true
	}
	if reason != "" {
		status["reason"] = reason
	}
	obj["status"] = status
	writeAnswer(w, info, http.StatusCreated, obj)
}

// attributesOf is a ResourceAttributes or NonResourceAttributes as the internal Go struct
// prints in an Invalid cause: its fields by their Go names.
type nonResourceOf struct{ Path, Verb string }

// accessReviewCauses mirrors ValidateSubjectAccessReview, ValidateSelfSubjectAccessReview
// and ValidateLocalSubjectAccessReview.
func accessReviewCauses(kind string, obj map[string]any) []api.StatusCause {
	spec := memberMap(obj, "spec")
	ra, hasRA := spec["resourceAttributes"].(map[string]any)
	nra, hasNRA := spec["nonResourceAttributes"].(map[string]any)
	var nraValue any
	if hasNRA {
		nraValue = nonResourceOf{memberText(nra, "path"), memberText(nra, "verb")}
	}
	var causes []api.StatusCause
	if kind == "LocalSubjectAccessReview" {
		md := memberMap(obj, "metadata")
		if n := metaMembersBeyondManagedFields(md); n > 1 || (n == 1 && md["namespace"] == nil) {
			causes = append(causes, validation.Invalid("metadata", metadataValue(md), "must be empty except for namespace"))
		}
		if hasRA && memberText(ra, "namespace") != memberText(md, "namespace") {
			causes = append(causes, validation.Invalid("spec.resourceAttributes.namespace", memberText(ra, "namespace"), "must match metadata.namespace"))
		}
		if hasNRA {
			causes = append(causes, validation.Invalid("spec.nonResourceAttributes", nraValue, "disallowed on this kind of request"))
		}
	}
	// ValidateSubjectAccessReviewSpec (or its Self form), then the metadata rule.
	var spc []api.StatusCause
	if hasRA && hasNRA {
		spc = append(spc, validation.Invalid("spec.nonResourceAttributes", nraValue, "cannot be specified in combination with resourceAttributes"))
	}
	if !hasRA && !hasNRA {
		spc = append(spc, validation.Invalid("spec.resourceAttributes", nil, "exactly one of nonResourceAttributes or resourceAttributes must be specified"))
	}
	if kind != "SelfSubjectAccessReview" && memberText(spec, "user") == "" && len(memberStrings(spec, "groups")) == 0 {
		spc = append(spc, validation.Invalid("spec.user", "", "at least one of user or group must be specified"))
	}
	if hasRA {
		for _, sel := range []string{"fieldSelector", "labelSelector"} {
			if s, ok := ra[sel].(map[string]any); ok {
				spc = append(spc, selectorAttributesCauses(s, "spec.resourceAttributes."+sel)...)
			}
		}
	}
	if kind == "LocalSubjectAccessReview" {
		return append(spc, causes...)
	}
	if md := memberMap(obj, "metadata"); metaMembersBeyondManagedFields(md) > 0 {
		spc = append(spc, validation.Invalid("metadata", metadataValue(md), "must be empty"))
	}
	return spc
}

// selectorAttributesCauses mirrors validateFieldSelectorAttributes and
// validateLabelSelectorAttributes: a raw selector or requirements, not both, not neither.
func selectorAttributesCauses(sel map[string]any, path string) []api.StatusCause {
	raw, _ := sel["rawSelector"].(string)
	reqs, _ := sel["requirements"].([]any)
	switch {
	case raw != "" && len(reqs) > 0:
		return []api.StatusCause{validation.Invalid(path+".rawSelector", raw, "may not specified at the same time as requirements")}
	case raw == "" && len(reqs) == 0:
		return []api.StatusCause{validation.Required(path+".requirements", "when "+path+" is specified, requirements or rawSelector is required")}
	}
	return nil
}

// managedFieldsEntryOrder is metav1.ManagedFieldsEntry's field order.
var managedFieldsEntryOrder = []string{"manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"}

// metaMembersBeyondManagedFields counts md's members other than managedFields: the
// validation compares the metadata with an empty one after clearing managedFields, which
// the create handler has just recorded.
func metaMembersBeyondManagedFields(md map[string]any) int {
	n := len(md)
	if _, ok := md["managedFields"]; ok {
		n--
	}
	return n
}

// metadataValue is an ObjectMeta as an Invalid cause prints it: its JSON, in field order.
func metadataValue(md map[string]any) json.RawMessage {
	if mfs, ok := md["managedFields"].([]any); ok {
		// Each entry in ManagedFieldsEntry's field order, as the Go struct prints.
		md = maps.Clone(md)
		entries := make([]json.RawMessage, 0, len(mfs))
		for _, e := range mfs {
			em, _ := e.(map[string]any)
			var b bytes.Buffer
			if writeOrdered(&b, em, managedFieldsEntryOrder) != nil {
				return json.RawMessage(`{}`)
			}
			entries = append(entries, b.Bytes())
		}
		md["managedFields"] = entries
	}
	var b bytes.Buffer
	if writeOrdered(&b, md, objectMetaOrder) != nil {
		return json.RawMessage(`{}`)
	}
	return b.Bytes()
}

// serveSelfSubjectRulesReview serves POST selfsubjectrulesreviews.
func serveSelfSubjectRulesReview(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	obj, ok := s.decodeReview(w, r, info)
	if !ok {
		return
	}
	ns := memberText(memberMap(obj, "spec"), "namespace")
	if ns == "" {
		writeError(w, api.NewBadRequest("no namespace on request"))
		return
	}
	u, _ := authz.UserFrom(r.Context())
	res, nonRes, evalErr := s.authorizer.RulesFor(u, ns)
	resRules := []any{}
	for _, rr := range res {
		m := map[string]any{"verbs": nonNil(rr.Verbs)}
		putList(m, "apiGroups", rr.APIGroups)
		putList(m, "resources", rr.Resources)
		putList(m, "resourceNames", rr.ResourceNames)
		resRules = append(resRules, m)
	}
	nonResRules := []any{}
	for _, nr := range nonRes {
		m := map[string]any{"verbs": nonNil(nr.Verbs)}
		putList(m, "nonResourceURLs", nr.NonResourceURLs)
		nonResRules = append(nonResRules, m)
	}
	status := map[string]any{"resourceRules": resRules, "nonResourceRules": nonResRules, "incomplete": false}
	if evalErr != "" {
		status["evaluationError"] = evalErr
	}
	writeAnswer(w, info, http.StatusCreated, map[string]any{
		"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview",
		"metadata": map[string]any{}, "spec": map[string]any{}, "status": status,
	})
}

// decodeReview reads a review's body as its kind (the namespace of a
// LocalSubjectAccessReview filled in from the path, or checked against it).
func (s *endpoints) decodeReview(w http.ResponseWriter, r *http.Request, info requestInfo) (map[string]any, bool) {
	obj, wo, ok := s.decodeRequest(w, r, info, decode.CreateOptionsKind)
	if !ok {
		return nil, false
	}
	if info.res.Info.Namespaced {
		switch ns := obj.GetNamespace(); {
		case ns == "":
			obj.SetNamespace(info.namespace)
		case ns != info.namespace:
			writeError(w, api.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request"))
			return nil, false
		}
	}
	// The create handler records the write before the storage sees it, reviews included:
	// an invalid review's metadata cause shows the managedFields entry.
	if fm, err := s.reg.FieldManagerOf(info.res); fm != nil && err == nil {
		if out, err := fm.Update(nil, obj, managerOrUserAgent(wo.FieldManager, r.UserAgent()), "", s.reg.Now()); err == nil {
			obj = out
		}
	}
	return obj.Object, true
}

// writeAnswer writes an object that is not stored, in the negotiated encoding.
func writeAnswer(w http.ResponseWriter, info requestInfo, code int, obj map[string]any) {
	if info.out.Protobuf {
		// The codec reads JSON-shaped trees: []any lists, int64 numbers.
		u := &api.Unstructured{}
		data, err := json.Marshal(obj)
		if err == nil {
			err = u.UnmarshalJSON(data)
		}
		if err == nil {
			data, err = iprotobuf.Codec().Encode(u.GroupVersionKind(), u.Object)
		}
		if err != nil {
			writeError(w, api.NewInternalError(err))
			return
		}
		writeRawType(w, code, negotiation.ProtobufType, data)
		return
	}
	data, err := encodeStored(obj)
	if err != nil {
		writeError(w, api.NewInternalError(err))
		return
	}
	writeRaw(w, code, append(data, '\n'))
}

func memberMap(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

func memberText(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// memberStrings reads a list of strings (nil when absent).
func memberStrings(m map[string]any, key string) []string {
	l, ok := m[key].([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(l))
	for _, v := range l {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func putList(m map[string]any, key string, v []string) {
	if len(v) > 0 {
		m[key] = v
	}
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

func intersectStrings(a, b []string) []string {
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

package apiserver

import (
	"fmt"
	"net/http"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/internal/serviceaccount"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// serviceaccounts/token, the TokenRequest subresource (pkg/registry/core/serviceaccount/
// storage/token.go): POST a TokenRequest and get it back with status.token, a token signed
// by the server (internal/serviceaccount) that authenticates as the service account
// (auth.go), and status.expirationTimestamp.
//
//  1. The service account must exist (404 `serviceaccounts "x" not found`); a name,
//     namespace or uid in the body must be the account's (422, or a 409 for the uid).
//  2. spec.audiences defaults to the API audiences (ServiceAccountIssuer),
//     spec.expirationSeconds to 3600 (the v1 default); it must be at least 600 and below
//     2^32 (422).
//  3. spec.boundObjectRef binds the token to a Pod (whose node the claims name too), a
//     Secret or a Node of that name, which must exist (its 404) and, given a uid, be that
//     object (409); a pod must run as the service account (400). Any other kind is 400. The
//     token is valid only while the object exists.
//  4. A pod-bound token asked for with the kubelet's 3607 seconds, for the API audiences, is
//     extended to a year with a warnafter claim at the asked expiry, as kube-apiserver's
//     --service-account-extend-token-expiration (on by default) does.
//  5. The answer is the request with the metadata of the service account (name, namespace,
//     uid) and the request's time, the defaulted spec and the status; 201.

// tokenRequestGVK is the kind of the subresource's body and answer.
var tokenRequestGVK = api.GroupVersionKind{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}

const (
	defaultTokenSeconds   = 3600
	minTokenSeconds       = 600
	kubeletTokenSeconds   = 60*60 + 7 // WarnOnlyBoundTokenExpirationSeconds
	extendedTokenDuration = 24 * 365 * time.Hour
)

// serveTokenRequest serves POST serviceaccounts/{name}/token.
func serveTokenRequest(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	if err := checkBodyType(r, true); err != nil {
		writeError(w, err)
		return
	}
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	if isProtobufType(r.Header.Get("Content-Type")) {
		if body, err = protobufBodyToJSON(body, tokenRequestGVK); err != nil {
			writeError(w, err)
			return
		}
	}
	wo, err := decode.ParseWriteOptions(decode.CreateOptionsKind, r.URL.Query(), "")
	if err != nil {
		writeError(w, err)
		return
	}
	sch, _ := schema.ForKind(tokenRequestGVK)
	req, warnings, err := decode.ObjectForStorage(body, sch, tokenRequestGVK, wo.FieldValidation)
	if err != nil {
		writeError(w, err)
		return
	}
	writeWarnings(w, warnings)
	out, err := s.issueToken(info.namespace, info.name, req.Object)
	if err != nil {
		writeError(w, err)
		return
	}
	writeAnswer(w, info, http.StatusCreated, out)
}

// issueToken checks and defaults a TokenRequest for the service account ns/name and answers
// it with the token (points 1 to 5).
func (s *endpoints) issueToken(ns, name string, req map[string]any) (map[string]any, error) {
	gk := api.GroupKind{Group: tokenRequestGVK.Group, Kind: tokenRequestGVK.Kind}
	md := memberMap(req, "metadata")
	if n := memberText(md, "name"); n != "" && n != name {
		return nil, api.NewInvalid(gk, name, []api.StatusCause{validation.Invalid("metadata.name", n, "must match the service account name if specified")})
	}
	if n := memberText(md, "namespace"); n != "" && n != ns {
		return nil, api.NewInvalid(gk, name, []api.StatusCause{validation.Invalid("metadata.namespace", n, "must match the service account namespace if specified")})
	}
	sa := s.storedObject("serviceaccounts", ns, name)
	if sa == nil {
		return nil, api.NewNotFound(api.GroupResource{Resource: "serviceaccounts"}, name)
	}
	saUID := memberText(memberMap(sa, "metadata"), "uid")
	if uid := memberText(md, "uid"); uid != "" && uid != saUID {
		return nil, api.NewConflict(api.GroupResource{Group: gk.Group, Resource: gk.Kind}, name,
			fmt.Errorf("the UID in the token request (%s) does not match the UID of the service account (%s)", uid, saUID))
	}
	spec := memberMap(req, "spec")
	if spec == nil {
		spec = map[string]any{}
		req["spec"] = spec
	}
	auds := memberStrings(spec, "audiences")
	if len(auds) == 0 {
		auds = s.tokens.APIAudiences
	}
	spec["audiences"] = auds
	seconds, ok := api.AsInt64(spec["expirationSeconds"])
	if !ok {
		seconds = defaultTokenSeconds
	}
	spec["expirationSeconds"] = seconds
	if _, ok := spec["boundObjectRef"]; !ok {
		spec["boundObjectRef"] = nil
	}
	now := s.clock.Now().Truncate(time.Second)
	switch {
	case seconds < minTokenSeconds:
		return nil, api.NewInvalid(gk, "", []api.StatusCause{validation.Invalid("spec.expirationSeconds", seconds, "may not specify a duration less than 10 minutes")})
	case seconds > 1<<32:
		return nil, api.NewInvalid(gk, "", []api.StatusCause{validation.Invalid("spec.expirationSeconds", seconds, "may not specify a duration larger than 2^32 seconds")})
	}
	tr := serviceaccount.Request{Namespace: ns, ServiceAccount: serviceaccount.Ref{Name: name, UID: saUID},
		Audiences: auds, Expiration: time.Duration(seconds) * time.Second, Now: now}
	if ref, ok := spec["boundObjectRef"].(map[string]any); ok {
		if err := s.bindToken(&tr, name, ref); err != nil {
			return nil, err
		}
	}
	if tr.Pod != nil && seconds == kubeletTokenSeconds && subset(auds, s.tokens.APIAudiences) {
		tr.WarnAfter, tr.Expiration = tr.Expiration, extendedTokenDuration
	}
	token, err := s.tokens.Issue(tr)
	if err != nil {
		return nil, api.NewInternalError(fmt.Errorf("failed to generate token: %v", err))
	}
	meta := map[string]any{"name": name, "namespace": ns, "uid": saUID, "creationTimestamp": now.UTC().Format(timeFormat)}
	for k, v := range md {
		if _, set := meta[k]; !set {
			meta[k] = v
		}
	}
	req["apiVersion"], req["kind"] = tokenRequestGVK.APIVersion(), tokenRequestGVK.Kind
	req["metadata"] = meta
	req["status"] = map[string]any{
		"token":               token,
		"expirationTimestamp": now.Add(time.Duration(seconds) * time.Second).UTC().Format(timeFormat),
	}
	return req, nil
}

// bindToken resolves spec.boundObjectRef (point 3) into tr.
func (s *endpoints) bindToken(tr *serviceaccount.Request, saName string, ref map[string]any) error {
	gvk := gvkOfRef(memberText(ref, "apiVersion"), memberText(ref, "kind"))
	name, wantUID := memberText(ref, "name"), memberText(ref, "uid")
	var resource, ns string
	switch {
	case gvk.Group == "" && gvk.Kind == "Pod":
		resource, ns = "pods", tr.Namespace
	case gvk.Group == "" && gvk.Kind == "Secret":
		resource, ns = "secrets", tr.Namespace
	case gvk.Group == "" && gvk.Kind == "Node":
		resource = "nodes"
	default:
		return api.NewBadRequest(fmt.Sprintf("cannot bind token to object of type %s", gvkString(gvk)))
	}
	obj := s.storedObject(resource, ns, name)
	if obj == nil {
		return api.NewNotFound(api.GroupResource{Resource: resource}, name)
	}
	uid := memberText(memberMap(obj, "metadata"), "uid")
	r := &serviceaccount.Ref{Name: name, UID: uid}
	switch resource {
	case "pods":
		spec := memberMap(obj, "spec")
		if sa := memberText(spec, "serviceAccountName"); sa != saName {
			return api.NewBadRequest(fmt.Sprintf("cannot bind token for serviceaccount %q to pod running with different serviceaccount name.", saName))
		}
		tr.Pod = r
		if node := memberText(spec, "nodeName"); node != "" {
			// A missing node still names the pod's node, without a uid.
			tr.Node = &serviceaccount.Ref{Name: node}
			if n := s.storedObject("nodes", "", node); n != nil {
				tr.Node.UID = memberText(memberMap(n, "metadata"), "uid")
			}
		}
	case "secrets":
		tr.Secret = r
	case "nodes":
		tr.Node = r
	}
	if wantUID != "" && wantUID != uid {
		return api.NewConflict(api.GroupResource{Group: gvk.Group, Resource: gvk.Kind}, name,
			fmt.Errorf("the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", wantUID))
	}
	return nil
}

// gvkOfRef mirrors schema.FromAPIVersionAndKind.
func gvkOfRef(apiVersion, kind string) api.GroupVersionKind {
	for i := 0; i < len(apiVersion); i++ {
		if apiVersion[i] == '/' {
			return api.GroupVersionKind{Group: apiVersion[:i], Version: apiVersion[i+1:], Kind: kind}
		}
	}
	return api.GroupVersionKind{Version: apiVersion, Kind: kind}
}

// gvkString mirrors schema.GroupVersionKind.String: "group/version, Kind=kind".
func gvkString(gvk api.GroupVersionKind) string {
	return gvk.Group + "/" + gvk.Version + ", Kind=" + gvk.Kind
}

// subset reports whether every member of a is in b.
func subset(a, b []string) bool {
	return len(intersectStrings(a, b)) == len(a)
}

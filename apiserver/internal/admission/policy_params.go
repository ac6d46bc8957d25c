package admission

import (
	"errors"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// KindResolver is a Store that also knows the served resource of a kind, as the policy
// plugins' REST mapper does for a paramKind.
type KindResolver interface {
	// ResourceFor returns the resource serving group/version/kind and whether it is
	// namespaced; ok is false when nothing serves it.
	ResourceFor(group, version, kind string) (resource string, namespaced, ok bool)
}

// collectParams mirrors generic.CollectParams: the param objects a binding selects, one
// nil param when the policy or the binding uses none.
func collectParams(a *Attributes, paramKind, paramRef map[string]any) ([]*api.Unstructured, error) {
	if paramKind == nil || paramRef == nil {
		return []*api.Unstructured{nil}, nil
	}
	apiVersion, kind := str(paramKind, "apiVersion"), str(paramKind, "kind")
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	kr, _ := a.Store.(KindResolver)
	var resource string
	var namespaced, ok bool
	if kr != nil {
		resource, namespaced, ok = kr.ResourceFor(group, version, kind)
	}
	if !ok {
		return nil, fmt.Errorf("paramKind kind `%s, Kind=%s` not known", apiVersion, kind)
	}
	ns := ""
	if namespaced {
		ns = a.Namespace
		if r := str(paramRef, "namespace"); r != "" {
			ns = r
		} else if ns == "" {
			return nil, errors.New("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources")
		}
	} else if str(paramRef, "namespace") != "" {
		return nil, errors.New("paramRef.namespace must not be provided for a cluster-scoped `paramKind`")
	}
	var params []*api.Unstructured
	switch name := str(paramRef, "name"); {
	case name != "":
		if p := a.get(group, resource, ns, name); p != nil {
			params = []*api.Unstructured{p}
		}
	case paramRef["selector"] != nil:
		sel := child(paramRef, "selector")
		for _, p := range a.list(group, resource, ns) {
			if validation.SelectorMatches(sel, orEmpty(child(child(p.Object, "metadata"), "labels"))) {
				params = append(params, p)
			}
		}
	default:
		return nil, errors.New("one of name or selector must be provided")
	}
	if len(params) == 0 && str(paramRef, "parameterNotFoundAction") == "Deny" {
		return nil, errors.New("no params found for policy binding with `Deny` parameterNotFoundAction")
	}
	return params, nil
}

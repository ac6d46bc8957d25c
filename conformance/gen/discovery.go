// Package gen builds the conformance cases: from the corpus (a create and read-back per
// manifest, schema-driven mutations, immutable-field updates, dry runs, kubectl runs) and from
// hand-written scenarios (server-side apply, paging, watch, namespace and CRD lifecycles, CEL,
// and the specific findings the suite must keep covering).
//
//  1. Case IDs are stable: category/source-or-scenario/variant, so the known-differences file
//     can name them run after run.
//  2. Every case runs in its own namespace (runner.NSPlaceholder); cluster-scoped names carry
//     runner.SuffixPlaceholder, and CRD cases rename their group, so cases never collide.
//  3. Objects that would change how the reference treats other cases (webhooks, APIServices,
//     admission policies, default classes, global-default priority) are only ever dry-run.
//  4. Kinds the reference does not serve are skipped and counted; kinds only the simulator
//     lacks still run (their difference is class unserved-resource-type).
package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// Resource is a served resource type.
type Resource struct {
	GroupVersion string // "v1" or "apps/v1"
	Kind         string
	Plural       string
	Namespaced   bool
	Verbs        []string
}

// CollectionPath is the path of the collection, in the case's namespace if namespaced.
func (r Resource) CollectionPath() string {
	p := "/apis/" + r.GroupVersion
	if r.GroupVersion == "v1" {
		p = "/api/v1"
	}
	if r.Namespaced {
		p += "/namespaces/" + runner.NSPlaceholder
	}
	return p + "/" + r.Plural
}

// Group of the resource ("" for core).
func (r Resource) Group() string {
	if i := strings.Index(r.GroupVersion, "/"); i >= 0 {
		return r.GroupVersion[:i]
	}
	return ""
}

// Discovery maps apiVersion|Kind to the served resource.
type Discovery map[string]Resource

// Lookup finds the resource of an apiVersion and kind.
func (d Discovery) Lookup(apiVersion, kind string) (Resource, bool) {
	r, ok := d[apiVersion+"|"+kind]
	return r, ok
}

// Discover reads the reference's discovery documents.
func Discover(ctx context.Context, t *runner.Target) (Discovery, error) {
	d := Discovery{}
	gvs := []string{"v1"}
	o := t.Do(ctx, http.MethodGet, "/apis", nil, nil)
	var groups struct {
		Groups []struct {
			Versions []struct{ GroupVersion string }
		}
	}
	if err := json.Unmarshal(o.Body, &groups); err != nil {
		return nil, fmt.Errorf("discovery /apis: %d %v", o.Code, err)
	}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gvs = append(gvs, v.GroupVersion)
		}
	}
	for _, gv := range gvs {
		p := "/apis/" + gv
		if gv == "v1" {
			p = "/api/v1"
		}
		o := t.Do(ctx, http.MethodGet, p, nil, nil)
		var list struct {
			Resources []struct {
				Name, Kind string
				Namespaced bool
				Verbs      []string
			}
		}
		if err := json.Unmarshal(o.Body, &list); err != nil {
			return nil, fmt.Errorf("discovery %s: %d %v", p, o.Code, err)
		}
		for _, r := range list.Resources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			d[gv+"|"+r.Kind] = Resource{GroupVersion: gv, Kind: r.Kind, Plural: r.Name, Namespaced: r.Namespaced, Verbs: r.Verbs}
		}
	}
	return d, nil
}

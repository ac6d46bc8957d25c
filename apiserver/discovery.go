package apiserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// Discovery, /version and the health endpoints (docs/behaviour/wire.md K1–K6): what kubectl and client-go's
// discovery client read before anything else. It mirrors k8s.io/apiserver pkg/endpoints/
// discovery (legacy and aggregated), pkg/server/routes/version.go and pkg/server/healthz.
//
//  1. /version reports Options.Version (default DefaultVersion, so the kubectl dispatcher
//     runs kubectl 1.32).
//  2. /api and /apis always answer 200, with the aggregated APIGroupDiscoveryList
//     (apidiscovery.k8s.io v2 or v2beta1, whichever the Accept header names first) or, for a
//     plain application/json Accept, the legacy APIVersions and APIGroupList.
//  3. /api/v1, /apis/{g} and /apis/{g}/{v} serve APIGroup and APIResourceLists with verbs,
//     kinds, scope, short names, categories and the status subresources. Discovery follows
//     Register.
//  4. /healthz, /livez and /readyz answer "ok" (text/plain), their per-check paths
//     (/readyz/ping, …) too, and ?verbose lists the checks.
//  5. These paths, /version, OpenAPI and the health checks are read-only: another method is
//     405. A path that does not exist (an unserved group or version, such as POST
//     /apis/authentication.k8s.io/v1/selfsubjectreviews) is Go's plain 404 for every method,
//     as from the real NotFound handler (U9).

// DefaultVersion is the Kubernetes version /version reports when Options.Version is empty: it
// plays the part of the version compiled into a kube-apiserver binary (component-base's
// version.Get).
// The kubectl on the project's machines is a dispatcher that runs kubectl 1.<minor> for
// minors 27–33 (K1); 32 pins the kubectl the wire spec was recorded with.
const DefaultVersion = "v1.32.0"

var versionPattern = regexp.MustCompile(`^v(\d+)\.(\d+)\.\d+([-+][0-9A-Za-z.+-]*)?$`)

// validateVersion checks a Kubernetes version string such as "v1.32.0".
func validateVersion(v string) error {
	if !versionPattern.MatchString(v) {
		return fmt.Errorf("apiserver: version %q is not of the form v1.32.0", v)
	}
	return nil
}

// newVersionInfo builds the /version body. A version that does not parse is reported as the
// gitVersion with empty major and minor (Options.Validate rejects it beforehand).
func newVersionInfo(v string) api.VersionInfo {
	info := api.VersionInfo{
		GitVersion: v, GitCommit: "0000000000000000000000000000000000000000", GitTreeState: "clean",
		BuildDate: "2026-01-01T00:00:00Z", GoVersion: runtime.Version(), Compiler: runtime.Compiler,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if m := versionPattern.FindStringSubmatch(v); m != nil {
		info.Major, info.Minor = m[1], m[2]
	}
	return info
}

var statusVerbs = []string{"get", "patch", "update"}

// groupVersions returns the served group-versions by group, the core group under "", each
// group's versions in sorted order (the first is the preferred one).
func (s *endpoints) groupVersions() (groups []string, versions map[string][]string) {
	return s.table.GroupVersions()
}

// served is a resource as one group-version serves it.
type served struct {
	ri  ResourceInfo
	res *resource
}

// resourcesOf returns the resources of one group-version, in registration order.
func (s *endpoints) resourcesOf(group, version string) []served {
	var out []served
	for _, r := range s.table.ByGV(group, version) {
		ri := r.Info
		ri.Version = version // a CRD's further served versions list its resource too
		out = append(out, served{ri, r})
	}
	return out
}

// hasFinalize reports whether the finalize subresource is served (namespaces).
func hasFinalize(res *resource) bool {
	_, ok := res.Strategy.(rest.FinalizeStrategy)
	return ok
}

// subresourcesOf lists a resource's subresources by name, as both discovery documents do:
// finalize, scale and status where the strategy has them, and the kind's further ones.
// A response kind in the resource's own group-version is left with an empty group and
// version in aggregated discovery, as the real built-ins send it; custom resources name it.
func subresourcesOf(ri ResourceInfo, res *resource) []rest.Subresource {
	var out []rest.Subresource
	own := api.GroupVersionKind{Kind: ri.Kind}
	if hasFinalize(res) {
		out = append(out, rest.Subresource{Name: "finalize", Kind: own, Verbs: []string{"update"}})
	}
	if res.Strategy.HasScale() {
		out = append(out, rest.Subresource{Name: "scale", Kind: scaleGVK, Verbs: statusVerbs})
	}
	if res.Strategy.HasStatus() {
		out = append(out, rest.Subresource{Name: "status", Kind: own, Verbs: statusVerbs})
	}
	out = append(out, res.Subresources...)
	slices.SortFunc(out, func(a, b rest.Subresource) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// responseKind is the kind discovery names for a (sub)resource of ri: the empty group and
// version of a built-in's own group-version stay empty, a custom resource's are filled in.
func responseKind(ri ResourceInfo, res *resource, k api.GroupVersionKind) *api.GroupVersionKind {
	own := k.Group == ri.Group && (k.Version == "" || k.Version == ri.Version)
	switch {
	case own && res.Builtin:
		k.Group, k.Version = "", ""
	case own:
		k.Group, k.Version = ri.Group, ri.Version
	}
	return &k
}

// storageVersionHash mirrors discovery.StorageVersionHash: the first 8 bytes of the SHA-256
// of "group/version/kind" of the storage version, in base64.
func storageVersionHash(gvk api.GroupVersionKind) string {
	sum := sha256.Sum256([]byte(gvk.Group + "/" + gvk.Version + "/" + gvk.Kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// storageVersionHashOf is the hash of a resource's storage version, or none for a REST
// storage that is not a generic store (StorageVersionProvider): the kinds that serve only
// some verbs (the reviews, bindings, componentstatuses) store nothing.
func storageVersionHashOf(res *resource) string {
	if res.OnlyVerbs != nil {
		return ""
	}
	return storageVersionHash(res.StorageGVK())
}

func legacyResources(infos []served) []api.APIResource {
	out := []api.APIResource{}
	for _, sv := range infos {
		ri, res := sv.ri, sv.res
		out = append(out, api.APIResource{
			Name: ri.Resource, SingularName: ri.Singular(), Namespaced: ri.Namespaced, Kind: ri.Kind,
			Verbs: res.DiscoveryVerbs(), ShortNames: ri.ShortNames, Categories: ri.Categories,
			StorageVersionHash: storageVersionHashOf(res),
		})
		for _, sr := range subresourcesOf(ri, res) {
			k := responseKind(ri, res, sr.Kind)
			out = append(out, api.APIResource{Name: ri.Resource + "/" + sr.Name, Namespaced: ri.Namespaced,
				Group: k.Group, Version: k.Version, Kind: k.Kind, Verbs: sr.Verbs})
		}
	}
	return out
}

func aggregatedResources(infos []served) []api.APIResourceDiscovery {
	out := []api.APIResourceDiscovery{}
	for _, sv := range infos {
		ri, res := sv.ri, sv.res
		scope := api.ScopeCluster
		if ri.Namespaced {
			scope = api.ScopeNamespace
		}
		d := api.APIResourceDiscovery{
			Resource: ri.Resource, ResponseKind: responseKind(ri, res, api.GroupVersionKind{Kind: ri.Kind}),
			Scope: scope, SingularResource: ri.Singular(),
			Verbs: res.DiscoveryVerbs(), ShortNames: ri.ShortNames, Categories: ri.Categories,
		}
		for _, sr := range subresourcesOf(ri, res) {
			d.Subresources = append(d.Subresources, api.APISubresourceDiscovery{
				Subresource: sr.Name, ResponseKind: responseKind(ri, res, sr.Kind), Verbs: sr.Verbs})
		}
		out = append(out, d)
	}
	return out
}

func groupVersion(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

func (s *endpoints) legacyGroup(group string, versions []string) api.APIGroup {
	g := api.APIGroup{Name: group}
	for _, v := range versions {
		g.Versions = append(g.Versions, api.GroupVersionForDiscovery{GroupVersion: groupVersion(group, v), Version: v})
	}
	g.PreferredVersion = g.Versions[0]
	return g
}

// aggregated builds the APIGroupDiscoveryList of /api (core) or /apis (every other group).
func (s *endpoints) aggregated(core bool, version string) api.APIGroupDiscoveryList {
	doc := api.APIGroupDiscoveryList{
		TypeMeta: api.TypeMeta{Kind: "APIGroupDiscoveryList", APIVersion: "apidiscovery.k8s.io/" + version},
		Items:    []api.APIGroupDiscovery{},
	}
	groups, versions := s.groupVersions()
	for _, g := range groups {
		if (g == "") != core {
			continue
		}
		item := api.APIGroupDiscovery{Metadata: api.ObjectMeta{Name: g}}
		for _, v := range versions[g] {
			item.Versions = append(item.Versions, api.APIVersionDiscovery{
				Version: v, Resources: aggregatedResources(s.resourcesOf(g, v)), Freshness: api.DiscoveryFreshnessCurrent,
			})
		}
		doc.Items = append(doc.Items, item)
	}
	return doc
}

// serveDiscovery answers /api, /apis, /api/v1, /apis/{group} and /apis/{group}/{version}. It
// reports false for any other path.
func (s *endpoints) serveDiscovery(w http.ResponseWriter, r *http.Request, path string) bool {
	groups, versions := s.groupVersions()
	served := func(g string) bool { _, ok := versions[g]; return ok }
	switch {
	case path == "/api" || path == "/apis":
		out, err := negotiation.Negotiate(r, negotiation.EndpointDiscovery)
		if err != nil {
			writeError(w, err)
			return true
		}
		core := path == "/api"
		if out.Shape == negotiation.DiscoveryList {
			writeDiscovery(w, out.ContentType(), s.aggregated(core, out.Version))
			return true
		}
		if core {
			writeDiscovery(w, "application/json", api.APIVersions{
				TypeMeta: api.TypeMeta{Kind: "APIVersions"}, Versions: versions[""],
				ServerAddressByClientCIDRs: []api.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}},
			})
			return true
		}
		list := api.APIGroupList{TypeMeta: api.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}, Groups: []api.APIGroup{}}
		for _, g := range groups {
			if g != "" {
				list.Groups = append(list.Groups, s.legacyGroup(g, versions[g]))
			}
		}
		writeDiscovery(w, "application/json", list)
		return true
	case path == "/api/v1" && served(""):
		return s.serveResourceList(w, r, "", "v1")
	case strings.HasPrefix(path, "/apis/"):
		parts := strings.Split(path[len("/apis/"):], "/")
		if !served(parts[0]) || parts[0] == "" {
			return false
		}
		switch len(parts) {
		case 1:
			if _, err := negotiation.Negotiate(r, negotiation.EndpointPlain); err != nil {
				writeError(w, err)
				return true
			}
			g := s.legacyGroup(parts[0], versions[parts[0]])
			g.Kind, g.APIVersion = "APIGroup", "v1"
			writeDiscovery(w, "application/json", g)
			return true
		case 2:
			for _, v := range versions[parts[0]] {
				if v == parts[1] {
					return s.serveResourceList(w, r, parts[0], v)
				}
			}
		}
	}
	return false
}

func (s *endpoints) serveResourceList(w http.ResponseWriter, r *http.Request, group, version string) bool {
	if _, err := negotiation.Negotiate(r, negotiation.EndpointPlain); err != nil {
		writeError(w, err)
		return true
	}
	list := api.APIResourceList{TypeMeta: api.TypeMeta{Kind: "APIResourceList"}, GroupVersion: groupVersion(group, version),
		APIResources: legacyResources(s.resourcesOf(group, version))}
	if group != "" {
		list.APIVersion = "v1"
	}
	writeDiscovery(w, "application/json", list)
	return true
}

func writeDiscovery(w http.ResponseWriter, contentType string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		writeError(w, api.NewInternalError(err))
		return
	}
	writeRawType(w, http.StatusOK, contentType, append(data, '\n'))
}

// serveVersion answers /version (K2).
func (s *endpoints) serveVersion(w http.ResponseWriter, r *http.Request) {
	if _, err := negotiation.Negotiate(r, negotiation.EndpointPlain); err != nil {
		writeError(w, err)
		return
	}
	writeDiscovery(w, "application/json", s.version)
}

// healthChecks are the checks /healthz?verbose lists. The simulator has no etcd and no
// post-start hooks: once New returns it is healthy, until Close.
var healthChecks = []string{"ping", "log", "etcd"}

// serveHealth answers /healthz, /livez and /readyz and their per-check paths
// (/readyz/ping): "ok" as text/plain, or every check with ?verbose. It reports false for an
// unknown check.
func serveHealth(w http.ResponseWriter, r *http.Request, path string) bool {
	endpoint, check, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if check != "" {
		found := false
		for _, c := range healthChecks {
			found = found || c == check
		}
		if !found {
			return false
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if _, verbose := r.URL.Query()["verbose"]; verbose && check == "" {
		var b strings.Builder
		for _, c := range healthChecks {
			b.WriteString("[+]" + c + " ok\n")
		}
		b.WriteString(endpoint + " check passed\n")
		_, _ = w.Write([]byte(b.String()))
		return true
	}
	_, _ = w.Write([]byte("ok"))
	return true
}

// isHealthPath reports whether path is one of the health endpoints (or a check below one).
func isHealthPath(path string) bool {
	for _, p := range []string{"/healthz", "/livez", "/readyz"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// servesSubresource says which subresources a resource has: status and scale where its
// strategy has them, finalize where it has a finalize strategy (namespaces).
func servesSubresource(res *resource, sub string) bool {
	if _, ok := res.Subresource(sub); ok {
		return true
	}
	switch sub {
	case "status":
		return res.Strategy.HasStatus()
	case "finalize":
		return hasFinalize(res)
	case "scale":
		return res.Strategy.HasScale()
	}
	return false
}

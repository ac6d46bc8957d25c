package api

// The discovery documents on the wire (docs/behaviour/wire.md K2, K4, K5), shared by the simulated
// apiserver, which writes them, and client/discovery, which reads them. The legacy ones
// mirror the metav1 types in apimachinery pkg/apis/meta/v1/types.go; the aggregated ones
// mirror k8s.io/api/apidiscovery/v2. JSON names follow the real API, so the client decodes
// what a real kube-apiserver sends.

// VersionInfo mirrors version.Info in apimachinery pkg/version: the body of GET /version.
type VersionInfo struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit"`
	GitTreeState string `json:"gitTreeState"`
	BuildDate    string `json:"buildDate"`
	GoVersion    string `json:"goVersion"`
	Compiler     string `json:"compiler"`
	Platform     string `json:"platform"`
}

// String mirrors Info.String: the git version, e.g. "v1.32.0".
func (i VersionInfo) String() string { return i.GitVersion }

// APIVersions mirrors metav1.APIVersions: the legacy answer of GET /api.
type APIVersions struct {
	TypeMeta                   `json:",inline"`
	Versions                   []string                    `json:"versions"`
	ServerAddressByClientCIDRs []ServerAddressByClientCIDR `json:"serverAddressByClientCIDRs"`
}

// ServerAddressByClientCIDR mirrors metav1.ServerAddressByClientCIDR.
type ServerAddressByClientCIDR struct {
	ClientCIDR    string `json:"clientCIDR"`
	ServerAddress string `json:"serverAddress"`
}

// APIGroupList mirrors metav1.APIGroupList: the legacy answer of GET /apis.
type APIGroupList struct {
	TypeMeta `json:",inline"`
	Groups   []APIGroup `json:"groups"`
}

// APIGroup mirrors metav1.APIGroup: a group, its versions and the version clients should
// prefer. The core group has the empty name.
type APIGroup struct {
	TypeMeta         `json:",inline"`
	Name             string                     `json:"name"`
	Versions         []GroupVersionForDiscovery `json:"versions"`
	PreferredVersion GroupVersionForDiscovery   `json:"preferredVersion,omitempty"`
}

// GroupVersionForDiscovery mirrors metav1.GroupVersionForDiscovery: "apps/v1" and "v1".
type GroupVersionForDiscovery struct {
	GroupVersion string `json:"groupVersion"`
	Version      string `json:"version"`
}

// APIResourceList mirrors metav1.APIResourceList: the resources of one group-version,
// the answer of GET /api/v1 or /apis/{group}/{version}.
type APIResourceList struct {
	TypeMeta     `json:",inline"`
	GroupVersion string        `json:"groupVersion"`
	APIResources []APIResource `json:"resources"`
}

// APIResource mirrors metav1.APIResource: one resource or subresource ("pods/status"). Group
// and Version are set only when they differ from the list's group-version.
type APIResource struct {
	Name         string   `json:"name"`
	SingularName string   `json:"singularName"`
	Namespaced   bool     `json:"namespaced"`
	Group        string   `json:"group,omitempty"`
	Version      string   `json:"version,omitempty"`
	Kind         string   `json:"kind"`
	Verbs        []string `json:"verbs"`
	ShortNames   []string `json:"shortNames,omitempty"`
	Categories   []string `json:"categories,omitempty"`
	// StorageVersionHash identifies the version objects are stored in: equal hashes mean
	// the same storage (core and events.k8s.io Events, both HorizontalPodAutoscaler versions).
	StorageVersionHash string `json:"storageVersionHash,omitempty"`
}

// APIGroupDiscoveryList mirrors apidiscovery/v2 APIGroupDiscoveryList: the aggregated answer
// of /api or /apis, every group with its versions and resources in one document (K5).
type APIGroupDiscoveryList struct {
	TypeMeta `json:",inline"`
	Metadata ListMeta            `json:"metadata"`
	Items    []APIGroupDiscovery `json:"items"`
}

// APIGroupDiscovery mirrors apidiscovery/v2 APIGroupDiscovery: metadata.name is the group
// ("" for the core group).
type APIGroupDiscovery struct {
	TypeMeta `json:",inline"`
	Metadata ObjectMeta            `json:"metadata"`
	Versions []APIVersionDiscovery `json:"versions"`
}

// APIVersionDiscovery mirrors apidiscovery/v2 APIVersionDiscovery. Versions come in
// preference order.
type APIVersionDiscovery struct {
	Version   string                 `json:"version"`
	Resources []APIResourceDiscovery `json:"resources"`
	Freshness string                 `json:"freshness,omitempty"`
}

// Freshness of an APIVersionDiscovery.
const (
	// DiscoveryFreshnessCurrent mirrors apidiscovery.DiscoveryFreshnessCurrent.
	DiscoveryFreshnessCurrent = "Current"
	// DiscoveryFreshnessStale mirrors apidiscovery.DiscoveryFreshnessStale: an aggregated
	// apiserver the main server could not reach; its group-version counts as failed.
	DiscoveryFreshnessStale = "Stale"
)

// Scopes of APIResourceDiscovery.
const (
	// ScopeNamespace mirrors apidiscovery.ScopeNamespace.
	ScopeNamespace = "Namespaced"
	// ScopeCluster mirrors apidiscovery.ScopeCluster.
	ScopeCluster = "Cluster"
)

// APIResourceDiscovery mirrors apidiscovery/v2 APIResourceDiscovery.
type APIResourceDiscovery struct {
	Resource         string                    `json:"resource"`
	ResponseKind     *GroupVersionKind         `json:"responseKind,omitempty"`
	Scope            string                    `json:"scope"`
	SingularResource string                    `json:"singularResource"`
	Verbs            []string                  `json:"verbs"`
	ShortNames       []string                  `json:"shortNames,omitempty"`
	Categories       []string                  `json:"categories,omitempty"`
	Subresources     []APISubresourceDiscovery `json:"subresources,omitempty"`
}

// APISubresourceDiscovery mirrors apidiscovery/v2 APISubresourceDiscovery.
type APISubresourceDiscovery struct {
	Subresource  string            `json:"subresource"`
	ResponseKind *GroupVersionKind `json:"responseKind,omitempty"`
	Verbs        []string          `json:"verbs"`
}

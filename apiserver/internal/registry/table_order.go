package registry

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The order discovery lists groups and versions in, as a default kube-apiserver does.

// builtinGroupOrder is the order of the built-in groups in a default kube-apiserver v1.36's
// discovery: kube-aggregator sorts APIServices by groupPriorityMinimum, highest first, and
// the built-in groups' priorities give this list (apiserver/testdata/reference pins it).
// Other groups (custom resources, priority 1000) follow, by name.
var builtinGroupOrder = []string{
	"", "apiregistration.k8s.io", "apps", "events.k8s.io", "authentication.k8s.io",
	"authorization.k8s.io", "autoscaling", "batch", "certificates.k8s.io", "networking.k8s.io",
	"policy", "rbac.authorization.k8s.io", "storage.k8s.io", "admissionregistration.k8s.io",
	"apiextensions.k8s.io", "scheduling.k8s.io", "coordination.k8s.io", "node.k8s.io",
	"discovery.k8s.io", "resource.k8s.io", "flowcontrol.apiserver.k8s.io",
}

// groupRank is a group's place in discovery: its index in builtinGroupOrder, or after all
// of them (groups of equal rank keep their sorted order).
func groupRank(g string) int {
	if i := slices.Index(builtinGroupOrder, g); i >= 0 {
		return i
	}
	return len(builtinGroupOrder)
}

// GroupVersions returns the served group-versions by group, the core group under "", each
// group's versions in discovery order (the first is the preferred one).
func (t *Table) GroupVersions() (groups []string, versions map[string][]string) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	versions = map[string][]string{}
	for _, gv := range sortedKeys(t.byGV) {
		g, v, _ := strings.Cut(gv, "/")
		if _, seen := versions[g]; !seen {
			groups = append(groups, g)
		}
		versions[g] = append(versions[g], v)
	}
	slices.SortStableFunc(groups, func(a, b string) int { return groupRank(a) - groupRank(b) })
	for _, vs := range versions {
		slices.SortStableFunc(vs, func(a, b string) int {
			switch {
			case VersionLess(a, b):
				return -1
			case VersionLess(b, a):
				return 1
			}
			return 0
		})
	}
	return groups, versions
}

// kubeVersion is the form of a Kubernetes API version: v<major>[(alpha|beta)<minor>].
var kubeVersion = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// VersionLess orders versions as discovery lists them, the preferred one first (the
// CompareKubeAwareVersionStrings order of k8s.io/apimachinery): GA before beta before alpha,
// higher numbers first, and versions of another form after them in string order.
func VersionLess(a, b string) bool {
	ma, mb := kubeVersion.FindStringSubmatch(a), kubeVersion.FindStringSubmatch(b)
	switch {
	case ma == nil && mb == nil:
		return a < b
	case ma == nil || mb == nil:
		return mb == nil
	}
	rank := func(m []string) (int, int, int) {
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[3])
		level := map[string]int{"": 2, "beta": 1, "alpha": 0}[m[2]]
		return level, major, minor
	}
	la, xa, na := rank(ma)
	lb, xb, nb := rank(mb)
	if la != lb {
		return la > lb
	}
	if xa != xb {
		return xa > xb
	}
	return na > nb
}

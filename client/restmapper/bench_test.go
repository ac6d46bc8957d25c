package restmapper_test

import (
	"strings"
	"testing"

	"github.com/informer-lab/informer-lab/api"

	"github.com/informer-lab/informer-lab/client/restmapper"
)

// BenchmarkMappingFor resolves a short name among 50 group-versions of 10 resources each,
// about the size of a small real cluster's discovery.
func BenchmarkMappingFor(b *testing.B) {
	var groups []*restmapper.APIGroupResources
	for g := 0; g < 50; g++ {
		name := "group" + string(rune('a'+g%26)) + string(rune('a'+g/26)) + ".example.dev"
		var res []api.APIResource
		for r := 0; r < 10; r++ {
			kind := "Kind" + string(rune('A'+r)) + string(rune('A'+g%26))
			lower := strings.ToLower(kind)
			res = append(res, api.APIResource{Name: "res" + lower, Kind: kind, Namespaced: true, ShortNames: []string{"s" + lower}})
		}
		gv := api.GroupVersionForDiscovery{GroupVersion: name + "/v1", Version: "v1"}
		groups = append(groups, &restmapper.APIGroupResources{
			Group:              api.APIGroup{Name: name, Versions: []api.GroupVersionForDiscovery{gv}, PreferredVersion: gv},
			VersionedResources: map[string][]api.APIResource{"v1": res},
		})
	}
	m := restmapper.NewDiscoveryRESTMapper(groups)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.MappingFor("skindjz"); err != nil {
			b.Fatal(err)
		}
	}
}

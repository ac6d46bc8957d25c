package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
)

var podsResource = api.GroupResource{Resource: "pods"}

func listerFixture(t *testing.T, withNamespaceIndex bool) Indexer {
	t.Helper()
	indexers := Indexers{}
	if withNamespaceIndex {
		indexers[NamespaceIndex] = MetaNamespaceIndexFunc
	}
	idx := NewIndexer(MetaNamespaceKeyFunc, indexers)
	for _, p := range []*api.Pod{
		pod("ns1", "web-1", "1", map[string]string{"app": "web"}),
		pod("ns1", "db-1", "2", map[string]string{"app": "db"}),
		pod("ns2", "web-2", "3", map[string]string{"app": "web"}),
		pod("ns2", "bare", "4", nil),
	} {
		require.NoError(t, idx.Add(p))
	}
	return idx
}

func names[T api.Object](objs []T) []string {
	var out []string
	for _, o := range objs {
		m, _ := api.Accessor(o)
		out = append(out, m.GetNamespace()+"/"+m.GetName())
	}
	return out
}

func mustParse(t *testing.T, s string) labels.Selector {
	t.Helper()
	sel, err := labels.Parse(s)
	require.NoError(t, err)
	return sel
}

// L-1 and L-2: selectors, namespaces, and the full-scan fallback without the namespace index.
func TestCh03_L1_L2_ListAll(t *testing.T) {
	tests := []struct {
		name      string
		namespace string
		selector  string
		nothing   bool
		want      []string
	}{
		{name: "everything", selector: "", want: []string{"ns1/web-1", "ns1/db-1", "ns2/web-2", "ns2/bare"}},
		{name: "nothing", nothing: true, want: nil},
		{name: "label match", selector: "app=web", want: []string{"ns1/web-1", "ns2/web-2"}},
		{name: "does not exist", selector: "!app", want: []string{"ns2/bare"}},
		{name: "one namespace", namespace: "ns1", selector: "", want: []string{"ns1/web-1", "ns1/db-1"}},
		{name: "namespace and label", namespace: "ns2", selector: "app in (web,db)", want: []string{"ns2/web-2"}},
		{name: "missing namespace", namespace: "nope", selector: "", want: nil},
		{name: "nothing in a namespace", namespace: "ns1", nothing: true, want: nil},
	}
	for _, withIndex := range []bool{true, false} {
		idx := listerFixture(t, withIndex)
		for _, tc := range tests {
			t.Run(fmt.Sprintf("namespaceIndex=%v/%s", withIndex, tc.name), func(t *testing.T) {
				sel := labels.Nothing()
				if !tc.nothing {
					sel = mustParse(t, tc.selector)
				}
				var got []string
				err := ListAllByNamespace(idx, tc.namespace, sel, func(obj any) {
					got = append(got, obj.(*api.Pod).Namespace+"/"+obj.(*api.Pod).Name)
				})
				require.NoError(t, err)
				assert.ElementsMatch(t, tc.want, got)

				typed, err := NewResourceIndexer[*api.Pod](idx, podsResource).ByNamespace(tc.namespace).List(sel)
				require.NoError(t, err)
				assert.ElementsMatch(t, tc.want, names(typed))
			})
		}
	}
}

// L-3: Get looks up name (cluster-scoped) or ns/name, and a miss is a NotFound Status.
func TestCh03_L3_ListerGet(t *testing.T) {
	idx := listerFixture(t, true)
	require.NoError(t, idx.Add(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "ns1"}}))

	pods := NewResourceIndexer[*api.Pod](idx, podsResource)
	p, err := pods.ByNamespace("ns1").Get("web-1")
	require.NoError(t, err)
	assert.Equal(t, "1", p.ResourceVersion)

	_, err = pods.ByNamespace("ns1").Get("web-2")
	require.True(t, api.IsNotFound(err))
	assert.EqualError(t, err, `pods "web-2" not found`)

	nss := NewResourceIndexer[*api.Namespace](idx, api.GroupResource{Resource: "namespaces"})
	ns, err := nss.Get("ns1")
	require.NoError(t, err)
	assert.Equal(t, "ns1", ns.Name)

	_, err = NewResourceIndexer[*api.ConfigMap](idx, api.GroupResource{Resource: "configmaps"}).ByNamespace("ns1").Get("web-1")
	assert.ErrorContains(t, err, "is a *api.Pod", "a lister over the wrong kind reports it")

	generic := NewGenericLister(idx, podsResource)
	obj, err := generic.ByNamespace("ns2").Get("bare")
	require.NoError(t, err)
	assert.Equal(t, "bare", obj.(*api.Pod).Name)
	_, err = generic.Get("ns1") // cluster-scoped lookup finds the Namespace object
	require.NoError(t, err)
	all, err := generic.List(labels.Everything())
	require.NoError(t, err)
	assert.Len(t, all, 5)
	inNS, err := generic.ByNamespace("ns1").List(mustParse(t, "app=db"))
	require.NoError(t, err)
	assert.Equal(t, []string{"ns1/db-1"}, names(inNS))
}

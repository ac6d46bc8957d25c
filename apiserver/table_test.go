package apiserver

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// kubectlTableAccept is the Accept header kubectl get sends (K7).
const kubectlTableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

// wireTable decodes a Table as kubectl sees it.
type wireTable struct {
	Kind       string `json:"kind"`
	APIVersion string `json:"apiVersion"`
	Metadata   struct {
		ResourceVersion    string `json:"resourceVersion"`
		Continue           string `json:"continue"`
		RemainingItemCount *int64 `json:"remainingItemCount"`
	} `json:"metadata"`
	ColumnDefinitions []api.TableColumnDefinition `json:"columnDefinitions"`
	Rows              []struct {
		Cells      []any                   `json:"cells"`
		Conditions []api.TableRowCondition `json:"conditions"`
		Object     json.RawMessage         `json:"object"`
	} `json:"rows"`
}

func (tb wireTable) columnNames() []string {
	var out []string
	for _, c := range tb.ColumnDefinitions {
		out = append(out, c.Name)
	}
	return out
}

// TestCh01_K7_TableList checks K7, K15 and R6 over HTTP: kubectl's Accept gets a Table whose
// metadata carries the list RV, with the Content-Type application/json as the reference sends (N4); an empty list has rows [].
func TestCh01_K7_TableList(t *testing.T) {
	s, c := newServer(t, Options{})
	r := c.do("GET", "/api/v1/namespaces/default/pods?limit=500", nil, "Accept", kubectlTableAccept)
	require.Equal(t, 200, r.code, "%s", r.body)
	assert.Equal(t, "application/json", r.header.Get("Content-Type"), "the reference names no as= parameters")
	assert.Contains(t, string(r.body), `"rows":[]`, "T1: an empty Table still has rows")

	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}, Data: map[string]string{"k": "v"}})
	var tb wireTable
	r = c.do("GET", "/api/v1/namespaces/default/pods", nil, "Accept", kubectlTableAccept)
	r.decode(t, &tb)
	assert.Equal(t, "Table", tb.Kind)
	assert.Equal(t, "meta.k8s.io/v1", tb.APIVersion)
	assert.Equal(t, rvString(s), tb.Metadata.ResourceVersion, "R6: the list RV, not the newest item's")
	assert.Equal(t, []string{"Name", "Ready", "Status", "Restarts", "Age", "IP", "Node", "Nominated Node", "Readiness Gates"}, tb.columnNames())
	require.Len(t, tb.Rows, 1)
	assert.Equal(t, []any{"a", "0/1", "Pending", "0"}, tb.Rows[0].Cells[:4])
	assert.Regexp(t, regexp.MustCompile(`^\d+s$`), tb.Rows[0].Cells[4])
	assert.Contains(t, string(tb.Rows[0].Object), `"kind":"PartialObjectMetadata"`)

	for path, cols := range map[string][]string{
		"/api/v1/namespaces/default/configmaps": {"Name", "Data", "Age"},
		"/api/v1/namespaces":                    {"Name", "Status", "Age"},
	} {
		var tb wireTable
		c.do("GET", path, nil, "Accept", kubectlTableAccept).decode(t, &tb)
		assert.Equal(t, cols, tb.columnNames(), path)
	}
	var nsTable wireTable
	c.do("GET", "/api/v1/namespaces", nil, "Accept", kubectlTableAccept).decode(t, &nsTable)
	require.Len(t, nsTable.Rows, 3)
	assert.Equal(t, []any{"default", "Active"}, nsTable.Rows[0].Cells[:2])

	// v1beta1 alone gets a v1beta1 Table.
	r = c.do("GET", "/api/v1/namespaces", nil, "Accept", "application/json;as=Table;v=v1beta1;g=meta.k8s.io")
	r.decode(t, &tb)
	assert.Equal(t, "meta.k8s.io/v1beta1", tb.APIVersion)
}

// TestCh01_K8_TablePaging checks K8: with --chunk-size the Table's metadata.continue carries
// the token, every page has the first page's RV and remainingItemCount counts down.
func TestCh01_K8_TablePaging(t *testing.T) {
	s, c := newServer(t, Options{})
	for _, n := range []string{"a", "b", "c"} {
		mustCreate(t, s, "pods", "default", pod("default", n, nil))
	}
	path := "/api/v1/namespaces/default/pods?limit=1"
	var names []string
	var rvs []string
	for page := 0; page < 5; page++ {
		var tb wireTable
		c.do("GET", path, nil, "Accept", kubectlTableAccept).decode(t, &tb)
		require.Len(t, tb.Rows, 1)
		names = append(names, tb.Rows[0].Cells[0].(string))
		rvs = append(rvs, tb.Metadata.ResourceVersion)
		if page == 0 {
			require.NotNil(t, tb.Metadata.RemainingItemCount)
			assert.Equal(t, int64(2), *tb.Metadata.RemainingItemCount)
			mustCreate(t, s, "pods", "default", pod("default", "b2", nil)) // not in this snapshot
		}
		if tb.Metadata.Continue == "" {
			break
		}
		path = "/api/v1/namespaces/default/pods?limit=1&continue=" + tb.Metadata.Continue
	}
	assert.Equal(t, []string{"a", "b", "c"}, names)
	assert.Equal(t, []string{rvs[0], rvs[0], rvs[0]}, rvs)
}

// TestCh01_TableGet checks a Table for one object: one row, the object's RV.
func TestCh01_TableGet(t *testing.T) {
	s, c := newServer(t, Options{})
	created := mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	var tb wireTable
	r := c.do("GET", "/api/v1/namespaces/default/pods/a", nil, "Accept", kubectlTableAccept)
	require.Equal(t, 200, r.code)
	r.decode(t, &tb)
	assert.Equal(t, rvOf(t, created), tb.Metadata.ResourceVersion)
	require.Len(t, tb.Rows, 1)
	assert.Equal(t, "a", tb.Rows[0].Cells[0])
	assert.Len(t, tb.ColumnDefinitions, 9)

	r = c.do("GET", "/api/v1/namespaces/default/pods/a?includeObject=Object", nil, "Accept", kubectlTableAccept)
	r.decode(t, &tb)
	assert.Contains(t, string(tb.Rows[0].Object), `"kind":"Pod"`)
}

// TestCh01_W21_TableWatch checks W21 and K9: a Table watch sends one-row Tables, column
// definitions only in the first event, each Table carrying the object's RV; the stream
// itself stays application/json; ERROR events stay Statuses.
func TestCh01_W21_TableWatch(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	st := c.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion="+rvString(s), "Accept", kubectlTableAccept)
	assert.Equal(t, "application/json", st.resp.Header.Get("Content-Type"))
	b := mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	a2 := setLabels(t, s, "default", "a", map[string]string{"x": "1"})
	_, err := s.Delete(context.Background(), "pods", "default", "b", nil)
	require.NoError(t, err)

	want := []struct {
		typ, name, rv string
		headers       bool
	}{
		{"ADDED", "b", rvOf(t, b), true},
		{"MODIFIED", "a", rvOf(t, a2), false},
		{"DELETED", "b", rvString(s), false},
	}
	for _, w := range want {
		ev := st.next()
		var tb wireTable
		require.NoError(t, json.Unmarshal(ev.Object, &tb))
		assert.Equal(t, w.typ, ev.Type)
		assert.Equal(t, "Table", tb.Kind)
		assert.Equal(t, w.rv, tb.Metadata.ResourceVersion)
		require.Len(t, tb.Rows, 1)
		assert.Equal(t, w.name, tb.Rows[0].Cells[0])
		assert.Equal(t, w.headers, tb.ColumnDefinitions != nil, "%s: column definitions", w.typ)
		if !w.headers {
			assert.Contains(t, string(ev.Object), `"columnDefinitions":null`)
		}
	}

	// A compacted start RV: the ERROR event is a Status, not a Table.
	s.CompactAll()
	old := c.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=1", "Accept", kubectlTableAccept)
	ev := old.next()
	assert.Equal(t, "ERROR", ev.Type)
	kind, _, _, _, _ := ev.meta(t)
	assert.Equal(t, "Status", kind)
}

// TestCh01_K9_TableWatchSingleObject checks the watch of kubectl get pod x -w: RV 0 and a
// metadata.name field selector give the synthetic ADDED first (R10), as a Table.
func TestCh01_K9_TableWatchSingleObject(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "x", nil))
	mustCreate(t, s, "pods", "default", pod("default", "y", nil))
	st := c.watch("/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dx&resourceVersion=0&watch=true", "Accept", kubectlTableAccept)
	setLabels(t, s, "default", "y", map[string]string{"a": "b"})
	setLabels(t, s, "default", "x", map[string]string{"a": "b"})
	var got []string
	for range 2 {
		ev := st.next()
		var tb wireTable
		require.NoError(t, json.Unmarshal(ev.Object, &tb))
		got = append(got, ev.Type+" "+tb.Rows[0].Cells[0].(string)+"@"+tb.Metadata.ResourceVersion)
	}
	assert.Equal(t, []string{"ADDED x@4", "MODIFIED x@" + rvString(s)}, got)
}

// TestCh01_E43_IncludeObject checks E43 and the valid includeObject values over HTTP.
func TestCh01_E43_IncludeObject(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	r := c.do("GET", "/api/v1/pods?includeObject=bogus", nil, "Accept", kubectlTableAccept)
	require.Equal(t, 400, r.code)
	st := r.status(t)
	assert.Equal(t, api.StatusReasonBadRequest, st.Reason)
	assert.Equal(t, `Unable to convert to Table as requested: includeObject: Invalid value: "bogus": must be 'Metadata', 'Object', 'None', or empty`, st.Message)
	// The same on a watch, before the stream starts (W2).
	r = c.do("GET", "/api/v1/pods?watch=1&includeObject=bogus", nil, "Accept", kubectlTableAccept)
	assert.Equal(t, 400, r.code)
	// Without a Table request the parameter is not looked at.
	assert.Equal(t, 200, c.get("/api/v1/pods?includeObject=bogus").code)

	for include, want := range map[string]string{"None": "", "Metadata": "PartialObjectMetadata", "Object": "Pod"} {
		var tb wireTable
		c.do("GET", "/api/v1/pods?includeObject="+include, nil, "Accept", kubectlTableAccept).decode(t, &tb)
		require.Len(t, tb.Rows, 1)
		var o struct{ Kind string }
		if want != "" {
			require.NoError(t, json.Unmarshal(tb.Rows[0].Object, &o))
		} else {
			assert.Empty(t, tb.Rows[0].Object)
		}
		assert.Equal(t, want, o.Kind, include)
	}
}

// TestCh01_N4_PartialObjectMetadata checks N4's metadata-only requests (the metadata
// client, CG2): a PartialObjectMetadataList for a list, PartialObjectMetadata for a get and
// for each watch event, the object's metadata unchanged.
func TestCh01_N4_PartialObjectMetadata(t *testing.T) {
	s, c := newServer(t, Options{})
	a := mustCreate(t, s, "pods", "default", pod("default", "a", map[string]string{"app": "x"}))
	const listAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
	const objAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	r := c.do("GET", "/api/v1/pods", nil, "Accept", listAccept)
	require.Equal(t, 200, r.code)
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	var list struct {
		Kind     string `json:"kind"`
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
		Items []api.PartialObjectMetadata `json:"items"`
	}
	r.decode(t, &list)
	assert.Equal(t, "PartialObjectMetadataList", list.Kind)
	assert.Equal(t, rvString(s), list.Metadata.ResourceVersion)
	require.Len(t, list.Items, 1)
	want := api.PartialObjectMetadata{TypeMeta: api.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"},
		ObjectMeta: a.(*api.Pod).ObjectMeta}
	if diff := cmp.Diff(want, list.Items[0]); diff != "" {
		t.Errorf("item (-want +got):\n%s", diff)
	}
	var one api.PartialObjectMetadata
	c.do("GET", "/api/v1/namespaces/default/pods/a", nil, "Accept", objAccept).decode(t, &one)
	assert.Equal(t, want, one)

	st := c.watch("/api/v1/pods?watch=1&resourceVersion="+rvString(s), "Accept", objAccept)
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	kind, av, name, _, _ := st.next().meta(t)
	assert.Equal(t, []string{"PartialObjectMetadata", "meta.k8s.io/v1", "b"}, []string{kind, av, name})
}

// TestCh01_TableRegisteredKind checks the NAME AGE default for a registered kind.
func TestCh01_TableRegisteredKind(t *testing.T) {
	s, c := newServer(t, Options{Resources: []ResourceInfo{fooResource}})
	r := c.do("POST", "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos", `{"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","metadata":{"name":"web"}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	var tb wireTable
	c.do("GET", "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos", nil, "Accept", kubectlTableAccept).decode(t, &tb)
	assert.Equal(t, []string{"Name", "Age"}, tb.columnNames())
	require.Len(t, tb.Rows, 1)
	assert.Equal(t, "web", tb.Rows[0].Cells[0])
	assert.Equal(t, rvString(s), tb.Metadata.ResourceVersion)
	_, err := strconv.Atoi(tb.Metadata.ResourceVersion)
	assert.NoError(t, err)
}

package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/continuetoken"
)

// wireList is a decoded list response.
type wireList struct {
	Kind       string `json:"kind"`
	APIVersion string `json:"apiVersion"`
	Metadata   struct {
		ResourceVersion    string `json:"resourceVersion"`
		Continue           string `json:"continue"`
		RemainingItemCount *int64 `json:"remainingItemCount"`
	} `json:"metadata"`
	Items []struct {
		Metadata struct {
			Name            string `json:"name"`
			Namespace       string `json:"namespace"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	} `json:"items"`
}

func (l wireList) names() []string {
	out := []string{}
	for _, it := range l.Items {
		out = append(out, objectKey(it.Metadata.Namespace, it.Metadata.Name))
	}
	return out
}

func (c *client) list(t *testing.T, path string) wireList {
	t.Helper()
	r := c.get(path)
	require.Equal(t, 200, r.code, "body: %s", r.body)
	var l wireList
	r.decode(t, &l)
	return l
}

// TestCh01_GlobalResourceVersion checks 0.1, 0.4 and H-1: one counter for every resource,
// each object carrying the RV of its last write, a list carrying the store revision.
func TestCh01_GlobalResourceVersion(t *testing.T) {
	s, c := newServer(t, Options{})
	start := s.ResourceVersion()
	p := mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	cm := mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c"}})
	p.(*api.Pod).Labels = map[string]string{"x": "y"}
	p2, err := s.Update(context.Background(), "pods", "default", p)
	require.NoError(t, err)
	assert.Equal(t, strconv.FormatUint(start+1, 10), rvOf(t, p))
	assert.Equal(t, strconv.FormatUint(start+2, 10), rvOf(t, cm))
	assert.Equal(t, strconv.FormatUint(start+3, 10), rvOf(t, p2))

	l := c.list(t, "/api/v1/namespaces/default/configmaps")
	assert.Equal(t, strconv.FormatUint(start+3, 10), l.Metadata.ResourceVersion, "0.4: list RV is the store revision")
	assert.Equal(t, strconv.FormatUint(start+2, 10), l.Items[0].Metadata.ResourceVersion)
}

// TestCh01_ListShape checks L1: kind, apiVersion, metadata.resourceVersion, and items that
// are [] when empty, never null.
func TestCh01_ListShape(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.get("/api/v1/namespaces/nowhere/pods")
	require.Equal(t, 200, r.code, "U8: a list in a missing namespace is an empty list")
	assert.JSONEq(t, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"3"},"items":[]}`, string(r.body))
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
}

// TestCh01_KeyOrder checks 0.6: namespace/name byte order, cluster-scoped by name.
func TestCh01_KeyOrder(t *testing.T) {
	s, c := newServer(t, Options{})
	for _, ns := range []string{"b", "a-b", "a"} {
		mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}})
		for _, n := range []string{"z", "m", "a"} {
			mustCreate(t, s, "pods", ns, pod(ns, n, nil))
		}
	}
	l := c.list(t, "/api/v1/pods")
	assert.Equal(t, []string{"a-b/a", "a-b/m", "a-b/z", "a/a", "a/m", "a/z", "b/a", "b/m", "b/z"}, l.names())
	assert.Equal(t, []string{"a", "a-b", "b", "default", "kube-public", "kube-system"}, c.list(t, "/api/v1/namespaces").names())
	assert.Equal(t, []string{"a/a", "a/m", "a/z"}, c.list(t, "/api/v1/namespaces/a/pods").names(), "W15/L: one namespace only")
}

// TestCh01_ListResourceVersionSemantics is the L3 table (H-2), with L4, L5 and L9.
func TestCh01_ListResourceVersionSemantics(t *testing.T) {
	s, c := newServer(t, Options{TooLargeResourceVersionWait: -1})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	rvA := s.ResourceVersion()
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	mustCreate(t, s, "pods", "default", pod("default", "c", nil))
	cur := s.ResourceVersion()
	a := strconv.FormatUint(rvA, 10)

	tests := []struct {
		name  string
		query string
		want  []string
		rv    uint64
		cont  bool
	}{
		{"unset: most recent", "", []string{"default/a", "default/b", "default/c"}, cur, false},
		{"0: any (current), L9 limit ignored", "?resourceVersion=0&limit=1", []string{"default/a", "default/b", "default/c"}, cur, false},
		{"N without limit: not older than N", "?resourceVersion=" + a, []string{"default/a", "default/b", "default/c"}, cur, false},
		{"N with limit: exact N", "?resourceVersion=" + a + "&limit=5", []string{"default/a"}, rvA, false},
		{"Exact N", "?resourceVersion=" + a + "&resourceVersionMatch=Exact", []string{"default/a"}, rvA, false},
		{"NotOlderThan N with limit: current", "?resourceVersion=" + a + "&resourceVersionMatch=NotOlderThan&limit=5", []string{"default/a", "default/b", "default/c"}, cur, false},
		{"unset with limit: most recent, paged", "?limit=2", []string{"default/a", "default/b"}, cur, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := c.list(t, "/api/v1/namespaces/default/pods"+tt.query)
			assert.Equal(t, tt.want, l.names())
			assert.Equal(t, strconv.FormatUint(tt.rv, 10), l.Metadata.ResourceVersion)
			assert.Equal(t, tt.cont, l.Metadata.Continue != "")
		})
	}

	t.Run("L4 too large RV: 504 with cause and Retry-After", func(t *testing.T) {
		r := c.get(fmt.Sprintf("/api/v1/namespaces/default/pods?resourceVersion=%d", cur+10))
		require.Equal(t, 504, r.code)
		st := r.status(t)
		assert.Equal(t, api.StatusReasonTimeout, st.Reason)
		assert.Equal(t, fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", cur+10, cur), st.Message)
		require.Len(t, st.Details.Causes, 1)
		assert.Equal(t, api.CauseTypeResourceVersionTooLarge, st.Details.Causes[0].Type)
		assert.Equal(t, "1", r.header.Get("Retry-After"))
	})
	t.Run("L5 exact at a compacted RV: 410 Expired", func(t *testing.T) {
		s.Compact(cur)
		r := c.get("/api/v1/namespaces/default/pods?resourceVersionMatch=Exact&resourceVersion=" + a)
		require.Equal(t, 410, r.code, "body: %s", r.body)
		st := r.status(t)
		assert.Equal(t, api.StatusReasonExpired, st.Reason)
		assert.Equal(t, "The resourceVersion for the provided list is too old.", st.Message)
	})
}

// TestCh01_ListWaitsForFutureRV checks L4's wait: a list from a future RV is answered once a
// write reaches it.
func TestCh01_ListWaitsForFutureRV(t *testing.T) {
	s, c := newServer(t, Options{TooLargeResourceVersionWait: 30e9})
	want := s.ResourceVersion() + 1
	done := make(chan wireList)
	go func() {
		r := c.hcGet(fmt.Sprintf("/api/v1/pods?resourceVersion=%d", want))
		var l wireList
		_ = json.Unmarshal(r, &l)
		done <- l
	}()
	// The list can only finish once the write below happened, whatever the scheduling.
	mustCreate(t, s, "pods", "default", pod("default", "late", nil))
	l := <-done
	assert.Equal(t, strconv.FormatUint(want, 10), l.Metadata.ResourceVersion)
	assert.Equal(t, []string{"default/late"}, l.names())
}

// hcGet is a goroutine-safe GET returning the body only.
func (c *client) hcGet(path string) []byte {
	resp, err := c.hc.Get(c.base + path)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			return b
		}
	}
}

// TestCh01_PagingConsistentSnapshot checks L7, L8, L10, L13 and T3: every page is served at
// the first page's RV, even with creates, updates and deletes between pages.
func TestCh01_PagingConsistentSnapshot(t *testing.T) {
	s, c := newServer(t, Options{})
	for _, n := range []string{"p1", "p2", "p3", "p4", "p5"} {
		mustCreate(t, s, "pods", "default", pod("default", n, nil))
	}
	snap := s.ResourceVersion()

	p1 := c.list(t, "/api/v1/namespaces/default/pods?limit=2")
	assert.Equal(t, []string{"default/p1", "default/p2"}, p1.names())
	require.NotNil(t, p1.Metadata.RemainingItemCount)
	assert.Equal(t, int64(3), *p1.Metadata.RemainingItemCount)

	// Writes between pages: none of them may show on the later pages.
	ctx := context.Background()
	_, err := s.Delete(ctx, "pods", "default", "p3", nil)
	require.NoError(t, err)
	mustCreate(t, s, "pods", "default", pod("default", "p35", nil))
	p4, err := s.Get(ctx, "pods", "default", "p4")
	require.NoError(t, err)
	p4.(*api.Pod).Labels = map[string]string{"changed": "yes"}
	_, err = s.Update(ctx, "pods", "default", p4)
	require.NoError(t, err)

	p2 := c.list(t, "/api/v1/namespaces/default/pods?limit=2&continue="+url.QueryEscape(p1.Metadata.Continue))
	assert.Equal(t, []string{"default/p3", "default/p4"}, p2.names(), "deleted p3 still there, p35 not yet")
	assert.Equal(t, strconv.FormatUint(snap, 10), p2.Metadata.ResourceVersion)
	assert.Equal(t, strconv.FormatUint(snap-1, 10), p2.Items[1].Metadata.ResourceVersion, "p4 as of the snapshot")
	require.NotNil(t, p2.Metadata.RemainingItemCount)
	assert.Equal(t, int64(1), *p2.Metadata.RemainingItemCount)

	p3 := c.list(t, "/api/v1/namespaces/default/pods?limit=2&continue="+url.QueryEscape(p2.Metadata.Continue))
	assert.Equal(t, []string{"default/p5"}, p3.names())
	assert.Equal(t, strconv.FormatUint(snap, 10), p3.Metadata.ResourceVersion)
	assert.Empty(t, p3.Metadata.Continue, "L7: no continue on the last page")
	assert.Nil(t, p3.Metadata.RemainingItemCount, "L13: omitted on the last page")

	// L10: the token mirrors the real one.
	rv, start, err := continuetoken.Decode(p1.Metadata.Continue)
	require.NoError(t, err)
	assert.Equal(t, snap, rv)
	assert.Equal(t, "p2\x00", start)
	all := c.list(t, "/api/v1/pods?limit=1")
	_, start, err = continuetoken.Decode(all.Metadata.Continue)
	require.NoError(t, err)
	assert.Equal(t, "default/p1\x00", start, "L10: all-namespaces keys keep the namespace")
}

// TestCh01_PagingWithSelectors checks L8 and L13: pages may be short, and remainingItemCount
// is not set when a selector is used.
func TestCh01_PagingWithSelectors(t *testing.T) {
	s, c := newServer(t, Options{})
	for i := range 6 {
		mustCreate(t, s, "pods", "default", pod("default", fmt.Sprintf("p%d", i), map[string]string{"even": strconv.FormatBool(i%2 == 0)}))
	}
	var got []string
	cont := ""
	pages := 0
	for {
		l := c.list(t, "/api/v1/namespaces/default/pods?limit=2&labelSelector=even%3Dtrue&continue="+url.QueryEscape(cont))
		assert.Nil(t, l.Metadata.RemainingItemCount)
		got = append(got, l.names()...)
		pages++
		if cont = l.Metadata.Continue; cont == "" {
			break
		}
	}
	assert.Equal(t, []string{"default/p0", "default/p2", "default/p4"}, got)
	assert.Equal(t, 2, pages)
}

// TestCh01_ContinueExpired checks L12, E41 and T11: a token whose snapshot was compacted is
// 410 Expired with a fresh token that continues at the latest revision.
func TestCh01_ContinueExpired(t *testing.T) {
	s, c := newServer(t, Options{})
	for _, n := range []string{"a", "b", "c"} {
		mustCreate(t, s, "pods", "default", pod("default", n, nil))
	}
	first := c.list(t, "/api/v1/namespaces/default/pods?limit=1")
	mustCreate(t, s, "pods", "default", pod("default", "d", nil))
	s.CompactAll()

	r := c.get("/api/v1/namespaces/default/pods?limit=1&continue=" + url.QueryEscape(first.Metadata.Continue))
	require.Equal(t, 410, r.code)
	st := r.status(t)
	assert.Equal(t, api.StatusReasonExpired, st.Reason, "the pager falls back only on Expired")
	assert.Contains(t, st.Message, "The provided continue parameter is too old")
	require.NotEmpty(t, st.Continue, "L12: a fresh token in metadata.continue")

	rest := c.list(t, "/api/v1/namespaces/default/pods?continue="+url.QueryEscape(st.Continue))
	assert.Equal(t, []string{"default/b", "default/c", "default/d"}, rest.names(), "inconsistent continuation at the latest revision")
}

// TestCh01_ContinueErrors checks L14, L16 (E39, E40).
func TestCh01_ContinueErrors(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	mustCreate(t, s, "pods", "default", pod("default", "b", nil))
	tok := c.list(t, "/api/v1/namespaces/default/pods?limit=1").Metadata.Continue
	tests := []struct {
		name, query, msg string
	}{
		{"tampered", "continue=" + tok[:len(tok)-3] + "%25%25", "invalid continue token"},
		{"not base64", "continue=abc!def", "invalid continue token: continue key is not valid"},
		{"continue with RV", "continue=" + url.QueryEscape(tok) + "&resourceVersion=5", "specifying resource version is not allowed when using continue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.get("/api/v1/namespaces/default/pods?limit=1&" + tt.query)
			require.Equal(t, 400, r.code, "body: %s", r.body)
			st := r.status(t)
			assert.Equal(t, api.StatusReasonBadRequest, st.Reason)
			assert.Contains(t, st.Message, tt.msg)
		})
	}
	// L16: RV "0" with continue is ignored.
	l := c.list(t, "/api/v1/namespaces/default/pods?limit=1&resourceVersion=0&continue="+url.QueryEscape(tok))
	assert.Equal(t, []string{"default/b"}, l.names())
}

// TestCh01_Selectors checks L17–L21 for lists, with the pod field labels of L19 and the
// absent-field rule of L20.
func TestCh01_Selectors(t *testing.T) {
	s, c := newServer(t, Options{})
	mk := func(name, node string, phase api.PodPhase, labels map[string]string) {
		p := pod("default", name, labels)
		p.Spec.NodeName = node
		p.Status.Phase = phase
		mustCreate(t, s, "pods", "default", p)
	}
	mk("a", "n1", api.PodRunning, map[string]string{"app": "web", "tier": "1"})
	mk("b", "", api.PodPending, map[string]string{"app": "db"})
	mk("c", "n2", api.PodRunning, map[string]string{"app": "web"})
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}})

	tests := []struct {
		query string
		want  []string
	}{
		{"labelSelector=app%3Dweb", []string{"default/a", "default/c"}},
		{"labelSelector=app+in+(db,x)", []string{"default/b"}},
		{"labelSelector=tier", []string{"default/a"}},
		{"labelSelector=!tier", []string{"default/b", "default/c"}},
		{"labelSelector=app!%3Dweb", []string{"default/b"}},
		{"fieldSelector=spec.nodeName%3D", []string{"default/b"}},
		{"fieldSelector=spec.nodeName!%3D", []string{"default/a", "default/c"}},
		{"fieldSelector=spec.host%3Dn2", []string{"default/c"}},
		{"fieldSelector=status.phase%3DRunning,metadata.name!%3Da", []string{"default/c"}},
		{"fieldSelector=metadata.namespace%3Ddefault&labelSelector=app%3Ddb", []string{"default/b"}},
		{"fieldSelector=spec.hostNetwork%3Dfalse", []string{"default/a", "default/b", "default/c"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, c.list(t, "/api/v1/pods?"+tt.query).names()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	assert.Equal(t, []string{"default/cfg"}, c.list(t, "/api/v1/configmaps?fieldSelector=metadata.name%3Dcfg").names())
	assert.Equal(t, []string{"default"}, c.list(t, "/api/v1/namespaces?fieldSelector=metadata.name%3Ddefault,status.phase%3DActive").names())
}

// TestCh01_GetResourceVersion checks L6: GET of one object with "", "0" and N.
func TestCh01_GetResourceVersion(t *testing.T) {
	s, c := newServer(t, Options{TooLargeResourceVersionWait: -1})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	cur := s.ResourceVersion()
	for _, rv := range []string{"", "0", strconv.FormatUint(cur, 10)} {
		r := c.get("/api/v1/namespaces/default/pods/a?resourceVersion=" + rv)
		assert.Equal(t, 200, r.code, rv)
	}
	r := c.get(fmt.Sprintf("/api/v1/namespaces/default/pods/a?resourceVersion=%d", cur+5))
	assert.Equal(t, 504, r.code)
	r = c.get("/api/v1/namespaces/default/pods/a?watch=true")
	assert.Equal(t, 200, r.code, "U7: watch on an item is an ordinary GET")
	var p api.Pod
	r.decode(t, &p)
	assert.Equal(t, "a", p.Name)
}

// TestCh01_ClusterScopedNamespaceFieldSelector: a cluster-scoped kind with the default field
// label conversion accepts metadata.namespace, which is "" on every object; a kind with its
// own conversion (namespaces) refuses it, as the reference does.
func TestCh01_ClusterScopedNamespaceFieldSelector(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("POST", "/apis/storage.k8s.io/v1/storageclasses", `{"metadata":{"name":"fast"},"provisioner":"example.com/x"}`, "Content-Type", "application/json")
	require.Equal(t, 201, r.code, "%s", r.body)
	tests := []struct {
		path  string
		code  int
		names int
	}{
		{"/apis/storage.k8s.io/v1/storageclasses?fieldSelector=metadata.namespace%3Dx", 200, 0},
		{"/apis/storage.k8s.io/v1/storageclasses?fieldSelector=metadata.namespace%3D", 200, 1},
		{"/api/v1/namespaces?fieldSelector=metadata.namespace%3Dx", 400, 0},
	}
	for _, tt := range tests {
		r := c.get(tt.path)
		require.Equal(t, tt.code, r.code, "%s: %s", tt.path, r.body)
		if tt.code == 200 {
			var l struct{ Items []any }
			r.decode(t, &l)
			assert.Len(t, l.Items, tt.names, tt.path)
		} else {
			assert.Contains(t, string(r.body), "field label not supported: metadata.namespace")
		}
	}
}

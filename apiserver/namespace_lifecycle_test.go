package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// The tests of this file run the server with NamespaceDeletionInServer: the server itself
// empties a deleted namespace, which is what they check (TestCh14_Namespace_* check the
// default, where the namespace controller does).

// TestCh01_HostileWriteToTerminatingNamespace (NS4): a namespace whose content a finalizer
// holds stays Terminating whatever write reaches it; it goes when the content goes, and a
// namespace made again under the same name is empty.
func TestCh01_HostileWriteToTerminatingNamespace(t *testing.T) {
	s, c := newServer(t, Options{NamespaceDeletion: NamespaceDeletionInServer})
	require.Equal(t, http.StatusCreated, c.do("POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`, "Content-Type", jsonCT).code)
	held := pod("team", "held", nil)
	held.Finalizers = []string{"example.com/hold"}
	mustCreate(t, s, "pods", "team", held)
	mustCreate(t, s, "pods", "team", pod("team", "free", nil))
	nsWatch := c.watch(fmt.Sprintf("/api/v1/namespaces?watch=1&resourceVersion=%d&fieldSelector=metadata.name%%3Dteam", s.ResourceVersion()))

	ns := c.get("/api/v1/namespaces/team").object(t)
	assert.Equal(t, []string{api.FinalizerKubernetes}, ns.Spec.Finalizers, "every namespace is created with the kubernetes finalizer")

	r := c.do("DELETE", "/api/v1/namespaces/team", nil)
	require.Equal(t, http.StatusOK, r.code, "body: %s", r.body)
	assert.Equal(t, "Terminating", r.object(t).Status.Phase)
	assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/team/pods/free").code, "content without finalizers is deleted")

	// Writes to the Terminating namespace: a label by patch, an update, a status write.
	for _, w := range []struct {
		method, path, body, ctype string
		code                      int
	}{
		{"PATCH", "/api/v1/namespaces/team", `{"metadata":{"labels":{"touched":"yes"}}}`, mergeCT, 200},
		{"PATCH", "/api/v1/namespaces/team", `{"spec":{"finalizers":[]}}`, mergeCT, 200},
		{"PUT", "/api/v1/namespaces/team", `{"metadata":{"name":"team","labels":{"touched":"again"}}}`, jsonCT, 200},
		{"PUT", "/api/v1/namespaces/team/status", `{"metadata":{"name":"team"},"status":{"phase":"Active"}}`, jsonCT, 422},
	} {
		r := c.do(w.method, w.path, w.body, "Content-Type", w.ctype)
		require.Equal(t, w.code, r.code, "%s %s: %s", w.method, w.path, r.body)
		o := c.get("/api/v1/namespaces/team").object(t)
		assert.Equal(t, "Terminating", o.Status.Phase, "%s %s", w.method, w.path)
		assert.Equal(t, []string{api.FinalizerKubernetes}, o.Spec.Finalizers, "only the finalize subresource changes spec.finalizers")
	}
	require.Equal(t, http.StatusOK, c.get("/api/v1/namespaces/team/pods/held").code, "the held pod is still there")
	assertStatus(t, c.do("POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"late"}}`, "Content-Type", jsonCT),
		http.StatusForbidden, api.StatusReasonForbidden, "unable to create new content in namespace team because it is being terminated", false)

	// The held pod lets go: it goes, and with it the namespace.
	r = c.do("PATCH", "/api/v1/namespaces/team/pods/held", `{"metadata":{"finalizers":null}}`, "Content-Type", mergeCT)
	require.Equal(t, http.StatusOK, r.code, "body: %s", r.body)
	assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/team").code, "empty and finalized, the namespace is gone")

	var types []string
	for range 4 {
		types = append(types, nsWatch.next().Type)
	}
	assert.Equal(t, []string{"MODIFIED", "MODIFIED", "MODIFIED", "DELETED"}, types,
		"Terminating, the two writes that changed something, then gone")

	// Made again, the namespace is new and empty: nothing of the old one comes back.
	require.Equal(t, http.StatusCreated, c.do("POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`, "Content-Type", jsonCT).code)
	assert.Empty(t, c.get("/api/v1/namespaces/team/pods").object(t).Items)
}

// TestCh01_NamespaceFinalizers: a namespace with a finalizer of its own (spec or metadata)
// stays Terminating, empty, until that finalizer is removed: through the finalize
// subresource for spec finalizers, by any update for metadata ones.
func TestCh01_NamespaceFinalizers(t *testing.T) {
	s, c := newServer(t, Options{NamespaceDeletion: NamespaceDeletionInServer})
	for _, ns := range []string{
		`{"metadata":{"name":"specfin"},"spec":{"finalizers":["example.com/spec"]}}`,
		`{"metadata":{"name":"metafin","finalizers":["example.com/meta"]}}`,
	} {
		require.Equal(t, http.StatusCreated, c.do("POST", "/api/v1/namespaces", ns, "Content-Type", jsonCT).code)
	}
	mustCreate(t, s, "configmaps", "specfin", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "x"}})
	for _, name := range []string{"specfin", "metafin"} {
		require.Equal(t, http.StatusOK, c.do("DELETE", "/api/v1/namespaces/"+name, nil).code)
	}
	spec := c.get("/api/v1/namespaces/specfin").object(t)
	assert.Equal(t, "Terminating", spec.Status.Phase)
	assert.Equal(t, []string{"example.com/spec"}, spec.Spec.Finalizers, "emptied, the controller removed only its own finalizer")
	meta := c.get("/api/v1/namespaces/metafin").object(t)
	assert.Equal(t, "Terminating", meta.Status.Phase)
	assert.Empty(t, meta.Spec.Finalizers, "emptied, the controller finalized it; the metadata finalizer still holds it")

	assert.Equal(t, http.StatusMethodNotAllowed, c.do("PATCH", "/api/v1/namespaces/specfin/finalize", `{}`, "Content-Type", mergeCT).code, "finalize takes PUT only")
	assert.Equal(t, http.StatusNotFound, c.do("PUT", "/api/v1/namespaces/default/configmaps/x/finalize", `{}`, "Content-Type", jsonCT).code, "only namespaces have finalize")
	r := c.do("PUT", "/api/v1/namespaces/specfin/finalize", `{"metadata":{"name":"specfin"},"spec":{"finalizers":[]}}`, "Content-Type", jsonCT)
	require.Equal(t, http.StatusOK, r.code, "body: %s", r.body)
	assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/specfin").code)

	r = c.do("PATCH", "/api/v1/namespaces/metafin", `{"metadata":{"finalizers":null}}`, "Content-Type", mergeCT)
	require.Equal(t, http.StatusOK, r.code, "body: %s", r.body)
	assert.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/metafin").code)
}

// TestCh01_ListAfterNamespaceDelete: the key index a delete leaves behind (deleted keys are
// filtered out on the next read, not re-sorted) gives exact pages, continue tokens and
// remainingItemCount, also for a page at an older resourceVersion.
func TestCh01_ListAfterNamespaceDelete(t *testing.T) {
	s, c := newServer(t, Options{NamespaceDeletion: NamespaceDeletionInServer})
	for _, ns := range []string{"a", "b", "c"} {
		mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}})
		for i := range 20 {
			mustCreate(t, s, "configmaps", ns, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cm-%02d", i)}})
		}
	}
	first := c.get("/api/v1/configmaps?limit=7").object(t) // pins the index before the delete
	require.Len(t, first.Items, 7)
	require.Equal(t, http.StatusOK, c.do("DELETE", "/api/v1/namespaces/b", nil).code)
	require.Equal(t, http.StatusNotFound, c.get("/api/v1/namespaces/b").code)

	var names []string
	cont := ""
	for {
		r := c.get("/api/v1/configmaps?limit=7&continue=" + cont)
		require.Equal(t, http.StatusOK, r.code, "body: %s", r.body)
		var l struct {
			Metadata struct {
				Continue           string `json:"continue"`
				RemainingItemCount *int64 `json:"remainingItemCount"`
			} `json:"metadata"`
			Items []objectJSON `json:"items"`
		}
		r.decode(t, &l)
		for _, it := range l.Items {
			names = append(names, it.Metadata.Name)
		}
		if l.Metadata.Continue == "" {
			break
		}
		require.NotNil(t, l.Metadata.RemainingItemCount)
		assert.Equal(t, int64(40-len(names)), *l.Metadata.RemainingItemCount, "after %d items", len(names))
		cont = l.Metadata.Continue
	}
	assert.Len(t, names, 40, "namespaces a and c, 20 each")
	assert.Empty(t, c.get("/api/v1/namespaces/b/configmaps").object(t).Items)
}

// deleteCounter is a slog handler that counts the delete hops of the server's trace. At the
// first one, inside the server's write, it signals first and waits for ready: the reader is
// then running and about to ask, while the delete still holds the lock.
type deleteCounter struct {
	deletes atomic.Int64
	first   chan struct{}
	ready   chan struct{}
	once    sync.Once
}

func (h *deleteCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h *deleteCounter) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *deleteCounter) WithGroup(string) slog.Handler            { return h }
func (h *deleteCounter) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "op" && a.Value.String() == "delete" {
			h.deletes.Add(1)
			h.once.Do(func() {
				close(h.first)
				<-h.ready
			})
			return false
		}
		return true
	})
	return nil
}

// TestCh01_NamespaceDeleteYieldsTheLock: deleting a namespace holds the storage lock for one
// object at a time, so a read elsewhere that arrives during the delete is answered long
// before the delete ends, not after all of it (a namespace of 100k objects would otherwise
// stall the whole server; BenchmarkNamespaceDelete measures it).
func TestCh01_NamespaceDeleteYieldsTheLock(t *testing.T) {
	const n = 2000
	h := &deleteCounter{first: make(chan struct{}), ready: make(chan struct{})}
	s := NewTestServer(t, Options{Logger: slog.New(h), NamespaceDeletion: NamespaceDeletionInServer})
	ctx := t.Context()
	mustCreate(t, s, "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "probe"}})
	mustCreate(t, s, "namespaces", "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "big"}})
	for i := range n {
		mustCreate(t, s, "configmaps", "big", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cm-%05d", i)}})
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Delete(ctx, "namespaces", "", "big", nil)
		done <- err
	}()
	<-h.first
	close(h.ready)
	_, err := s.Get(ctx, "configmaps", "default", "probe")
	require.NoError(t, err)
	deletedBeforeGet := h.deletes.Load()
	require.NoError(t, <-done)
	assert.Less(t, deletedBeforeGet, int64(n/2), "the read waited for most of the namespace's deletion")
	assert.Equal(t, int64(n+1), h.deletes.Load(), "every object and the namespace were deleted")
}

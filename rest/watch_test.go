package rest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/resttest"
)

// rest/watch contract item 3 over HTTP: Stop cancels the request, so the server's handler sees its
// request context end, and no goroutine of ours is left.
func TestCh02_StopReleasesConnection(t *testing.T) {
	checkNoLeak(t)
	handlerDone := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, resttest.PodEvent(watch.Added, "a", "1")+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(handlerDone)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL)
	w, err := c.Resource(podsGVR).Namespace("demo").Watch(context.Background(), api.ListOptions{})
	require.NoError(t, err)
	ev := <-w.ResultChan()
	require.Equal(t, watch.Added, ev.Type)
	w.Stop()
	select {
	case <-handlerDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the client go away")
	}
	assert.Empty(t, resttest.Collect(t, w))
}

// W3: Watch returns as soon as the headers arrive, before any event; a cancelled context
// then ends the watch quietly, like Stop.
func TestCh02_ContextCancelEndsWatch(t *testing.T) {
	checkNoLeak(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := newTestClient(t, srv.URL).Resource(podsGVR).Watch(ctx, api.ListOptions{})
	require.NoError(t, err)
	cancel()
	assert.Empty(t, resttest.Collect(t, w))
	w.Stop()
}

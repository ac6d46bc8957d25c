package restmapper

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/rest"
)

// TestCh00_RESTMapperDiscoveryHonoursContext: a caller that gives up (Ctrl-C in demo watch)
// is not held by a server whose discovery never answers: the discovery runs under its ctx.
func TestCh00_RESTMapperDiscoveryHonoursContext(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	dc, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: srv.URL})
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := NewDiscoveryRESTMapperForClient(ctx, dc)
		done <- err
	}()
	<-entered
	cancel()
	require.Error(t, <-done, "a cancelled discovery is an error, not a mapper")
}

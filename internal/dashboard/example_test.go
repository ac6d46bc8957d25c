package dashboard_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/informer-lab/informer-lab/internal/dashboard"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// ExampleNew mounts the dashboard the way `demo run --ui` does: one Hub as the pipeline's
// logger, a Stats func reading the pipeline's counters, and the handler served by the caller.
func ExampleNew() {
	hub := dashboard.NewHub()
	logger := slog.New(hub) // hand this logger to the reflector, the FIFO, the indexer, …
	h := dashboard.New(dashboard.Options{
		Hub:   hub,
		Title: "demo",
		Stats: func() dashboard.Stats {
			return dashboard.Stats{ServerRV: "42", IndexerSize: 3,
				Listeners: []dashboard.ListenerStats{{Name: "slow", Pending: 5, Capacity: 16}}}
		},
	})
	srv := httptest.NewServer(h) // the caller binds; the package never does
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/stats")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(string(body))
	// Until a browser opens /events, tracing is off and costs nothing.
	fmt.Println("tracing while nobody watches:", trace.Enabled(logger))
	// Output:
	// {"serverRV":"42","serverObjects":0,"queueLen":0,"indexerSize":3,"listeners":[{"name":"slow","pending":5,"capacity":16}],"workqueueDepth":0,"processing":0,"retries":0,"reconciles":0,"relists":0,"lists":0,"watches":0,"events":0,"tombstones":0}
	// tracing while nobody watches: false
}

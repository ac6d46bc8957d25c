package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// stoppedClock is the real clock with Now frozen, so creation timestamps and ages print the
// same on every run.
type stoppedClock struct{ clock.RealClock }

func (stoppedClock) Now() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// Example_kubectlGetPods shows what kubectl get pods receives (K7, K15): with kubectl's
// Accept header the list comes back as a Table, and kubectl prints the priority-0 columns.
func Example_kubectlGetPods() {
	s := New(Options{Clock: stoppedClock{}})
	defer s.Close()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	if _, err := s.Create(context.Background(), "pods", "default", p); err != nil {
		fmt.Println(err)
		return
	}

	req := httptest.NewRequest("GET", "/api/v1/namespaces/default/pods?limit=500", nil)
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)

	var table api.Table
	if err := json.Unmarshal(rec.Body.Bytes(), &table); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Header().Get("Content-Type"))
	fmt.Println("resourceVersion:", table.ResourceVersion)
	var header []string
	for _, c := range table.ColumnDefinitions {
		if c.Priority == 0 {
			header = append(header, strings.ToUpper(c.Name))
		}
	}
	fmt.Println(strings.Join(header, "\t"))
	for _, row := range table.Rows {
		cells := make([]string, len(header))
		for i := range cells {
			cells[i] = fmt.Sprint(row.Cells[i])
		}
		fmt.Println(strings.Join(cells, "\t"))
	}
	// Output:
	// application/json
	// resourceVersion: 4
	// NAME	READY	STATUS	RESTARTS	AGE
	// web	0/1	Pending	0	0s
}

// Example_debugFaults drives the fault API over HTTP, as an instructor does with curl:
// drop the next event, then compact the history.
func Example_debugFaults() {
	s := New(Options{DebugFaults: true})
	defer s.Close()
	do := func(method, body string) FaultState {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(method, "/debug/faults", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		s.Handler().ServeHTTP(rec, req)
		var st FaultState
		if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
			fmt.Println(rec.Code, rec.Body.String())
		}
		return st
	}
	st := do("POST", `{"action":"drop-next-events","count":2,"type":"MODIFIED"}`)
	fmt.Printf("drops: %+v\n", st.Drops)
	st = do("POST", `{"action":"compact"}`)
	fmt.Printf("resourceVersion %d, oldest %d\n", st.ResourceVersion, st.OldestResourceVersion)
	st = do("DELETE", "")
	fmt.Printf("drops after clear: %d\n", len(st.Drops))
	// Output:
	// drops: [{Count:2 Key: Type:MODIFIED WatcherID:0}]
	// resourceVersion 3, oldest 3
	// drops after clear: 0
}

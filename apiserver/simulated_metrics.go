package apiserver

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Simulated metrics: nothing in the simulated cluster consumes CPU, so the usage a
// HorizontalPodAutoscaler scales on is set through the fault API (the set-metric and
// clear-metrics actions of /debug/faults) and read back at GET /debug/metrics, which the
// cluster's HPA controller reads in place of metrics.k8s.io (no metrics-server runs, and the
// real server serves no such group without one). Like the rest of the fault API, it is
// served only with Options.DebugFaults and has no client-go counterpart.
//
//	curl -s -H 'Content-Type: application/json' -d '{"action":"set-metric","namespace":"default","metric":"cpu","utilization":90}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"set-metric","namespace":"default","pod":"web-1","metric":"cpu","value":"250m"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"set-metric","namespace":"default","metric":"requests_per_second","value":"12"}' localhost:6443/debug/faults
//	curl -s -H 'Content-Type: application/json' -d '{"action":"clear-metrics"}' localhost:6443/debug/faults
//	curl -s 'localhost:6443/debug/metrics?namespace=default'

// SimulatedMetric is one simulated reading: of one pod, or of every pod of a namespace that
// no pod-specific reading covers. It has no client-go counterpart.
type SimulatedMetric struct {
	// Namespace is the pods' namespace (required).
	Namespace string `json:"namespace"`
	// Pod names one pod; empty applies to every pod of the namespace.
	Pod string `json:"pod,omitempty"`
	// Metric is a resource ("cpu", "memory": a Resource metric of an HPA) or any other name
	// (a Pods metric of an HPA).
	Metric string `json:"metric"`
	// Utilization is the usage in percent of the pod's request (resource metrics only); the
	// reader multiplies it by the requests of the pod's containers.
	Utilization *int64 `json:"utilization,omitempty"`
	// Value is the usage as a quantity ("250m" of cpu, "64Mi" of memory) or a Pods metric's
	// value ("12"), when Utilization is not set.
	Value string `json:"value,omitempty"`
}

// SimulatedMetrics is the body of GET /debug/metrics; it is ours (no client-go counterpart).
type SimulatedMetrics struct {
	Metrics []SimulatedMetric `json:"metrics"`
}

// SetMetric is ours (no client-go counterpart): it installs a simulated reading, replacing the one for the same namespace, pod and
// metric.
func (s *Server) SetMetric(m SimulatedMetric) error {
	if err := validateMetric(m); err != nil {
		return err
	}
	s.faults.mu.Lock()
	i := slices.IndexFunc(s.faults.metrics, func(o SimulatedMetric) bool {
		return o.Namespace == m.Namespace && o.Pod == m.Pod && o.Metric == m.Metric
	})
	if i >= 0 {
		s.faults.metrics[i] = m
	} else {
		s.faults.metrics = append(s.faults.metrics, m)
	}
	s.faults.mu.Unlock()
	key := m.Namespace
	if m.Pod != "" {
		key += "/" + m.Pod
	}
	attrs := []slog.Attr{slogString("fault", "set-metric"), slogString("metric", m.Metric), slogString("value", m.Value)}
	if m.Utilization != nil {
		attrs = append(attrs, slog.Int64("utilization", *m.Utilization))
	}
	trace.Hop(s.log, "apiserver", "fault", key, "", attrs...)
	return nil
}

// clearMetrics removes every simulated reading (the clear-metrics fault action).
func (f *faults) clearMetrics() {
	f.mu.Lock()
	f.metrics = nil
	f.mu.Unlock()
}

// metricsOf returns the simulated readings of namespace ("" for all), sorted, as
// /debug/metrics serves them.
func (f *faults) metricsOf(namespace string) []SimulatedMetric {
	f.mu.Lock()
	out := []SimulatedMetric{}
	for _, m := range f.metrics {
		if namespace == "" || m.Namespace == namespace {
			out = append(out, m)
		}
	}
	f.mu.Unlock()
	slices.SortFunc(out, func(a, b SimulatedMetric) int {
		return strings.Compare(a.Namespace+"/"+a.Pod+"/"+a.Metric, b.Namespace+"/"+b.Pod+"/"+b.Metric)
	})
	return out
}

func validateMetric(m SimulatedMetric) error {
	switch {
	case m.Namespace == "":
		return fmt.Errorf("namespace is required")
	case m.Metric == "":
		return fmt.Errorf("metric is required")
	case (m.Utilization == nil) == (m.Value == ""):
		return fmt.Errorf("exactly one of utilization and value is required")
	case m.Utilization != nil && (*m.Utilization < 0 || *m.Utilization > maxFaultInt):
		return fmt.Errorf("utilization must be from 0 to %d, got %d", maxFaultInt, *m.Utilization)
	case m.Utilization != nil && m.Metric != "cpu" && m.Metric != "memory":
		return fmt.Errorf("utilization applies to the cpu and memory resources only, got %q", m.Metric)
	}
	if m.Value != "" {
		if err := schema.CheckQuantity(m.Value); err != nil {
			return fmt.Errorf("value must be a quantity such as \"250m\" or \"12\": %v", err)
		}
	}
	return nil
}

// serveDebug serves the fault API's paths (Options.DebugFaults): /debug/faults and
// /debug/metrics; it reports false for any other path.
func (s debugFaults) serveDebug(path string, w http.ResponseWriter, r *http.Request) bool {
	switch path {
	case "/debug/faults":
		s.serveDebugFaults(w, r)
	case "/debug/metrics":
		s.serveDebugMetrics(w, r)
	default:
		return false
	}
	return true
}

// serveDebugMetrics is the GET /debug/metrics handler: ?namespace= narrows the readings.
func (s debugFaults) serveDebugMetrics(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, api.NewMethodNotAllowed())
		return
	}
	data, err := json.MarshalIndent(SimulatedMetrics{Metrics: s.faults.metricsOf(r.URL.Query().Get("namespace"))}, "", "  ")
	if err != nil {
		writeError(w, api.NewInternalError(err))
		return
	}
	writeRaw(w, http.StatusOK, append(data, '\n'))
}

package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_DebugMetrics: set-metric installs a reading (replacing the one for the same pod
// and metric), GET /debug/metrics lists them by namespace, clear-metrics removes them, bad
// readings are 400s naming the problem.
func TestCh01_DebugMetrics(t *testing.T) {
	s, c := newServer(t, Options{DebugFaults: true})
	read := func(query string) SimulatedMetrics {
		t.Helper()
		r := c.get("/debug/metrics" + query)
		require.Equal(t, 200, r.code, string(r.body))
		var m SimulatedMetrics
		r.decode(t, &m)
		return m
	}
	assert.Equal(t, SimulatedMetrics{Metrics: []SimulatedMetric{}}, read(""))
	c.faults(t, "POST", `{"action":"set-metric","namespace":"default","metric":"cpu","utilization":90}`)
	c.faults(t, "POST", `{"action":"set-metric","namespace":"default","metric":"cpu","utilization":40}`)
	c.faults(t, "POST", `{"action":"set-metric","namespace":"default","pod":"web-1","metric":"cpu","value":"250m"}`)
	c.faults(t, "POST", `{"action":"set-metric","namespace":"other","metric":"requests_per_second","value":"12"}`)
	forty := int64(40)
	assert.Equal(t, []SimulatedMetric{
		{Namespace: "default", Metric: "cpu", Utilization: &forty},
		{Namespace: "default", Pod: "web-1", Metric: "cpu", Value: "250m"},
	}, read("?namespace=default").Metrics)
	assert.Len(t, s.faults.metricsOf(""), 3)
	assert.Equal(t, 405, c.do("POST", "/debug/metrics", "{}").code)

	for body, msg := range map[string]string{
		`{"action":"set-metric","metric":"cpu","utilization":1}`:                             "namespace is required",
		`{"action":"set-metric","namespace":"a","metric":"cpu"}`:                             "exactly one of utilization and value",
		`{"action":"set-metric","namespace":"a","metric":"cpu","utilization":1,"value":"1"}`: "exactly one of utilization and value",
		`{"action":"set-metric","namespace":"a","metric":"qps","utilization":50}`:            "cpu and memory resources only",
		`{"action":"set-metric","namespace":"a","metric":"cpu","value":"lots"}`:              "must be a quantity",
		`{"action":"set-metric","namespace":"a","metric":"cpu","utilization":-1}`:            "utilization must be from 0",
		`{"action":"set-metric","namespace":"a","metric":"cpu","utilization":"high"}`:        "utilization must be an integer",
	} {
		r := c.do("POST", "/debug/faults", body)
		assert.Equal(t, 400, r.code, body)
		assert.Contains(t, string(r.body), msg, body)
	}
	c.faults(t, "POST", `{"action":"clear-metrics"}`)
	assert.Empty(t, s.faults.metricsOf(""))
}

// TestCh01_DebugMetricsOff: /debug/metrics is served only with DebugFaults.
func TestCh01_DebugMetricsOff(t *testing.T) {
	_, c := newServer(t, Options{})
	assert.Equal(t, 404, c.get("/debug/metrics").code)
}

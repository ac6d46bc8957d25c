package podautoscaler

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/informer-lab/informer-lab/rest"
)

// simulatedMetric is one reading of GET /debug/metrics (apiserver.SimulatedMetric's JSON).
type simulatedMetric struct {
	Namespace   string `json:"namespace"`
	Pod         string `json:"pod,omitempty"`
	Metric      string `json:"metric"`
	Utilization *int64 `json:"utilization,omitempty"`
	Value       string `json:"value,omitempty"`
}

// podReading is one pod's reading of one metric: a usage in milli-units, or a utilization
// in percent of the pod's request still to be turned into usage.
type podReading struct {
	milli       int64
	utilization *int64
}

// metricsClient plays metrics.MetricsClient over the simulated metrics.
type metricsClient struct {
	rc *rest.RESTClient
}

// readings mirrors GetResourceMetric and GetRawMetric: by pod name, the reading of metric for
// each of pods (a pod-specific reading wins over the namespace's); a pod without one is
// missing from the map.
func (m *metricsClient) readings(ctx context.Context, namespace, metric string, pods []string) (map[string]podReading, error) {
	raw, err := m.rc.Get().AbsPath("/debug/metrics").Param("namespace", namespace).Do(ctx).Raw()
	if err != nil {
		return nil, fmt.Errorf("unable to fetch metrics from the simulated metrics API (/debug/metrics): %v", err)
	}
	var body struct {
		Metrics []simulatedMetric `json:"metrics"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	var all *simulatedMetric
	byPod := map[string]*simulatedMetric{}
	for i := range body.Metrics {
		sm := &body.Metrics[i]
		if sm.Namespace != namespace || sm.Metric != metric {
			continue
		}
		if sm.Pod == "" {
			all = sm
		} else {
			byPod[sm.Pod] = sm
		}
	}
	out := map[string]podReading{}
	for _, p := range pods {
		sm := byPod[p]
		if sm == nil {
			sm = all
		}
		if sm == nil {
			continue
		}
		if sm.Utilization != nil {
			out[p] = podReading{utilization: sm.Utilization}
			continue
		}
		v, err := parseMilli(sm.Value)
		if err != nil {
			return nil, err
		}
		out[p] = podReading{milli: v}
	}
	return out, nil
}

var suffixes = map[string]*big.Rat{
	"n": big.NewRat(1, 1e9), "u": big.NewRat(1, 1e6), "m": big.NewRat(1, 1e3), "": big.NewRat(1, 1),
	"k": big.NewRat(1e3, 1), "M": big.NewRat(1e6, 1), "G": big.NewRat(1e9, 1), "T": big.NewRat(1e12, 1),
	"P": big.NewRat(1e15, 1), "E": big.NewRat(1e18, 1),
	"Ki": big.NewRat(1<<10, 1), "Mi": big.NewRat(1<<20, 1), "Gi": big.NewRat(1<<30, 1), "Ti": big.NewRat(1<<40, 1),
	"Pi": big.NewRat(1<<50, 1), "Ei": big.NewRat(1<<60, 1),
}

// parseMilli mirrors resource.Quantity.MilliValue: the quantity in thousandths, rounded up.
func parseMilli(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := len(s)
	for i > 0 && !(s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == '.') {
		i--
	}
	num, suffix := s[:i], s[i:]
	mult, ok := suffixes[suffix]
	if !ok {
		if e, found := strings.CutPrefix(strings.ToLower(suffix), "e"); found {
			var exp int
			if _, err := fmt.Sscan(e, &exp); err == nil && exp > -19 && exp < 19 {
				mult = new(big.Rat).SetFloat64(math.Pow10(exp))
				ok = true
			}
		}
	}
	r, good := new(big.Rat).SetString(num)
	if !ok || !good || num == "" {
		return 0, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': %q", s)
	}
	r.Mul(r, mult)
	r.Mul(r, big.NewRat(1000, 1))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(q).Cmp(r) < 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64(), nil
}

// formatMilli writes a milli-value as a quantity: "250m", or a whole number.
func formatMilli(v int64) string {
	if v%1000 == 0 {
		return fmt.Sprint(v / 1000)
	}
	return fmt.Sprintf("%dm", v)
}

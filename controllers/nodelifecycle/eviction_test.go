package nodelifecycle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh14_Nodes_EvictionTime: the taint manager's verdict for one pod: at once when a
// NoExecute taint is not tolerated, after the shortest tolerationSeconds of the matching
// tolerations, never when they are unbounded.
func TestCh14_Nodes_EvictionTime(t *testing.T) {
	added := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	unreachable := []noExecuteTaint{{key: TaintUnreachable, added: added}}
	tol := func(key, op string, secs any) map[string]any {
		m := map[string]any{"key": key, "operator": op, "effect": "NoExecute"}
		if secs != nil {
			m["tolerationSeconds"] = secs
		}
		return m
	}
	tests := []struct {
		name   string
		tols   []any
		taints []noExecuteTaint
		at     time.Time
		evict  bool
	}{
		{"no taint", nil, nil, time.Time{}, false},
		{"not tolerated: at once", nil, unreachable, time.Time{}, true},
		{"tolerated 300 s", []any{tol(TaintUnreachable, "Exists", int64(300))}, unreachable, added.Add(300 * time.Second), true},
		{"shortest of two", []any{tol(TaintUnreachable, "Exists", int64(300)), tol("", "Exists", int64(60))}, unreachable, added.Add(time.Minute), true},
		{"unbounded: never", []any{tol(TaintUnreachable, "Exists", nil)}, unreachable, time.Time{}, false},
		{"other key does not tolerate", []any{tol(TaintNotReady, "Exists", int64(300))}, unreachable, time.Time{}, true},
		{"NoSchedule toleration does not count", []any{map[string]any{"operator": "Exists", "effect": "NoSchedule"}}, unreachable, time.Time{}, true},
		{"one of two taints untolerated", []any{tol(TaintUnreachable, "Exists", int64(300))},
			append([]noExecuteTaint{{key: "maintenance", value: "x", added: added}}, unreachable...), time.Time{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := &api.Unstructured{Object: map[string]any{"spec": map[string]any{"tolerations": tc.tols}}}
			at, evict := evictionTime(pod, tc.taints)
			assert.Equal(t, tc.evict, evict)
			assert.Equal(t, tc.at, at)
		})
	}
}

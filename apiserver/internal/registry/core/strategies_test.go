package core

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func object(t *testing.T, s string) *api.Unstructured {
	t.Helper()
	return &api.Unstructured{Object: decodeJSON(t, s)}
}

// TestCh01_Strategy_LimitRangeNamesItself checks the LimitRange strategy: a nameless one is
// named with a UUID, a named one keeps its name, and a PUT may create.
func TestCh01_Strategy_LimitRangeNamesItself(t *testing.T) {
	s := LimitRanges().Strategy
	nameless := object(t, `{"metadata":{"namespace":"ns"},"spec":{"limits":[]}}`)
	s.PrepareForCreate(rest.Context{}, nameless)
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, nameless.GetName())
	named := object(t, `{"metadata":{"name":"limits","namespace":"ns"}}`)
	s.PrepareForCreate(rest.Context{}, named)
	assert.Equal(t, "limits", named.GetName())
	assert.True(t, s.AllowCreateOnUpdate())
	assert.False(t, s.HasStatus())
	assert.False(t, s.HasGeneration())
}

// TestCh01_Strategy_PersistentVolumePhaseTime checks the PersistentVolume strategies: a
// create replaces the status with Pending since now, and a status update keeps the stored
// transition time for the same phase and stamps a new phase.
func TestCh01_Strategy_PersistentVolumePhaseTime(t *testing.T) {
	s := PersistentVolumes().Strategy
	now := rest.Context{Now: api.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))}
	pv := object(t, `{"metadata":{"name":"pv"},"status":{"phase":"Bound","message":"from the body"}}`)
	s.PrepareForCreate(now, pv)
	assert.Equal(t, map[string]any{"phase": "Pending", "lastPhaseTransitionTime": "2026-01-02T03:04:05Z"}, pv.Object["status"])
	assert.False(t, s.NamespaceScoped())
	assert.True(t, s.HasStatus())

	sp, ok := s.(rest.StatusPreparer)
	require.True(t, ok)
	old := `{"status":{"phase":"Pending","lastPhaseTransitionTime":"2026-01-01T00:00:00Z"}}`
	tests := []struct {
		name, next, want string
	}{
		{"same phase keeps the time", `{"status":{"phase":"Pending"}}`, "2026-01-01T00:00:00Z"},
		{"new phase is stamped", `{"status":{"phase":"Available"}}`, "2026-01-02T03:04:05Z"},
		{"new phase with the old time is stamped", `{"status":{"phase":"Available","lastPhaseTransitionTime":"2026-01-01T00:00:00Z"}}`, "2026-01-02T03:04:05Z"},
		{"new phase with its own time keeps it", `{"status":{"phase":"Available","lastPhaseTransitionTime":"2025-06-01T00:00:00Z"}}`, "2025-06-01T00:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, tt.next)
			sp.PrepareForStatusUpdate(now, obj, object(t, old))
			got, _, _ := api.NestedString(obj.Object, "status", "lastPhaseTransitionTime")
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestCh01_Strategy_ReplicationControllerValidate checks rcCauses on defaulted objects.
func TestCh01_Strategy_ReplicationControllerValidate(t *testing.T) {
	s := ReplicationControllers().Strategy
	tmpl := func(labels, extra string) string {
		return `"template":{"metadata":{"labels":` + labels + `},"spec":{"restartPolicy":"Always",` + extra + `"containers":[{"name":"c","image":"nginx"}]}}`
	}
	tests := []struct {
		name, spec string
		want       []string // field: message
	}{
		{"valid", `{"replicas":1,"selector":{"app":"a"},` + tmpl(`{"app":"a"}`, "") + `}`, nil},
		{"mismatch and negative", `{"replicas":-1,"selector":{"app":"b"},` + tmpl(`{"app":"a"}`, "") + `}`, []string{
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			"spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: `selector` does not match template `labels`",
		}},
		{"no selector, no template", `{"replicas":1}`, []string{"spec.selector: Required value", "spec.template: Required value"}},
		{"restart policy and deadline", `{"replicas":1,"selector":{"app":"a"},` +
			`"template":{"metadata":{"labels":{"app":"a"}},"spec":{"restartPolicy":"Never","activeDeadlineSeconds":5,"containers":[{"name":"c","image":"x"}]}}}`,
			[]string{
				`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
				"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, `{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"rc"},"spec":`+tt.spec+`}`)
			var got []string
			for _, c := range s.Validate(obj) {
				got = append(got, c.Field+": "+c.Message)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestCh01_Strategy_QuotaTemplateComponentBinding checks the smaller core kinds: the quota's
// reset status, the pod template's generation, and the verbs of the storage-less kinds.
func TestCh01_Strategy_QuotaTemplateComponentBinding(t *testing.T) {
	q := ResourceQuotas()
	obj := object(t, `{"spec":{"hard":{"pods":"1"}},"status":{"used":{"pods":"9"}}}`)
	q.Strategy.PrepareForCreate(rest.Context{}, obj)
	assert.Equal(t, map[string]any{}, obj.Object["status"])

	pt := PodTemplates().Strategy
	assert.True(t, pt.HasGeneration())
	old := object(t, `{"metadata":{"generation":1},"template":{"spec":{"containers":[{"name":"c","image":"a"}]}}}`)
	next := object(t, `{"metadata":{"generation":1,"labels":{"x":"y"}},"template":{"spec":{"containers":[{"name":"c","image":"b"}]}}}`)
	pt.PrepareForUpdate(rest.Context{}, next, old)
	assert.Equal(t, int64(2), next.GetGeneration(), "a template change moves the generation")
	causes := pt.Validate(object(t, `{"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"t"},"template":{"spec":{}}}`))
	require.Len(t, causes, 1)
	assert.Equal(t, "template.spec.containers", causes[0].Field)

	assert.Equal(t, []string{"get", "list"}, ComponentStatuses().Verbs)
	assert.Equal(t, []string{"create"}, Bindings().Verbs)
}

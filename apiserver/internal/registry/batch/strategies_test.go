package batch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// podTemplate is a valid Job pod template with the given restart policy ("" for none).
func podTemplate(restart string) map[string]any {
	spec := map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}
	if restart != "" {
		spec["restartPolicy"] = restart
	}
	return map[string]any{"spec": spec}
}

func job(restart string) *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": "batch/v1", "kind": "Job",
		"metadata": map[string]any{"name": "j", "namespace": "ns", "generation": int64(1), "uid": "7c1e5b9a-0000-4000-8000-000000000001"},
		"spec":     map[string]any{"template": podTemplate(restart)},
		"status":   map[string]any{"succeeded": int64(1)},
	}}
}

// templateSpec returns the pod spec of a Job's or a CronJob's template.
func templateSpec(o *api.Unstructured) map[string]any {
	m := o.Object["spec"].(map[string]any)
	if jt, ok := m["jobTemplate"].(map[string]any); ok {
		m = jt["spec"].(map[string]any)
	}
	return m["template"].(map[string]any)["spec"].(map[string]any)
}

func cronJob(restart string) *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": "batch/v1", "kind": "CronJob",
		"metadata": map[string]any{"name": "cj", "namespace": "ns", "generation": int64(1)},
		"spec": map[string]any{
			"schedule":    "*/1 * * * *",
			"jobTemplate": map[string]any{"spec": map[string]any{"template": podTemplate(restart)}},
		},
	}}
}

// TestCh01_Strategy_BatchRestartPolicy checks point 2 of the batch contract: a Job's (and
// a CronJob's job template's) pods may restart OnFailure or Never, not Always and not by
// default; and their template needs containers.
func TestCh01_Strategy_BatchRestartPolicy(t *testing.T) {
	unsupported := func(path, value string) api.StatusCause {
		return api.StatusCause{Type: api.CauseTypeFieldValueNotSupported, Field: path,
			Message: `Unsupported value: "` + value + `": supported values: "OnFailure", "Never"`}
	}
	kinds := []struct {
		kind     rest.Kind
		make     func(restart string) *api.Unstructured
		template string
	}{
		{Jobs(), job, "spec.template"},
		{CronJobs(), cronJob, "spec.jobTemplate.spec.template"},
	}
	for _, k := range kinds {
		tests := []struct {
			restart string
			want    []api.StatusCause
		}{
			{"OnFailure", nil},
			{"Never", nil},
			{"Always", []api.StatusCause{validation.Required(k.template+".spec.restartPolicy", `valid values: "OnFailure", "Never"`)}},
			{"", []api.StatusCause{validation.Required(k.template+".spec.restartPolicy", `valid values: "OnFailure", "Never"`)}},
			{"Sometimes", []api.StatusCause{validation.NotSupported(k.template+".spec.restartPolicy", "Sometimes", []string{"Always", "OnFailure", "Never"}),
				unsupported(k.template+".spec.restartPolicy", "Sometimes")}},
		}
		for _, tt := range tests {
			o := k.make(tt.restart)
			prepare(k.kind.Strategy, o) // a Job's generated selector
			got := k.kind.Strategy.Validate(o)
			assert.Empty(t, cmp.Diff(tt.want, got), "%s restartPolicy %q", k.kind.Kind, tt.restart)
		}
		o := k.make("Never")
		prepare(k.kind.Strategy, o)
		templateSpec(o)["containers"] = []any{}
		assert.Empty(t, cmp.Diff([]api.StatusCause{{Type: api.CauseTypeFieldValueRequired, Field: k.template + ".spec.containers", Message: "Required value"}},
			k.kind.Strategy.Validate(o)), "%s without containers", k.kind.Kind)
	}
}

// TestCh01_Strategy_BatchKinds checks point 1: status subresource, generation, an empty
// status on create, and the Job's field label.
func TestCh01_Strategy_BatchKinds(t *testing.T) {
	for _, tt := range []struct {
		kind rest.Kind
		obj  *api.Unstructured
		res  string
	}{{Jobs(), job("Never"), "jobs"}, {CronJobs(), cronJob("Never"), "cronjobs"}} {
		s := tt.kind.Strategy
		assert.Equal(t, "batch", tt.kind.Group)
		assert.Equal(t, tt.res, tt.kind.Resource)
		assert.True(t, s.NamespaceScoped())
		assert.True(t, s.HasStatus())
		assert.True(t, s.HasGeneration())
		assert.False(t, s.HasScale())
		s.PrepareForCreate(rest.Context{}, tt.obj)
		assert.Equal(t, map[string]any{}, tt.obj.Object["status"], tt.res)

		old := tt.obj.DeepCopy()
		old.Object["status"] = map[string]any{"active": int64(1)}
		upd := old.DeepCopy()
		upd.Object["status"] = map[string]any{}
		upd.SetLabels(map[string]string{"a": "b"})
		s.PrepareForUpdate(rest.Context{}, upd, old)
		assert.Equal(t, old.Object["status"], upd.Object["status"], "%s: the status is the subresource's", tt.res)
		assert.Equal(t, int64(1), upd.GetGeneration(), "%s: labels do not move the generation", tt.res)
	}
	set := rest.FieldSetOf(Jobs().Fields)
	assert.Equal(t, "1", set(job("Never"))["status.successful"], "the label reads status.succeeded")
	assert.Equal(t, "0", set(cronJob("Never"))["status.successful"])
	assert.Nil(t, CronJobs().Fields)
}

// prepare runs a create's preparation as the store does: PrepareForCreate, then the
// preparation after admission (a Job's generated selector).
func prepare(s rest.Strategy, o *api.Unstructured) {
	s.PrepareForCreate(rest.Context{}, o)
	if lp, ok := s.(rest.LatePreparer); ok {
		lp.PrepareAfterAdmission(o)
	}
}

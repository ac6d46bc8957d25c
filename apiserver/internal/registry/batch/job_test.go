package batch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
)

const jobUID = "6a221a04-808f-4612-a6af-9d3362b839fb"

// jobFrom is a Job named j with jobUID and the given spec (restartPolicy Never, one
// container, added to the template).
func jobFrom(t *testing.T, spec string) *api.Unstructured {
	t.Helper()
	var u api.Unstructured
	if err := u.UnmarshalJSON([]byte(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j","namespace":"ns","uid":"` + jobUID + `"},"spec":` + spec + `}`)); err != nil {
		t.Fatal(err)
	}
	tmpl, _, _ := api.NestedMap(u.Object, "spec", "template")
	if tmpl == nil {
		tmpl = map[string]any{}
	}
	tmpl["spec"] = map[string]any{"restartPolicy": "Never", "containers": []any{map[string]any{"name": "c", "image": "busybox"}}}
	_ = api.SetNestedField(u.Object, tmpl, "spec", "template")
	return &u
}

// TestCh01_Strategy_JobGeneratedSelector pins the Job strategy's selector against the real
// server's answers: the four labels and the controller-uid selector it generates, what it
// leaves to a manual selector, and the validation texts of a conflict.
func TestCh01_Strategy_JobGeneratedSelector(t *testing.T) {
	generated := map[string]any{
		"batch.kubernetes.io/controller-uid": jobUID, "batch.kubernetes.io/job-name": "j",
		"controller-uid": jobUID, "job-name": "j",
	}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range generated {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name       string
		spec       string
		wantLabels map[string]any // the template's labels after the create's preparation
		wantSel    map[string]any
		causes     []api.StatusCause
	}{
		{name: "generated", spec: `{"template":{"metadata":{"labels":{"app":"x"}}}}`,
			wantLabels: with(map[string]any{"app": "x"}),
			wantSel:    map[string]any{"matchLabels": map[string]any{"batch.kubernetes.io/controller-uid": jobUID}}},
		{name: "no template metadata", spec: `{}`, wantLabels: generated,
			wantSel: map[string]any{"matchLabels": map[string]any{"batch.kubernetes.io/controller-uid": jobUID}}},
		{name: "manual selector kept", spec: `{"manualSelector":true,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}}}}`,
			wantLabels: map[string]any{"a": "b"}, wantSel: map[string]any{"matchLabels": map[string]any{"a": "b"}}},
		{name: "manual selector missing", spec: `{"manualSelector":true}`,
			causes: []api.StatusCause{
				{Type: api.CauseTypeFieldValueRequired, Field: "spec.selector", Message: "Required value"},
				{Type: api.CauseTypeFieldValueInvalid, Field: "spec.template.metadata.labels", Message: "Invalid value: null: `selector` does not match template `labels`"},
			}},
		{name: "manual selector mismatch", spec: `{"manualSelector":true,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"c"}}}}`,
			wantLabels: map[string]any{"a": "c"},
			causes: []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid, Field: "spec.template.metadata.labels",
				Message: "Invalid value: {\"a\":\"c\"}: `selector` does not match template `labels`"}}},
		{name: "a wrong uid label", spec: `{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b","controller-uid":"wrong"}}}}`,
			wantLabels: with(map[string]any{"a": "b", "controller-uid": "wrong"}),
			causes: []api.StatusCause{
				{Type: api.CauseTypeFieldValueInvalid, Field: "spec.template.metadata.labels[controller-uid]",
					Message: `Invalid value: {"a":"b","batch.kubernetes.io/controller-uid":"` + jobUID + `","batch.kubernetes.io/job-name":"j","controller-uid":"wrong","job-name":"j"}: must be '` + jobUID + `'`},
				{Type: api.CauseTypeFieldValueInvalid, Field: "spec.selector",
					Message: `Invalid value: {"matchLabels":{"a":"b","batch.kubernetes.io/controller-uid":"` + jobUID + `"}}: ` + "`selector` not auto-generated"},
			}},
		{name: "a selector of another uid", spec: `{"selector":{"matchExpressions":[{"key":"x","operator":"In","values":["z"]}],"matchLabels":{"batch.kubernetes.io/controller-uid":"nope"}}}`,
			wantLabels: generated,
			causes: []api.StatusCause{
				{Type: api.CauseTypeFieldValueInvalid, Field: "spec.selector",
					Message: `Invalid value: {"matchLabels":{"batch.kubernetes.io/controller-uid":"nope"},"matchExpressions":[{"key":"x","operator":"In","values":["z"]}]}: ` + "`selector` not auto-generated"},
				{Type: api.CauseTypeFieldValueInvalid, Field: "spec.template.metadata.labels",
					Message: `Invalid value: {"batch.kubernetes.io/controller-uid":"` + jobUID + `","batch.kubernetes.io/job-name":"j","controller-uid":"` + jobUID + `","job-name":"j"}: ` + "`selector` does not match template `labels`"},
			}},
	}
	s := Jobs().Strategy
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := jobFrom(t, tc.spec)
			prepare(s, o)
			if tc.wantLabels != nil {
				got, _, _ := api.NestedMap(o.Object, "spec", "template", "metadata", "labels")
				assert.Empty(t, cmp.Diff(tc.wantLabels, got), "template labels")
			}
			if tc.wantSel != nil {
				got, _, _ := api.NestedMap(o.Object, "spec", "selector")
				assert.Empty(t, cmp.Diff(tc.wantSel, got), "selector")
			}
			assert.Empty(t, cmp.Diff(tc.causes, s.Validate(o)), "causes")
		})
	}
}

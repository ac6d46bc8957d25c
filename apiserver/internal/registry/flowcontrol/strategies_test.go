package flowcontrol

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func decode(t *testing.T, js string) *api.Unstructured {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(js)), js)
	return &u
}

// TestCh01_Strategy_FlowControlKinds checks point 1 for both kinds.
func TestCh01_Strategy_FlowControlKinds(t *testing.T) {
	for _, k := range []rest.Kind{FlowSchemas(), PriorityLevelConfigurations()} {
		s := k.Strategy
		assert.Equal(t, Group, k.Group)
		assert.False(t, s.NamespaceScoped(), k.Resource)
		assert.True(t, s.HasStatus(), k.Resource)
		assert.True(t, s.HasGeneration(), k.Resource)
		assert.True(t, s.AllowUnconditionalUpdate(), k.Resource)
		assert.Contains(t, k.Fields, "metadata.namespace", k.Resource)
		assert.NotNil(t, k.Bootstrap, k.Resource)
		o := decode(t, `{"metadata":{"name":"x"},"spec":{},"status":{"conditions":[{"type":"Dangling"}]}}`)
		s.PrepareForCreate(rest.Context{}, o)
		assert.Equal(t, map[string]any{}, o.Object["status"], k.Resource)
	}
}

// TestCh01_Strategy_FlowControlBootstrap checks point 3: the objects, their order, that
// defaulting changes none of them (as upstream's tests promise) and that each is valid.
func TestCh01_Strategy_FlowControlBootstrap(t *testing.T) {
	fixed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return fixed }

	var plNames []string
	for _, o := range BootstrapPriorityLevelConfigurations() {
		plNames = append(plNames, o["metadata"].(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"system", "node-high", "leader-election", "workload-high", "workload-low", "global-default", "catch-all", "exempt"}, plNames)
	var fsNames []string
	for _, o := range BootstrapFlowSchemas() {
		fsNames = append(fsNames, o["metadata"].(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"system-nodes", "system-node-high", "probes", "system-leader-election", "kube-controller-manager",
		"kube-scheduler", "kube-system-service-accounts", "service-accounts", "global-default", "exempt", "catch-all"}, fsNames)

	check := func(k rest.Kind, tree map[string]any) {
		o := &api.Unstructured{Object: tree}
		before := o.DeepCopy()
		defaulting.Default(Group, "v1", k.Kind, o.Object)
		assert.Empty(t, cmp.Diff(before.Object, o.Object), "%s %s: defaulting changes nothing", k.Kind, o.GetName())
		assert.Empty(t, k.Strategy.Validate(o), "%s %s", k.Kind, o.GetName())
		assert.Equal(t, "true", o.GetAnnotations()["apf.kubernetes.io/autoupdate-spec"])
	}
	for _, o := range BootstrapPriorityLevelConfigurations() {
		check(PriorityLevelConfigurations(), o)
		assert.Equal(t, map[string]any{}, o["status"])
	}
	for _, o := range BootstrapFlowSchemas() {
		check(FlowSchemas(), o)
	}
	probes := BootstrapFlowSchemas()[2]
	assert.Equal(t, map[string]any{"conditions": []any{map[string]any{
		"type": "Dangling", "status": "False", "lastTransitionTime": "2026-01-02T03:04:05Z", "reason": "Found",
		"message": `This FlowSchema references the PriorityLevelConfiguration object named "exempt" and it exists`,
	}}}, probes["status"])
	assert.Equal(t, map[string]any{"priorityLevelConfiguration": map[string]any{"name": "exempt"}, "matchingPrecedence": int64(2),
		"rules": []any{map[string]any{
			"subjects": []any{
				map[string]any{"kind": "Group", "group": map[string]any{"name": "system:unauthenticated"}},
				map[string]any{"kind": "Group", "group": map[string]any{"name": "system:authenticated"}},
			},
			"nonResourceRules": []any{map[string]any{"verbs": []any{"get"}, "nonResourceURLs": []any{"/healthz", "/readyz", "/livez"}}},
		}}}, probes["spec"])
}

// TestCh01_Strategy_FlowControlValidate checks point 2 with the real messages.
func TestCh01_Strategy_FlowControlValidate(t *testing.T) {
	tests := []struct {
		name string
		kind rest.Kind
		js   string
		want []string
	}{
		{"flow schema", FlowSchemas(), `{"metadata":{"name":"f"},"spec":{"matchingPrecedence":1,"distinguisherMethod":{"type":"ByX"},
			"priorityLevelConfiguration":{},"rules":[{"subjects":[{"kind":"User"},{"kind":"Robot"}],
			"resourceRules":[{"verbs":["get"],"apiGroups":["*","x"],"resources":["pods"]}],"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/a*"]}]}]},
			"status":{"conditions":[{"type":"A"},{"type":"A"}]}}`, []string{
			"spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
			`spec.distinguisherMethod.type: Unsupported value: {"Type":"ByX"}: supported values: "ByNamespace", "ByUser"`,
			"spec.priorityLevelConfiguration.name: Required value: must reference a priority level",
			"spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
			`spec.rules[0].subjects[1].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"`,
			`spec.rules[0].resourceRules[0].apiGroups: Invalid value: ["*","x"]: if '*' is present, must not specify other api groups`,
			"spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace",
			`spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a*": wildcard can only do suffix matching`,
			`status.conditions[1].type: Duplicate value: "A"`,
		}},
		{"the mandatory exempt schema is fixed", FlowSchemas(), `{"metadata":{"name":"exempt"},"spec":{"matchingPrecedence":1,"priorityLevelConfiguration":{"name":"exempt"}}}`, []string{
			`spec: Invalid value: {"PriorityLevelConfiguration":{"Name":"exempt"},"MatchingPrecedence":1,"DistinguisherMethod":null,"Rules":null}: spec of 'exempt' must equal the fixed value`,
		}},
		{"priority level", PriorityLevelConfigurations(), `{"metadata":{"name":"p"},"spec":{"type":"Limited","exempt":{},
			"limited":{"nominalConcurrencyShares":-1,"lendablePercent":101,"limitResponse":{"type":"Queue","queuing":{"queues":4,"handSize":8,"queueLengthLimit":0}}}}}`, []string{
			"spec.exempt: Forbidden: must be nil if the type is Limited",
			"spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
			"spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: 0: must be positive",
			"spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (4)",
			"spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
		}},
		{"shuffle-sharding entropy", PriorityLevelConfigurations(), `{"metadata":{"name":"p"},"spec":{"type":"Limited",
			"limited":{"limitResponse":{"type":"Queue","queuing":{"queues":1000000,"handSize":5,"queueLengthLimit":50}}}}}`, []string{
			"spec.limited.limitResponse.queuing.handSize: Invalid value: 5: required entropy bits of deckSize 1000000 and handSize 5 should not be greater than 60",
		}},
		{"exempt only by name", PriorityLevelConfigurations(), `{"metadata":{"name":"p"},"spec":{"type":"Exempt"}}`, []string{
			`spec.type: Invalid value: "Exempt": must be 'Exempt' if and only if ` + "`name`" + ` is 'exempt'`,
		}},
		{"the exempt level may change its exempt member", PriorityLevelConfigurations(), `{"metadata":{"name":"exempt"},"spec":{"type":"Exempt","exempt":{"nominalConcurrencyShares":7,"lendablePercent":0}}}`, nil},
		{"the catch-all level is fixed", PriorityLevelConfigurations(), `{"metadata":{"name":"catch-all"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":30,"lendablePercent":0,"limitResponse":{"type":"Reject"}}}}`, []string{
			`spec: Invalid value: {"Type":"Limited","Limited":{"NominalConcurrencyShares":30,"LimitResponse":{"Type":"Reject","Queuing":null},"LendablePercent":0,"BorrowingLimitPercent":null},"Exempt":null}: spec of 'catch-all' must equal the fixed value`,
		}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range tt.kind.Strategy.Validate(decode(t, tt.js)) {
			got = append(got, c.Field+": "+c.Message)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}

package networking

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

func obj(t *testing.T, js string) *api.Unstructured {
	t.Helper()
	u := &api.Unstructured{}
	require.NoError(t, u.UnmarshalJSON([]byte(js)))
	return u
}

// TestCh01_Strategy_NetworkingGeneration checks points 1 and 2: what a create keeps of the
// body's status, and whether an update keeps the stored status and moves the generation.
func TestCh01_Strategy_NetworkingGeneration(t *testing.T) {
	tests := []struct {
		kind        rest.Kind
		body        string
		createdWith any // the status after PrepareForCreate; nil: none
		edit        func(o *api.Unstructured)
		moves       bool // the spec edit moves the generation
	}{
		{Ingresses(), `{"spec":{"ingressClassName":"a"},"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1"}]}}}`,
			map[string]any{"loadBalancer": map[string]any{}}, func(o *api.Unstructured) { spec(o)["ingressClassName"] = "b" }, true},
		{IngressClasses(), `{"spec":{"controller":"a"}}`, nil, func(o *api.Unstructured) { spec(o)["controller"] = "b" }, true},
		{NetworkPolicies(), `{"spec":{"podSelector":{}}}`, nil, func(o *api.Unstructured) { spec(o)["policyTypes"] = []any{"Egress"} }, true},
		{IPAddresses(), `{"spec":{"parentRef":{"resource":"services","name":"a"}}}`, nil,
			func(o *api.Unstructured) { spec(o)["parentRef"] = map[string]any{"resource": "services", "name": "b"} }, false},
		{ServiceCIDRs("10.96.0.0/12"), `{"spec":{"cidrs":["10.1.0.0/16"]},"status":{"conditions":[]}}`, map[string]any{},
			func(o *api.Unstructured) { spec(o)["cidrs"] = []any{"10.1.0.0/16", "fd00::/112"} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.kind.Kind, func(t *testing.T) {
			s := tt.kind.Strategy
			assert.True(t, s.AllowUnconditionalUpdate())
			assert.False(t, tt.kind.ReturnDeletedObject)
			assert.Equal(t, tt.moves, s.HasGeneration(), "generation 1 on create")
			assert.Equal(t, tt.createdWith != nil, s.HasStatus())

			created := obj(t, tt.body)
			s.PrepareForCreate(rest.Context{}, created)
			assert.Equal(t, tt.createdWith, created.Object["status"])

			// The store starts a kind without generation at none (0), as upstream does for a
			// body without one; such a kind's generation then never moves.
			old := obj(t, tt.body)
			gen := int64(0)
			if tt.moves {
				gen = 3
			}
			old.SetGeneration(gen)
			o := old.DeepCopy()
			tt.edit(o)
			o.Object["status"] = map[string]any{"written": "by the body"}
			s.PrepareForUpdate(rest.Context{}, o, old)
			want := gen
			if tt.moves {
				want++
			}
			assert.Equal(t, want, o.GetGeneration())
			if s.HasStatus() {
				assert.Equal(t, old.Object["status"], o.Object["status"], "the stored status stays")
			}

			same := old.DeepCopy()
			same.SetLabels(map[string]string{"a": "b"})
			s.PrepareForUpdate(rest.Context{}, same, old)
			assert.Equal(t, gen, same.GetGeneration(), "metadata alone moves nothing")
		})
	}
}

// TestCh01_Strategy_IngressWarnings checks point 4 for Ingress: the deprecated class
// annotation is warned about only when spec.ingressClassName is unset.
func TestCh01_Strategy_IngressWarnings(t *testing.T) {
	const want = `annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`
	tests := []struct {
		name, body string
		want       []string
	}{
		{"annotation only", `{"metadata":{"annotations":{"kubernetes.io/ingress.class":"nginx"}},"spec":{}}`, []string{want}},
		{"annotation and class", `{"metadata":{"annotations":{"kubernetes.io/ingress.class":"nginx"}},"spec":{"ingressClassName":"nginx"}}`, nil},
		{"class only", `{"spec":{"ingressClassName":"nginx"}}`, nil},
		{"empty annotation still counts", `{"metadata":{"annotations":{"kubernetes.io/ingress.class":""}}}`, []string{want}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Ingresses().Strategy.WarningsOnCreate(obj(t, tt.body)), tt.name)
		assert.Nil(t, Ingresses().Strategy.WarningsOnUpdate(obj(t, tt.body), obj(t, tt.body)), tt.name)
	}
}

// TestCh01_Strategy_NetworkPolicyWarnings checks point 4 for NetworkPolicy: each ipBlock
// cidr and except entry, ingress peers before egress ones, with GetWarningsForCIDR's texts.
func TestCh01_Strategy_NetworkPolicyWarnings(t *testing.T) {
	body := `{"spec":{
		"ingress":[{"from":[{"podSelector":{}},{"ipBlock":{"cidr":"10.0.0.1/8","except":["10.1.0.0/16","10.2.3.4/16"]}}]}],
		"egress":[{"to":[{"ipBlock":{"cidr":"010.000.0.0/8"}}]},{"to":[{"ipBlock":{"cidr":"fd00:0:0::/64"}},{"ipBlock":{"cidr":"::ffff:10.0.0.0/104"}},{"ipBlock":{"cidr":"bad"}}]}]}}`
	want := []string{
		`spec.ingress[0].from[1].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)`,
		`spec.ingress[0].from[1].ipBlock.except[1]: CIDR value "10.2.3.4/16" is ambiguous in this context (should be "10.2.0.0/16" or "10.2.3.4/32"?)`,
		`spec.egress[0].to[0].ipBlock.cidr: non-standard CIDR value "010.000.0.0/8" is invalid: use "10.0.0.0/8"`,
		`spec.egress[1].to[0].ipBlock.cidr: IPv6 CIDR value "fd00:0:0::/64" should be in RFC 5952 canonical format ("fd00::/64")`,
		`spec.egress[1].to[1].ipBlock.cidr: non-standard CIDR value "::ffff:10.0.0.0/104" is invalid: use "10.0.0.0/8"`,
	}
	s := NetworkPolicies().Strategy
	assert.Equal(t, want, s.WarningsOnCreate(obj(t, body)))
	assert.Equal(t, want, s.WarningsOnUpdate(obj(t, body), obj(t, `{}`)))
	assert.Nil(t, s.WarningsOnCreate(obj(t, `{"spec":{"ingress":[{"from":[{"ipBlock":{"cidr":"172.17.0.0/16","except":["172.17.1.0/24"]}}]}]}}`)))
}

// TestCh01_Strategy_DefaultServiceCIDR checks point 5: the bootstrap object is the
// ServiceCIDR "kubernetes" of the server's range, Ready since the given time.
func TestCh01_Strategy_DefaultServiceCIDR(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 600, time.FixedZone("x", 3600))
	got, err := json.Marshal(DefaultServiceCIDR("10.96.0.0/12", at))
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"networking.k8s.io/v1","kind":"ServiceCIDR","metadata":{"name":"kubernetes"},
		"spec":{"cidrs":["10.96.0.0/12"]},
		"status":{"conditions":[{"type":"Ready","status":"True","reason":"","message":"Kubernetes default Service CIDR is ready",
			"lastTransitionTime":"2026-01-02T02:04:05Z"}]}}`, string(got))

	k := ServiceCIDRs("10.0.0.0/16")
	require.NotNil(t, k.Bootstrap)
	objs := k.Bootstrap()
	require.Len(t, objs, 1)
	assert.Equal(t, map[string]any{"cidrs": []any{"10.0.0.0/16"}}, objs[0]["spec"])
}

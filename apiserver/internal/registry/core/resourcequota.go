package core

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// resourceQuotaStrategy mirrors pkg/registry/core/resourcequota/strategy.go.
type resourceQuotaStrategy struct{ rest.Base }

// WarningsOnCreate implements rest.Strategy: a request above its limit, for cpu, memory,
// storage and ephemeral-storage (cpu and memory may name their requests without the
// "requests." prefix).
func (resourceQuotaStrategy) WarningsOnCreate(obj *api.Unstructured) []string {
	hard := child(child(obj.Object, "spec"), "hard")
	var warnings []string
	for _, r := range []string{"cpu", "memory", "storage", "ephemeral-storage"} {
		reqName := "requests." + r
		req, reqOK := hard[reqName].(string)
		if !reqOK && (r == "cpu" || r == "memory") {
			if req, reqOK = hard[r].(string); reqOK {
				reqName = r
			}
		}
		limName := "limits." + r
		lim, limOK := hard[limName].(string)
		if !reqOK || !limOK {
			continue
		}
		rv, ok1 := schema.QuantityValue(req)
		lv, ok2 := schema.QuantityValue(lim)
		if ok1 && ok2 && rv.Cmp(lv) > 0 {
			warnings = append(warnings, fmt.Sprintf("ResourceQuota %s (%s) should be less than %s (%s)", reqName, req, limName, lim))
		}
	}
	return warnings
}

// Canonicalize implements rest.Strategy: the spec is always written out.
func (resourceQuotaStrategy) Canonicalize(obj *api.Unstructured) {
	rest.EnsureMember(obj.Object, map[string]any{}, "spec")
}

// ResourceQuotas is the resourcequotas resource (pkg/registry/core/resourcequota): a create
// starts with an empty status, which only the status subresource (the quota controller)
// writes.
func ResourceQuotas() rest.Kind {
	return rest.Kind{Resource: "resourcequotas", Kind: "ResourceQuota", ReturnDeletedObject: true, ShortNames: []string{"quota"},
		Strategy: resourceQuotaStrategy{rest.Base{GVK: gvk("ResourceQuota"), Status: true, Unconditional: true, ResetStatus: rest.EmptyStatus}}}
}

package core

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// configMapStrategy mirrors pkg/registry/core/configmap/strategy.go.
type configMapStrategy struct{ rest.Base }

// ValidateLate implements rest.LateValidator: the keys and the size of data and binaryData.
func (configMapStrategy) ValidateLate(obj *api.Unstructured) error {
	return validation.ValidateConfigMapSize(obj.GetName(), stringMap(obj, "data"), stringMap(obj, "binaryData"))
}

// stringMap reads a map of strings; members of another type are left out (the decoder has
// refused them already).
func stringMap(obj *api.Unstructured, field string) map[string]string {
	m, _ := obj.Object[field].(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// ConfigMaps is the configmaps resource.
func ConfigMaps() rest.Kind {
	return rest.Kind{Resource: "configmaps", Kind: "ConfigMap", ShortNames: []string{"cm"},
		Strategy: configMapStrategy{rest.Base{GVK: gvk("ConfigMap"), Unconditional: true}}}
}

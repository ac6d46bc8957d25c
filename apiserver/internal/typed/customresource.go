package typed

import (
	"encoding/json"
	"fmt"

	"github.com/informer-lab/informer-lab/apiserver/internal/openapi"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// ForCustomResource mirrors the type converter apiextensions-apiserver's crdHandler builds
// for a custom resource (buildOpenAPIModelsForApply, then managedfields.NewTypeConverter
// with spec.preserveUnknownFields): the version's schema as the OpenAPI builder publishes
// it (apiVersion, kind and metadata added, embedded resources given theirs), beside the
// shared definitions (ObjectMeta and what it references). Value validations, the logical
// junctors among them, play no part in the type. Build it once per CRD version.
func ForCustomResource(cr openapi.CustomResource) (*Atom, error) {
	obj, _ := cr.Definitions(false)
	defs := map[string]json.RawMessage{}
	var shared struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(schema.CustomResource(), &shared); err != nil {
		return nil, fmt.Errorf("custom resource definitions: %w", err)
	}
	for k, v := range shared.Components.Schemas {
		defs[k] = v
	}
	name := openapi.ModelName(cr.Group, cr.Version, cr.Kind)
	defs[name] = obj.JSON()
	m, err := NewModel(defs, cr.PreserveUnknownFields)
	if err != nil {
		return nil, err
	}
	return m.Named(name)
}

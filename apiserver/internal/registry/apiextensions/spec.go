package apiextensions

import (
	"encoding/json"

	"github.com/informer-lab/informer-lab/api"
)

// Spec is the part of a CRD the server reads, decoded from the stored object.
type Spec struct {
	Group                 string      `json:"group"`
	Names                 Names       `json:"names"`
	Scope                 string      `json:"scope"`
	Versions              []Version   `json:"versions"`
	PreserveUnknownFields bool        `json:"preserveUnknownFields"`
	Conversion            *Conversion `json:"conversion"`
}

// Names mirrors CustomResourceDefinitionNames.
type Names struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind"`
	ShortNames []string `json:"shortNames"`
	Categories []string `json:"categories"`
}

// Conversion mirrors CustomResourceConversion.
type Conversion struct {
	Strategy string             `json:"strategy"`
	Webhook  *WebhookConversion `json:"webhook"`
}

// WebhookConversion mirrors apiextensions v1 WebhookConversion.
type WebhookConversion struct {
	ClientConfig             *ClientConfig `json:"clientConfig"`
	ConversionReviewVersions []string      `json:"conversionReviewVersions"`
}

// ClientConfig mirrors WebhookClientConfig: a URL or a Service, and the CA bundle that
// signs the webhook's serving certificate.
type ClientConfig struct {
	URL      *string           `json:"url"`
	Service  *ServiceReference `json:"service"`
	CABundle []byte            `json:"caBundle"`
}

// ServiceReference mirrors apiextensions v1 ServiceReference.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path"`
	Port      *int32  `json:"port"`
}

// Version mirrors CustomResourceDefinitionVersion.
type Version struct {
	Name               string        `json:"name"`
	Served             bool          `json:"served"`
	Storage            bool          `json:"storage"`
	Deprecated         bool          `json:"deprecated"`
	DeprecationWarning *string       `json:"deprecationWarning"`
	Subresources       *Subresources `json:"subresources"`
	Columns            []Column      `json:"additionalPrinterColumns"`
	SelectableFields   []struct {
		JSONPath string `json:"jsonPath"`
	} `json:"selectableFields"`
}

// Subresources mirrors CustomResourceSubresources.
type Subresources struct {
	Status *struct{} `json:"status"`
	Scale  *Scale    `json:"scale"`
}

// Column mirrors CustomResourceColumnDefinition.
type Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int32  `json:"priority"`
	JSONPath    string `json:"jsonPath"`
}

// Scale mirrors CustomResourceSubresourceScale.
type Scale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath"`
}

// ReadSpec decodes the spec of a stored CRD (the schema decoder has checked its types).
func ReadSpec(obj *api.Unstructured) Spec {
	var spec Spec
	if raw, ok := obj.Object["spec"]; ok {
		data, _ := json.Marshal(raw)
		_ = json.Unmarshal(data, &spec)
	}
	return spec
}

// Strategy is the conversion strategy, None when unset.
func (s Spec) Strategy() string {
	if s.Conversion == nil || s.Conversion.Strategy == "" {
		return "None"
	}
	return s.Conversion.Strategy
}

// StorageVersion is the name of the version marked as the storage version, "" if none.
func (s Spec) StorageVersion() string {
	for _, v := range s.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// versionsOf returns the raw versions of a stored CRD.
func versionsOf(obj *api.Unstructured) []any {
	spec, _ := obj.Object["spec"].(map[string]any)
	l, _ := spec["versions"].([]any)
	return l
}

// VersionSchema returns the openAPIV3Schema tree of version i, as stored (numbers int64).
func VersionSchema(obj *api.Unstructured, i int) (map[string]any, bool) {
	versions := versionsOf(obj)
	if i < 0 || i >= len(versions) {
		return nil, false
	}
	v, _ := versions[i].(map[string]any)
	sch, _ := v["schema"].(map[string]any)
	m, ok := sch["openAPIV3Schema"].(map[string]any)
	return m, ok
}

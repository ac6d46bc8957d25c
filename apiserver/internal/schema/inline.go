package schema

// Go structs of the served groups that embed another struct inline (json:",inline" in
// k8s.io/api). The OpenAPI document flattens the embedded members into the outer
// definition, but encoding/json names the embedded field in a type error's path:
// "Go struct field HTTPGetAction.spec.containers.livenessProbe.ProbeHandler.httpGet.path".
// TypeMeta is left out: kind and apiVersion are checked before any type error.

type inlineStruct struct {
	field    string   // the embedded Go field: VolumeSource
	own      []string // the outer struct's own members; every other member is promoted
	promoted []string // or: exactly the promoted members
}

var inlineStructs = map[string]inlineStruct{
	"io.k8s.api.core.v1.Volume":                {field: "VolumeSource", own: []string{"name"}},
	"io.k8s.api.core.v1.EphemeralContainer":    {field: "EphemeralContainerCommon", own: []string{"targetContainerName"}},
	"io.k8s.api.core.v1.Probe":                 {field: "ProbeHandler", promoted: []string{"exec", "httpGet", "tcpSocket", "grpc"}},
	"io.k8s.api.core.v1.SecretProjection":      {field: "LocalObjectReference", promoted: []string{"name"}},
	"io.k8s.api.core.v1.ConfigMapVolumeSource": {field: "LocalObjectReference", promoted: []string{"name"}},
	"io.k8s.api.core.v1.ConfigMapProjection":   {field: "LocalObjectReference", promoted: []string{"name"}},
	"io.k8s.api.core.v1.ConfigMapKeySelector":  {field: "LocalObjectReference", promoted: []string{"name"}},
	"io.k8s.api.core.v1.SecretKeySelector":     {field: "LocalObjectReference", promoted: []string{"name"}},
	"io.k8s.api.core.v1.ConfigMapEnvSource":    {field: "LocalObjectReference", promoted: []string{"name"}},
	"io.k8s.api.core.v1.SecretEnvSource":       {field: "LocalObjectReference", promoted: []string{"name"}},
	"io.k8s.api.networking.v1.IngressRule":     {field: "IngressRuleValue", promoted: []string{"http"}},
	"io.k8s.api.core.v1.PersistentVolumeSpec": {field: "PersistentVolumeSource", own: []string{"capacity", "accessModes", "claimRef",
		"persistentVolumeReclaimPolicy", "storageClassName", "mountOptions", "volumeMode", "nodeAffinity", "volumeAttributesClassName"}},
}

// via is the embedded Go field member comes through in definition name, or "".
func via(name, member string) string {
	in, ok := inlineStructs[name]
	if !ok {
		return ""
	}
	if in.promoted != nil {
		for _, p := range in.promoted {
			if p == member {
				return in.field
			}
		}
		return ""
	}
	for _, o := range in.own {
		if o == member {
			return ""
		}
	}
	return in.field
}

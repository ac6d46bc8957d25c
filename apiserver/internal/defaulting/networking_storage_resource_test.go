package defaulting

import (
	"testing"
	"time"
)

// groupCases are the kinds of networking.k8s.io, node.k8s.io, storage.k8s.io and
// resource.k8s.io. Each "want" is what kube-apiserver v1.36.3 stored for the same body.
var groupCases = []defaultCase{
	{
		name: "ingress status written out", group: "networking.k8s.io", version: "v1", kind: "Ingress",
		in:   `{"spec":{"defaultBackend":{"service":{"name":"x","port":{"number":80}}}}}`,
		want: `{"spec":{"defaultBackend":{"service":{"name":"x","port":{"number":80}}}},"status":{"loadBalancer":{}}}`,
	},
	{
		name: "ingress status kept", group: "networking.k8s.io", version: "v1", kind: "Ingress",
		in:   `{"spec":{},"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1"}]}}}`,
		want: `{"spec":{},"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1"}]}}}`,
	},
	{
		name: "ingress class parameters scope", group: "networking.k8s.io", version: "v1", kind: "IngressClass",
		in:   `{"spec":{"controller":"k8s.io/ingress-nginx","parameters":{"kind":"P","name":"p"}}}`,
		want: `{"spec":{"controller":"k8s.io/ingress-nginx","parameters":{"kind":"P","name":"p","scope":"Cluster"}}}`,
	},
	{
		name: "ingress class namespaced parameters kept", group: "networking.k8s.io", version: "v1", kind: "IngressClass",
		in:   `{"spec":{"controller":"c","parameters":{"kind":"P","name":"p","scope":"Namespace","namespace":"ns"}}}`,
		want: `{"spec":{"controller":"c","parameters":{"kind":"P","name":"p","scope":"Namespace","namespace":"ns"}}}`,
	},
	{
		name: "ingress class without parameters", group: "networking.k8s.io", version: "v1", kind: "IngressClass",
		in: `{"spec":{"controller":"c"}}`, want: `{"spec":{"controller":"c"}}`,
	},
	{
		name: "network policy without spec", group: "networking.k8s.io", version: "v1", kind: "NetworkPolicy",
		in: `{}`, want: `{"spec":{"podSelector":{},"policyTypes":["Ingress"]}}`,
	},
	{
		name: "network policy egress rules and ports", group: "networking.k8s.io", version: "v1", kind: "NetworkPolicy",
		in:   `{"spec":{"egress":[{}],"ingress":[{"ports":[{},{"protocol":"UDP","port":53}]}]}}`,
		want: `{"spec":{"egress":[{}],"ingress":[{"ports":[{"protocol":"TCP"},{"protocol":"UDP","port":53}]}],"podSelector":{},"policyTypes":["Ingress","Egress"]}}`,
	},
	{
		name: "network policy types kept", group: "networking.k8s.io", version: "v1", kind: "NetworkPolicy",
		in:   `{"spec":{"podSelector":{"matchLabels":{"a":"b"}},"policyTypes":["Egress"],"egress":[{"ports":[{"port":5432}]}]}}`,
		want: `{"spec":{"podSelector":{"matchLabels":{"a":"b"}},"policyTypes":["Egress"],"egress":[{"ports":[{"port":5432,"protocol":"TCP"}]}]}}`,
	},
	{name: "ipaddress has none", group: "networking.k8s.io", version: "v1", kind: "IPAddress",
		in: `{"spec":{"parentRef":{"resource":"services","name":"a"}}}`, want: `{"spec":{"parentRef":{"resource":"services","name":"a"}}}`},
	{name: "servicecidr has none", group: "networking.k8s.io", version: "v1", kind: "ServiceCIDR",
		in: `{"spec":{"cidrs":["10.1.0.0/16"]}}`, want: `{"spec":{"cidrs":["10.1.0.0/16"]}}`},
	{name: "runtimeclass has none", group: "node.k8s.io", version: "v1", kind: "RuntimeClass",
		in: `{"handler":"runc"}`, want: `{"handler":"runc"}`},
	{
		name: "storage class", group: "storage.k8s.io", version: "v1", kind: "StorageClass",
		in: `{"provisioner":"x.y/z"}`, want: `{"provisioner":"x.y/z","reclaimPolicy":"Delete","volumeBindingMode":"Immediate"}`,
	},
	{
		name: "storage class kept", group: "storage.k8s.io", version: "v1", kind: "StorageClass",
		in:   `{"provisioner":"p","reclaimPolicy":"Retain","volumeBindingMode":"WaitForFirstConsumer"}`,
		want: `{"provisioner":"p","reclaimPolicy":"Retain","volumeBindingMode":"WaitForFirstConsumer"}`,
	},
	{
		name: "csi driver without spec", group: "storage.k8s.io", version: "v1", kind: "CSIDriver",
		in: `{}`,
		want: `{"spec":{"attachRequired":true,"fsGroupPolicy":"ReadWriteOnceWithFSType","podInfoOnMount":false,"requiresRepublish":false,` +
			`"seLinuxMount":false,"storageCapacity":false,"volumeLifecycleModes":["Persistent"]}}`,
	},
	{
		name: "csi driver explicit values kept", group: "storage.k8s.io", version: "v1", kind: "CSIDriver",
		in: `{"spec":{"attachRequired":false,"podInfoOnMount":true,"seLinuxMount":true,"fsGroupPolicy":"File","volumeLifecycleModes":["Ephemeral"]}}`,
		want: `{"spec":{"attachRequired":false,"fsGroupPolicy":"File","podInfoOnMount":true,"requiresRepublish":false,` +
			`"seLinuxMount":true,"storageCapacity":false,"volumeLifecycleModes":["Ephemeral"]}}`,
	},
	{name: "csinode has none", group: "storage.k8s.io", version: "v1", kind: "CSINode",
		in: `{"spec":{"drivers":[]}}`, want: `{"spec":{"drivers":[]}}`},
	{name: "csistoragecapacity has none", group: "storage.k8s.io", version: "v1", kind: "CSIStorageCapacity",
		in: `{"storageClassName":"s"}`, want: `{"storageClassName":"s"}`},
	{name: "volumeattributesclass has none", group: "storage.k8s.io", version: "v1", kind: "VolumeAttributesClass",
		in: `{"driverName":"d"}`, want: `{"driverName":"d"}`},
	{
		name: "volume attachment", group: "storage.k8s.io", version: "v1", kind: "VolumeAttachment",
		in:   `{"spec":{"attacher":"a","nodeName":"n","source":{"persistentVolumeName":"pv"}}}`,
		want: `{"spec":{"attacher":"a","nodeName":"n","source":{"persistentVolumeName":"pv"}},"status":{"attached":false}}`,
	},
	{
		name: "volume attachment inline spec", group: "storage.k8s.io", version: "v1", kind: "VolumeAttachment",
		in: `{"spec":{"source":{"inlineVolumeSpec":{"hostPath":{"path":"/d"},"iscsi":{"targetPortal":"t"},"scaleIO":{"gateway":"g"}}}},"status":{"attached":true}}`,
		want: `{"spec":{"source":{"inlineVolumeSpec":{"hostPath":{"path":"/d","type":""},"iscsi":{"targetPortal":"t","iscsiInterface":"default"},` +
			`"scaleIO":{"gateway":"g","storageMode":"ThinProvisioned","fsType":"xfs"}}}},"status":{"attached":true}}`,
	},
	{name: "device class spec written out", group: "resource.k8s.io", version: "v1", kind: "DeviceClass", in: `{}`, want: `{"spec":{}}`},
	{
		name: "resource claim requests", group: "resource.k8s.io", version: "v1", kind: "ResourceClaim",
		in: `{"spec":{"devices":{"requests":[{"name":"a","exactly":{"deviceClassName":"x","allocationMode":"All","tolerations":[{"key":"k"}]}},` +
			`{"name":"b","firstAvailable":[{"name":"s","deviceClassName":"x"}]},{"name":"c","exactly":{"deviceClassName":"x","count":3}}]}}}`,
		want: `{"spec":{"devices":{"requests":[{"name":"a","exactly":{"deviceClassName":"x","allocationMode":"All","tolerations":[{"key":"k","operator":"Equal"}]}},` +
			`{"name":"b","firstAvailable":[{"name":"s","deviceClassName":"x","allocationMode":"ExactCount","count":1}]},` +
			`{"name":"c","exactly":{"deviceClassName":"x","allocationMode":"ExactCount","count":3}}]}}}`,
	},
	{
		name: "resource claim empty spec and allocation", group: "resource.k8s.io", version: "v1", kind: "ResourceClaim",
		in:   `{"spec":{},"status":{"allocation":{"devices":{"results":[{"request":"a","tolerations":[{"key":"k","operator":"Exists"},{"key":"j"}]}]}}}}`,
		want: `{"spec":{"devices":{}},"status":{"allocation":{"devices":{"results":[{"request":"a","tolerations":[{"key":"k","operator":"Exists"},{"key":"j","operator":"Equal"}]}]}}}}`,
	},
	{
		name: "resource claim template", group: "resource.k8s.io", version: "v1", kind: "ResourceClaimTemplate",
		in:   `{"spec":{"spec":{"devices":{"requests":[{"name":"g","exactly":{"deviceClassName":"x"}}]}}}}`,
		want: `{"spec":{"metadata":{},"spec":{"devices":{"requests":[{"name":"g","exactly":{"deviceClassName":"x","allocationMode":"ExactCount","count":1}}]}}}}`,
	},
	{
		name: "resource claim template empty", group: "resource.k8s.io", version: "v1", kind: "ResourceClaimTemplate",
		in: `{"spec":{"spec":{}}}`, want: `{"spec":{"metadata":{},"spec":{"devices":{}}}}`,
	},
	{
		name: "resource slice taints and mappings", group: "resource.k8s.io", version: "v1", kind: "ResourceSlice",
		in: `{"spec":{"driver":"d","devices":[{"name":"a","taints":[{"key":"k","effect":"NoSchedule"},{"key":"j","effect":"NoExecute","timeAdded":"2024-01-01T00:00:00Z"}],` +
			`"nodeAllocatableResourceMappings":{"cpu":{"capacityKey":"c"}}}]}}`,
		want: `{"spec":{"driver":"d","devices":[{"name":"a","taints":[{"key":"k","effect":"NoSchedule","timeAdded":"2026-01-02T03:04:05Z"},` +
			`{"key":"j","effect":"NoExecute","timeAdded":"2024-01-01T00:00:00Z"}],"nodeAllocatableResourceMappings":{"cpu":{"capacityKey":"c","allocationMultiplier":"1"}}}]}}`,
	},
}

// TestCh01_Defaulting_NetworkingStorageResource covers the kinds of networking.k8s.io,
// node.k8s.io, storage.k8s.io and resource.k8s.io, with a fixed clock for a taint's
// timeAdded.
func TestCh01_Defaulting_NetworkingStorageResource(t *testing.T) {
	old := now
	now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC) }
	t.Cleanup(func() { now = old })
	runCases(t, groupCases)
}

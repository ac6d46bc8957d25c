package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_Validation_RefusedAsReference checks creates the reference refuses with 422,
// each with the reference's message and causes: counts that may not be negative, enums,
// and the quirks of the real paths (a GCE disk under spec.persistentDisk, a webhook
// service's name and namespace swapped).
func TestCh01_Validation_RefusedAsReference(t *testing.T) {
	const (
		job      = `{"metadata":{"name":"j"},"spec":{%s"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}`
		pv       = `{"metadata":{"name":"pv"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"]%s}}`
		slice    = `{"metadata":{"name":"s"},"addressType":%q,"endpoints":[{"addresses":%s}],"ports":[{"port":80,"protocol":%q}]}`
		hookBody = `{"metadata":{"name":"w"},"webhooks":[{"name":"a.b.c","sideEffects":"None","admissionReviewVersions":["v1"],"clientConfig":{"service":%s}%s}]}`
	)
	tests := []struct {
		name, path, body string
		wantMsg          string
		wantCauses       []string
	}{
		{"job parallelism", "/apis/batch/v1/namespaces/default/jobs", fmtBody(job, `"parallelism":-1,`),
			`Job.batch "j" is invalid: spec.parallelism: Invalid value: -1: must be greater than or equal to 0`,
			[]string{"spec.parallelism: FieldValueInvalid"}},
		{"job ttl", "/apis/batch/v1/namespaces/default/jobs", fmtBody(job, `"ttlSecondsAfterFinished":-1,`),
			`Job.batch "j" is invalid: spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0`,
			[]string{"spec.ttlSecondsAfterFinished: FieldValueInvalid"}},
		{"cronjob backoffLimit", "/apis/batch/v1/namespaces/default/cronjobs",
			`{"metadata":{"name":"cj"},"spec":{"schedule":"* * * * *","jobTemplate":{"spec":{"backoffLimit":-1,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}}}`,
			`CronJob.batch "cj" is invalid: spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0`,
			[]string{"spec.jobTemplate.spec.backoffLimit: FieldValueInvalid"}},
		{"lease duration", "/apis/coordination.k8s.io/v1/namespaces/default/leases", `{"metadata":{"name":"l"},"spec":{"leaseDurationSeconds":-1}}`,
			`Lease.coordination.k8s.io "l" is invalid: spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0`,
			[]string{"spec.leaseDurationSeconds: FieldValueInvalid"}},
		{"lease transitions", "/apis/coordination.k8s.io/v1/namespaces/default/leases", `{"metadata":{"name":"l"},"spec":{"leaseTransitions":-1}}`,
			`Lease.coordination.k8s.io "l" is invalid: spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0`,
			[]string{"spec.leaseTransitions: FieldValueInvalid"}},
		{"pv reclaim policy", "/api/v1/persistentvolumes", fmtBody(pv, `,"persistentVolumeReclaimPolicy":"NotInTheEnum","hostPath":{"path":"/a"}`),
			`PersistentVolume "pv" is invalid: spec.persistentVolumeReclaimPolicy: Unsupported value: "NotInTheEnum": supported values: "Delete", "Recycle", "Retain"`,
			[]string{"spec.persistentVolumeReclaimPolicy: FieldValueNotSupported"}},
		{"pv nfs path", "/api/v1/persistentvolumes", fmtBody(pv, `,"nfs":{"server":"s"}`),
			`PersistentVolume "pv" is invalid: [spec.nfs.path: Required value, spec.nfs.path: Invalid value: "": must be an absolute path]`,
			[]string{"spec.nfs.path: FieldValueRequired", "spec.nfs.path: FieldValueInvalid"}},
		{"pv gce pdName", "/api/v1/persistentvolumes", fmtBody(pv, `,"gcePersistentDisk":{"fsType":"ext4"}`),
			`PersistentVolume "pv" is invalid: spec.persistentDisk.pdName: Required value`,
			[]string{"spec.persistentDisk.pdName: FieldValueRequired"}},
		{"pvc volumeMode", "/api/v1/namespaces/default/persistentvolumeclaims",
			`{"metadata":{"name":"c"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"NotInTheEnum"}}`,
			`PersistentVolumeClaim "c" is invalid: spec.volumeMode: Unsupported value: "NotInTheEnum": supported values: "Block", "Filesystem"`,
			[]string{"spec.volumeMode: FieldValueNotSupported"}},
		{"runtimeclass toleration effect", "/apis/node.k8s.io/v1/runtimeclasses",
			`{"metadata":{"name":"r"},"handler":"h","scheduling":{"tolerations":[{"key":"k","operator":"Exists","effect":"NotInTheEnum"}]}}`,
			`RuntimeClass.node.k8s.io "r" is invalid: scheduling.tolerations[0].effect: Unsupported value: "NotInTheEnum": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
			[]string{"scheduling.tolerations[0].effect: FieldValueNotSupported"}},
		{"runtimeclass toleration operator", "/apis/node.k8s.io/v1/runtimeclasses",
			`{"metadata":{"name":"r"},"handler":"h","scheduling":{"tolerations":[{"key":"k","operator":"NotInTheEnum"}]}}`,
			`RuntimeClass.node.k8s.io "r" is invalid: scheduling.tolerations[0].operator: Unsupported value: "NotInTheEnum": supported values: "Equal", "Exists"`,
			[]string{"scheduling.tolerations[0].operator: FieldValueNotSupported"}},
		{"endpointslice addressType", "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", fmtBody(slice, "NotInTheEnum", `["10.0.0.1"]`, "TCP"),
			`EndpointSlice.discovery.k8s.io "s" is invalid: addressType: Unsupported value: "NotInTheEnum": supported values: "FQDN", "IPv4", "IPv6"`,
			[]string{"addressType: FieldValueNotSupported"}},
		{"endpointslice protocol", "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", fmtBody(slice, "IPv4", `["10.0.0.1"]`, "NotInTheEnum"),
			`EndpointSlice.discovery.k8s.io "s" is invalid: ports[0].protocol: Unsupported value: "NotInTheEnum": supported values: "SCTP", "TCP", "UDP"`,
			[]string{"ports[0].protocol: FieldValueNotSupported"}},
		{"endpointslice no address", "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", fmtBody(slice, "IPv4", `[]`, "TCP"),
			`EndpointSlice.discovery.k8s.io "s" is invalid: endpoints[0].addresses: Required value: must contain at least 1 address`,
			[]string{"endpoints[0].addresses: FieldValueRequired"}},
		{"webhook service without namespace", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", fmtBody(hookBody, `{"name":"s"}`, ""),
			`ValidatingWebhookConfiguration.admissionregistration.k8s.io "w" is invalid: webhooks[0].clientConfig.service.name: Required value`,
			[]string{"webhooks[0].clientConfig.service.name: FieldValueRequired"}},
		{"webhook matchCondition name", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
			fmtBody(hookBody, `{"name":"s","namespace":"n"}`, `,"matchConditions":[{"expression":"true"}]`),
			`ValidatingWebhookConfiguration.admissionregistration.k8s.io "w" is invalid: webhooks[0].matchConditions[0].name: Required value`,
			[]string{"webhooks[0].matchConditions[0].name: FieldValueRequired"}},
		{"webhook namespaceSelector operator", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
			fmtBody(hookBody, `{"name":"s","namespace":"n"}`, `,"namespaceSelector":{"matchExpressions":[{"key":"k"}]}`),
			`MutatingWebhookConfiguration.admissionregistration.k8s.io "w" is invalid: webhooks[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "": not a valid selector operator`,
			[]string{"webhooks[0].namespaceSelector.matchExpressions[0].operator: FieldValueInvalid"}},
		{"policy binding namespaceSelector", "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings",
			`{"metadata":{"name":"b"},"spec":{"policyName":"p","matchResources":{"namespaceSelector":{"matchExpressions":[{"key":"k"}]}}}}`,
			`MutatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.matchResources.namespaceSelector.matchExpressions[0].operator: Invalid value: "": not a valid selector operator`,
			[]string{"spec.matchResources.namespaceSelector.matchExpressions[0].operator: FieldValueInvalid"}},
		{"csidriver token expiration", "/apis/storage.k8s.io/v1/csidrivers",
			`{"metadata":{"name":"d.example.com"},"spec":{"tokenRequests":[{"audience":"","expirationSeconds":-1}]}}`,
			`CSIDriver.storage.k8s.io "d.example.com" is invalid: spec.tokenRequests[0].expirationSeconds: Invalid value: -1: may not specify a duration less than 10 minutes`,
			[]string{"spec.tokenRequests[0].expirationSeconds: FieldValueInvalid"}},
		{"csinode allocatable", "/apis/storage.k8s.io/v1/csinodes",
			`{"metadata":{"name":"n"},"spec":{"drivers":[{"name":"d.example.com","nodeID":"n","allocatable":{"count":-1}}]}}`,
			`CSINode.storage.k8s.io "n" is invalid: spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0`,
			[]string{"spec.drivers[0].allocatable.count: FieldValueInvalid"}},
		{"volumeattachment source", "/apis/storage.k8s.io/v1/volumeattachments",
			`{"metadata":{"name":"va"},"spec":{"attacher":"d.example.com","nodeName":"n"}}`,
			`VolumeAttachment.storage.k8s.io "va" is invalid: spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName`,
			[]string{"spec.source: FieldValueRequired"}},
		{"csistoragecapacity class", "/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities",
			`{"metadata":{"name":"c"}}`,
			`CSIStorageCapacity.storage.k8s.io "c" is invalid: storageClassName: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			[]string{"storageClassName: FieldValueInvalid"}},
		{"resourceslice pool", "/apis/resource.k8s.io/v1/resourceslices",
			`{"metadata":{"name":"rs"},"spec":{"driver":"d.example.com","allNodes":true,"pool":{"name":"p","generation":-1,"resourceSliceCount":-1}}}`,
			`ResourceSlice.resource.k8s.io "rs" is invalid: [spec.pool.resourceSliceCount: Invalid value: -1: must be greater than zero, spec.pool.generation: Invalid value: -1: must be greater than or equal to zero]`,
			[]string{"spec.pool.resourceSliceCount: FieldValueInvalid", "spec.pool.generation: FieldValueInvalid"}},
		{"resourceslice without spec", "/apis/resource.k8s.io/v1/resourceslices", `{"metadata":{"name":"rs"}}`,
			"ResourceSlice.resource.k8s.io \"rs\" is invalid: [spec.driver: Required value, spec.pool.name: Required value, spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero, spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required]",
			[]string{"spec.driver: FieldValueRequired", "spec.pool.name: FieldValueRequired", "spec.pool.resourceSliceCount: FieldValueInvalid", "spec: FieldValueRequired"}},
		{"resourceclaimtemplate count", "/apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates",
			`{"metadata":{"name":"t"},"spec":{"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"c","count":-1}}]}}}}`,
			`ResourceClaimTemplate.resource.k8s.io "t" is invalid: spec.spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero`,
			[]string{"spec.spec.devices.requests[0].exactly.count: FieldValueInvalid"}},
		{"resourcequota scope operator", "/api/v1/namespaces/default/resourcequotas",
			`{"metadata":{"name":"q"},"spec":{"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"NotInTheEnum","values":["a"]}]}}}`,
			`ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "NotInTheEnum": not a valid selector operator`,
			[]string{"spec.scopeSelector.matchExpressions.operator: FieldValueInvalid"}},
		{"resourcequota scope name", "/api/v1/namespaces/default/resourcequotas",
			`{"metadata":{"name":"q"},"spec":{"scopeSelector":{"matchExpressions":[{"operator":"In","values":["a"]}]}}}`,
			`ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.scopeName: Invalid value: "": unsupported scope`,
			[]string{"spec.scopeSelector.matchExpressions.scopeName: FieldValueInvalid"}},
		{"hpa resource metric target", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
			`{"metadata":{"name":"h"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d","apiVersion":"apps/v1"},"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":-1}}}]}}`,
			`HorizontalPodAutoscaler.autoscaling "h" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: -1: must be greater than 0`,
			[]string{"spec.metrics[0].resource.target.averageUtilization: FieldValueInvalid"}},
		{"hpa metric type", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
			`{"metadata":{"name":"h"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d","apiVersion":"apps/v1"},"maxReplicas":3,"metrics":[{"resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}}`,
			`HorizontalPodAutoscaler.autoscaling "h" is invalid: [spec.metrics[0].type: Required value: must specify a metric source type, spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"]`,
			[]string{"spec.metrics[0].type: FieldValueRequired", "spec.metrics[0].type: FieldValueNotSupported", "spec.metrics[0].type: FieldValueNotSupported"}},
		{"pod seccomp localhostProfile", "/api/v1/namespaces/default/pods",
			`{"metadata":{"name":"p"},"spec":{"securityContext":{"seccompProfile":{"type":"NotInTheEnum","localhostProfile":"dummy.json"}},"containers":[{"name":"c","image":"x"}]}}`,
			`Pod "p" is invalid: [spec.securityContext.seccompProfile.type: Unsupported value: "NotInTheEnum": supported values: "Localhost", "RuntimeDefault", "Unconfined", spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"NotInTheEnum","LocalhostProfile":"dummy.json"}: can only be set when seccomp type is Localhost]`,
			[]string{"spec.securityContext.seccompProfile.type: FieldValueNotSupported", "spec.securityContext.seccompProfile.localhostProfile: FieldValueInvalid"}},
		{"pod secret volume item", "/api/v1/namespaces/default/pods",
			`{"metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","secret":{"secretName":"s","items":[{"path":"a"}]}}],"containers":[{"name":"c","image":"x","volumeMounts":[{"name":"v","mountPath":"/v"}]}]}}`,
			`Pod "p" is invalid: [spec.volumes[0].secret.items[0].key: Required value, spec.containers[0].volumeMounts[0].name: Not found: "v"]`,
			[]string{"spec.volumes[0].secret.items[0].key: FieldValueRequired", "spec.containers[0].volumeMounts[0].name: FieldValueNotFound"}},
		{"ingress backend", "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
			`{"metadata":{"name":"i"},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Prefix","backend":{}}]}}]}}`,
			`Ingress.networking.k8s.io "i" is invalid: spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required`,
			[]string{"spec.rules[0].http.paths[0].backend: FieldValueInvalid"}},
		{"node taint effect", "/api/v1/nodes", `{"metadata":{"name":"n"},"spec":{"taints":[{"key":"k"}]}}`,
			`Node "n" is invalid: metadata.taints[0].effect: Required value`,
			[]string{"metadata.taints[0].effect: FieldValueRequired"}},
		{"apiservice name before labels", "/apis/apiregistration.k8s.io/v1/apiservices",
			`{"metadata":{"name":"x","labels":{"a":"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"}},"spec":{"group":"g.io","version":"v1","groupPriorityMinimum":1,"versionPriority":1}}`,
			"APIService.apiregistration.k8s.io \"x\" is invalid: [metadata.name: Invalid value: \"x\": must be `spec.version+\".\"+spec.group`: \"v1.g.io\", metadata.labels: Invalid value: \"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\": must be no more than 63 bytes]",
			[]string{"metadata.name: FieldValueInvalid", "metadata.labels: FieldValueInvalid"}},
		{"cronjob name length", "/apis/batch/v1/namespaces/default/cronjobs",
			`{"metadata":{"name":"ccccccccccccccccccccccccccccccccccccccccccccccccccccc"},"spec":{"schedule":"* * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}}}`,
			`CronJob.batch "ccccccccccccccccccccccccccccccccccccccccccccccccccccc" is invalid: metadata.name: Invalid value: "ccccccccccccccccccccccccccccccccccccccccccccccccccccc": must be no more than 52 characters`,
			[]string{"metadata.name: FieldValueInvalid"}},
		{"pod weighted term without podAffinityTerm", "/api/v1/namespaces/default/pods",
			`{"metadata":{"name":"p"},"spec":{"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1}]}},"containers":[{"name":"c","image":"x"}]}}`,
			"Pod \"p\" is invalid: [spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty, spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: \"\": name part must be non-empty, spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]",
			[]string{"spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: FieldValueRequired", "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: FieldValueInvalid", "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: FieldValueInvalid"}},
	}
	_, c := newServer(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", tt.path, tt.body)
			require.Equal(t, 422, r.code, "%s", r.body)
			assert.Equal(t, tt.wantMsg, r.status(t).Message)
			assert.Equal(t, tt.wantCauses, causeReasons(t, r))
		})
	}
}

// TestCh01_Validation_WarningsBeforeStorageRefusal checks that a create the storage refuses
// (a resourceVersion set) still carries the strategy's warnings, which the real BeforeCreate
// sends as soon as validation passes.
func TestCh01_Validation_WarningsBeforeStorageRefusal(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("POST", "/apis/apps/v1/namespaces/default/deployments",
		`{"metadata":{"name":"d","resourceVersion":"5"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"terminationGracePeriodSeconds":-1,"containers":[{"name":"c","image":"x"}]}}}}`)
	require.Equal(t, 500, r.code, "%s", r.body)
	assert.Equal(t, "resourceVersion should not be set on objects to be created", r.status(t).Message)
	assert.Equal(t, []string{`299 - "spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"`},
		r.header.Values("Warning"))
}

// TestCh01_Validation_IngressRuleValueInTypeError checks that a type error under an
// Ingress rule's http names the embedded IngressRuleValue, as encoding/json does.
func TestCh01_Validation_IngressRuleValueInTypeError(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("POST", "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
		`{"metadata":{"name":"i"},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"s","port":{"number":2147483648}}}}]}}]}}`)
	require.Equal(t, 400, r.code, "%s", r.body)
	assert.Equal(t, `Ingress in version "v1" cannot be handled as a Ingress: json: cannot unmarshal number 2147483648 into Go struct field ServiceBackendPort.spec.rules.IngressRuleValue.http.paths.backend.service.port.number of type int32`,
		r.status(t).Message)
}

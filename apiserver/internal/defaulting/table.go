package defaulting

import (
	"cmp"
	"slices"
	"strings"
)

// Applied is one default that Default applies: on which kind, at which field path, which
// value, under which condition, and where upstream keeps it. Chapter 01 prints the list.
type Applied struct {
	Group, Version, Kind string
	// Path is the field path; [*] stands for every element of a list.
	Path string
	// Value is the default as JSON-ish text; a value in <angle brackets> is computed.
	Value string
	// When is the condition beyond "the field is unset"; "" means always.
	When string
	// Source names the upstream function that applies it.
	Source string
}

// row is one default relative to the object or pod spec it belongs to.
type row struct{ path, value, when, source string }

// containerRows are the defaults of one container; ports, env and probes are lists or
// optional members under it.
var containerRows = []row{
	{"imagePullPolicy", "Always | IfNotPresent", "Always when the image's tag is latest or missing", "SetDefaults_Container"},
	{"terminationMessagePath", "/dev/termination-log", "", "SetDefaults_Container"},
	{"terminationMessagePolicy", "File", "", "SetDefaults_Container"},
	{"resources", "{}", "always printed by a typed server", "(serialisation)"},
	{"ports[*].protocol", "TCP", "", "+default in core/v1 types"},
	{"env[*].valueFrom.fieldRef.apiVersion", "v1", "", "SetDefaults_ObjectFieldSelector"},
	{"env[*].valueFrom.fileKeyRef.optional", "false", "", "+default in core/v1 types"},
	{"<probe>.timeoutSeconds", "1", "for livenessProbe, readinessProbe, startupProbe", "SetDefaults_Probe"},
	{"<probe>.periodSeconds", "10", "", "SetDefaults_Probe"},
	{"<probe>.successThreshold", "1", "", "SetDefaults_Probe"},
	{"<probe>.failureThreshold", "3", "", "SetDefaults_Probe"},
	{"<probe>.httpGet.path", "/", "", "SetDefaults_HTTPGetAction"},
	{"<probe>.httpGet.scheme", "HTTP", "", "SetDefaults_HTTPGetAction"},
	{"<probe>.grpc.service", `""`, "", "+default in core/v1 types"},
	{"lifecycle.<postStart|preStop>.httpGet.path", "/", "", "SetDefaults_HTTPGetAction"},
	{"lifecycle.<postStart|preStop>.httpGet.scheme", "HTTP", "", "SetDefaults_HTTPGetAction"},
}

// podSpecRows are the defaults of any pod spec, a template's included.
var podSpecRows = []row{
	{"dnsPolicy", "ClusterFirst", "", "SetDefaults_PodSpec"},
	{"restartPolicy", "Always", "", "SetDefaults_PodSpec"},
	{"securityContext", "{}", "", "SetDefaults_PodSpec"},
	{"terminationGracePeriodSeconds", "30", "", "SetDefaults_PodSpec"},
	{"schedulerName", "default-scheduler", "", "SetDefaults_PodSpec"},
	{"volumes[*].emptyDir", "{}", "a volume with no source", "SetDefaults_Volume"},
	{"volumes[*].<secret|configMap|downwardAPI|projected>.defaultMode", "420", "", "SetDefaults_*VolumeSource"},
	{"volumes[*].hostPath.type", `""`, "", "SetDefaults_HostPathVolumeSource"},
	{"volumes[*].downwardAPI.items[*].fieldRef.apiVersion", "v1", "", "SetDefaults_ObjectFieldSelector"},
	{"volumes[*].projected.sources[*].serviceAccountToken.expirationSeconds", "3600", "", "SetDefaults_ServiceAccountTokenProjection"},
	{"volumes[*].ephemeral.volumeClaimTemplate.spec.volumeMode", "Filesystem", "", "SetDefaults_PersistentVolumeClaimSpec"},
	{"volumes[*].image.pullPolicy", "Always | IfNotPresent", "by the reference's tag (ImageVolume, GA)", "SetDefaults_Volume"},
	{"volumes[*].iscsi.iscsiInterface", "default", "", "+default in core/v1 types"},
	{"volumes[*].rbd.<pool|user|keyring>", "rbd | admin | /etc/ceph/keyring", "", "+default in core/v1 types"},
	{"volumes[*].azureDisk.<cachingMode|fsType|readOnly|kind>", "ReadWrite | ext4 | false | Shared", "", "+default in core/v1 types"},
	{"volumes[*].scaleIO.<storageMode|fsType>", "ThinProvisioned | xfs", "", "+default in core/v1 types"},
}

// podRows are the defaults only a Pod gets.
var podRows = []row{
	{"spec.enableServiceLinks", "true", "", "SetDefaults_Pod"},
	{"spec.<containers|initContainers>[*].resources.requests", "<each limit>", "a resource with a limit and no request", "SetDefaults_Pod"},
	{"spec.<containers|initContainers>[*].ports[*].hostPort", "<containerPort>", "spec.hostNetwork is true", "SetDefaults_Pod"},
	{"spec.resources.requests", "<pod-level limit>", "a pod-level limit no container requests (PodLevelResources, beta, on)", "defaultPodRequests"},
}

var kindRows = map[kindKey][]row{
	{"", "v1", "Service"}: {
		{"spec.type", "ClusterIP", "", "SetDefaults_Service"},
		{"spec.sessionAffinity", "None", "", "SetDefaults_Service"},
		{"spec.sessionAffinityConfig.clientIP.timeoutSeconds", "10800", "sessionAffinity is ClientIP", "SetDefaults_Service"},
		{"spec.ports[*].protocol", "TCP", "", "SetDefaults_Service"},
		{"spec.ports[*].targetPort", "<port>", "", "SetDefaults_Service"},
		{"spec.internalTrafficPolicy", "Cluster", "type ClusterIP, NodePort or LoadBalancer", "SetDefaults_Service"},
		{"spec.externalTrafficPolicy", "Cluster", "type NodePort or LoadBalancer, or externalIPs set", "SetDefaults_Service"},
		{"spec.allocateLoadBalancerNodePorts", "true", "type LoadBalancer", "SetDefaults_Service"},
		{"status.loadBalancer.ingress[*].ipMode", "VIP", "type LoadBalancer and the ingress has an ip", "SetDefaults_Service"},
		{"spec.clusterIPs", "[<clusterIP>]", "clusterIP set, not ExternalName", "normalizeClusterIPs"},
		{"spec.ipFamilyPolicy", "SingleStack", "not ExternalName; RequireDualStack when headless without selector", "initIPFamilyFields"},
		{"spec.ipFamilies", `["IPv4"]`, "not ExternalName; the clusterIPs' families when given", "initIPFamilyFields"},
		{"spec.clusterIP", "<allocated>", "on create, by ClusterIPAllocator.AllocateService", "allocClusterIPs"},
	},
	{"", "v1", "Secret"}: {
		{"type", "Opaque", "", "SetDefaults_Secret"},
		{"data", "<base64 of each stringData entry>", "stringData set; stringData is then removed", "Convert_v1_Secret_To_core_Secret"},
	},
	{"", "v1", "Namespace"}: {
		{"metadata.labels.kubernetes.io/metadata.name", "<metadata.name>", "the namespace has a name", "SetDefaults_Namespace"},
		{"status.phase", "Active", "", "SetDefaults_NamespaceStatus"},
	},
	{"", "v1", "Node"}:      {{"status.allocatable", "<status.capacity>", "capacity set", "SetDefaults_NodeStatus"}},
	{"", "v1", "Endpoints"}: {{"subsets[*].ports[*].protocol", "TCP", "", "SetDefaults_Endpoints"}},
	{"", "v1", "PersistentVolumeClaim"}: {
		{"status.phase", "Pending", "", "SetDefaults_PersistentVolumeClaim"},
		{"spec.volumeMode", "Filesystem", "", "SetDefaults_PersistentVolumeClaimSpec"},
	},
	{"", "v1", "PersistentVolume"}: {
		{"status.phase", "Pending", "", "SetDefaults_PersistentVolume"},
		{"spec.persistentVolumeReclaimPolicy", "Retain", "", "SetDefaults_PersistentVolume"},
		{"spec.volumeMode", "Filesystem", "", "SetDefaults_PersistentVolume"},
	},
	{"", "v1", "ReplicationController"}: {
		{"spec.replicas", "1", "", "+default in core/v1 types"},
		{"spec.selector", "<template labels>", "selector empty", "SetDefaults_ReplicationController"},
		{"metadata.labels", "<template labels>", "labels empty", "SetDefaults_ReplicationController"},
	},
	{"", "v1", "LimitRange"}: {
		{"spec.limits[*].default", "<max>", "type Container, per resource not set", "SetDefaults_LimitRangeItem"},
		{"spec.limits[*].defaultRequest", "<default, else min>", "type Container, per resource not set", "SetDefaults_LimitRangeItem"},
	},
	{"autoscaling", "v2", "HorizontalPodAutoscaler"}: {
		{"spec.minReplicas", "1", "", "SetDefaults_HorizontalPodAutoscaler"},
		{"spec.metrics", `[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]`, "no metric", "SetDefaults_HorizontalPodAutoscaler"},
		{"spec.behavior.scaleUp", "stabilizationWindowSeconds 0, selectPolicy Max, policies Pods 4 and Percent 100 per 15s", "behavior set, per member not set", "SetDefaults_HorizontalPodAutoscalerBehavior"},
		{"spec.behavior.scaleDown", "selectPolicy Max, policies Percent 100 per 15s", "behavior set, per member not set", "SetDefaults_HorizontalPodAutoscalerBehavior"},
	},
	{"autoscaling", "v1", "HorizontalPodAutoscaler"}: {
		{"spec.minReplicas", "1", "", "SetDefaults_HorizontalPodAutoscaler"},
		{"spec.targetCPUUtilizationPercentage", "80", "no metric in spec or annotations; applied by the conversion to v2", "Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler"},
	},
	{"scheduling.k8s.io", "v1", "PriorityClass"}: {{"preemptionPolicy", "PreemptLowerPriority", "", "SetDefaults_PriorityClass"}},
	{"apps", "v1", "Deployment"}: {
		{"spec.replicas", "1", "", "SetDefaults_Deployment"},
		{"spec.strategy.type", "RollingUpdate", "", "SetDefaults_Deployment"},
		{"spec.strategy.rollingUpdate.maxUnavailable", "25%", "type RollingUpdate", "SetDefaults_Deployment"},
		{"spec.strategy.rollingUpdate.maxSurge", "25%", "type RollingUpdate", "SetDefaults_Deployment"},
		{"spec.revisionHistoryLimit", "10", "", "SetDefaults_Deployment"},
		{"spec.progressDeadlineSeconds", "600", "", "SetDefaults_Deployment"},
	},
	{"apps", "v1", "ReplicaSet"}: {{"spec.replicas", "1", "", "SetDefaults_ReplicaSet"}},
	{"apps", "v1", "StatefulSet"}: {
		{"spec.replicas", "1", "", "SetDefaults_StatefulSet"},
		{"spec.podManagementPolicy", "OrderedReady", "", "SetDefaults_StatefulSet"},
		{"spec.updateStrategy.type", "RollingUpdate", "", "SetDefaults_StatefulSet"},
		{"spec.updateStrategy.rollingUpdate.partition", "0", "type RollingUpdate and rollingUpdate present or type defaulted", "SetDefaults_StatefulSet"},
		{"spec.persistentVolumeClaimRetentionPolicy.whenDeleted", "Retain", "", "SetDefaults_StatefulSet"},
		{"spec.persistentVolumeClaimRetentionPolicy.whenScaled", "Retain", "", "SetDefaults_StatefulSet"},
		{"spec.revisionHistoryLimit", "10", "", "SetDefaults_StatefulSet"},
		{"spec.volumeClaimTemplates[*].status.phase", "Pending", "", "SetDefaults_PersistentVolumeClaim"},
		{"spec.volumeClaimTemplates[*].spec.volumeMode", "Filesystem", "", "SetDefaults_PersistentVolumeClaimSpec"},
	},
	{"apps", "v1", "DaemonSet"}: {
		{"spec.updateStrategy.type", "RollingUpdate", "", "SetDefaults_DaemonSet"},
		{"spec.updateStrategy.rollingUpdate.maxUnavailable", "1", "type RollingUpdate", "SetDefaults_DaemonSet"},
		{"spec.updateStrategy.rollingUpdate.maxSurge", "0", "type RollingUpdate", "SetDefaults_DaemonSet"},
		{"spec.revisionHistoryLimit", "10", "", "SetDefaults_DaemonSet"},
	},
	{"batch", "v1", "Job"}: {
		{"spec.completions", "1", "parallelism unset too", "SetDefaults_Job"},
		{"spec.parallelism", "1", "", "SetDefaults_Job"},
		{"spec.backoffLimit", "6", "2147483647 with backoffLimitPerIndex", "SetDefaults_Job"},
		{"spec.completionMode", "NonIndexed", "", "SetDefaults_Job"},
		{"spec.suspend", "false", "", "SetDefaults_Job"},
		{"spec.podReplacementPolicy", "TerminatingOrFailed", "Failed with a podFailurePolicy (JobPodReplacementPolicy, GA)", "SetDefaults_Job"},
		{"spec.manualSelector", "false", "", "SetDefaults_Job"},
		{"spec.podFailurePolicy.rules[*].onPodConditions[*].status", "True", "podFailurePolicy set", "SetDefaults_PodFailurePolicyOnPodConditionsPattern"},
		{"metadata.labels", "<template labels>", "labels empty", "SetDefaults_Job"},
	},
	{"batch", "v1", "CronJob"}: {
		{"spec.concurrencyPolicy", "Allow", "", "SetDefaults_CronJob"},
		{"spec.suspend", "false", "", "SetDefaults_CronJob"},
		{"spec.successfulJobsHistoryLimit", "3", "", "SetDefaults_CronJob"},
		{"spec.failedJobsHistoryLimit", "1", "", "SetDefaults_CronJob"},
		{"spec.jobTemplate.spec.podFailurePolicy.rules[*].onPodConditions[*].status", "True", "podFailurePolicy set", "SetDefaults_PodFailurePolicyOnPodConditionsPattern"},
	},
	{"discovery.k8s.io", "v1", "EndpointSlice"}: {
		{"ports[*].name", `""`, "", "SetDefaults_EndpointPort"},
		{"ports[*].protocol", "TCP", "", "SetDefaults_EndpointPort"},
	},
	{"networking.k8s.io", "v1", "Ingress"}: {{"status.loadBalancer", "{}", "", "(serialisation)"}},
	{"networking.k8s.io", "v1", "IngressClass"}: {
		{"spec.parameters.scope", "Cluster", "parameters set", "SetDefaults_IngressClass"},
	},
	{"networking.k8s.io", "v1", "NetworkPolicy"}: {
		{"spec.podSelector", "{}", "", "(serialisation)"},
		{"spec.policyTypes", `["Ingress"] | ["Ingress","Egress"]`, "Egress too when there are egress rules", "SetDefaults_NetworkPolicy"},
		{"spec.<ingress|egress>[*].ports[*].protocol", "TCP", "", "SetDefaults_NetworkPolicyPort"},
	},
	{"storage.k8s.io", "v1", "StorageClass"}: {
		{"reclaimPolicy", "Delete", "", "SetDefaults_StorageClass"},
		{"volumeBindingMode", "Immediate", "", "SetDefaults_StorageClass"},
	},
	{"storage.k8s.io", "v1", "CSIDriver"}: {
		{"spec.attachRequired", "true", "", "SetDefaults_CSIDriver"},
		{"spec.podInfoOnMount", "false", "", "SetDefaults_CSIDriver"},
		{"spec.storageCapacity", "false", "", "SetDefaults_CSIDriver"},
		{"spec.fsGroupPolicy", "ReadWriteOnceWithFSType", "", "SetDefaults_CSIDriver"},
		{"spec.volumeLifecycleModes", `["Persistent"]`, "", "SetDefaults_CSIDriver"},
		{"spec.requiresRepublish", "false", "", "SetDefaults_CSIDriver"},
		{"spec.seLinuxMount", "false", "SELinuxMountReadWriteOncePod, GA", "SetDefaults_CSIDriver"},
	},
	{"storage.k8s.io", "v1", "VolumeAttachment"}: {
		{"spec.source.inlineVolumeSpec.<hostPath|rbd|iscsi|azureDisk|scaleIO>.*", "as a PersistentVolume's", "an inline volume spec", "SetObjectDefaults_VolumeAttachment"},
		{"status.attached", "false", "", "(serialisation)"},
	},
	{"resource.k8s.io", "v1", "DeviceClass"}: {{"spec", "{}", "", "(serialisation)"}},
	{"resource.k8s.io", "v1", "ResourceClaim"}: {
		{"spec.devices", "{}", "", "(serialisation)"},
		{"spec.devices.requests[*].<exactly|firstAvailable[*]>.allocationMode", "ExactCount", "", "SetDefaults_ExactDeviceRequest, SetDefaults_DeviceSubRequest"},
		{"spec.devices.requests[*].<exactly|firstAvailable[*]>.count", "1", "allocationMode ExactCount", "SetDefaults_ExactDeviceRequest, SetDefaults_DeviceSubRequest"},
		{"spec.devices.requests[*].<exactly|firstAvailable[*]>.tolerations[*].operator", "Equal", "", "+default in resource/v1 types"},
		{"status.allocation.devices.results[*].tolerations[*].operator", "Equal", "an allocation is set", "+default in resource/v1 types"},
	},
	{"resource.k8s.io", "v1", "ResourceClaimTemplate"}: {
		{"spec.metadata", "{}", "", "(serialisation)"},
		{"spec.spec.devices", "{}", "", "(serialisation)"},
		{"spec.spec.devices.requests[*].<exactly|firstAvailable[*]>.allocationMode", "ExactCount", "", "SetDefaults_ExactDeviceRequest, SetDefaults_DeviceSubRequest"},
		{"spec.spec.devices.requests[*].<exactly|firstAvailable[*]>.count", "1", "allocationMode ExactCount", "SetDefaults_ExactDeviceRequest, SetDefaults_DeviceSubRequest"},
		{"spec.spec.devices.requests[*].<exactly|firstAvailable[*]>.tolerations[*].operator", "Equal", "", "+default in resource/v1 types"},
	},
	{"resource.k8s.io", "v1", "ResourceSlice"}: {
		{"spec.devices[*].taints[*].timeAdded", "<the time of the write>", "", "SetDefaults_DeviceTaint"},
		{"spec.devices[*].nodeAllocatableResourceMappings.<resource>.allocationMultiplier", "1", "", "SetDefaults_Device"},
	},
	{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"}: webhookRows("SetDefaults_ValidatingWebhook"),
	{"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"}: append(webhookRows("SetDefaults_MutatingWebhook"),
		row{"webhooks[*].reinvocationPolicy", "Never", "", "SetDefaults_MutatingWebhook"}),
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"}:        policyRows("SetDefaults_ValidatingAdmissionPolicySpec"),
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy"}:          policyRows("SetDefaults_MutatingAdmissionPolicySpec"),
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"}: matchResourcesRows("spec.matchResources"),
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding"}:   matchResourcesRows("spec.matchResources"),
	{"flowcontrol.apiserver.k8s.io", "v1", "FlowSchema"}: {
		{"spec.matchingPrecedence", "1000", "", "SetDefaults_FlowSchemaSpec"},
	},
	{"flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration"}: {
		{"spec.limited.nominalConcurrencyShares", "30", "spec.limited set", "SetDefaults_LimitedPriorityLevelConfiguration"},
		{"spec.limited.lendablePercent", "0", "spec.limited set", "SetDefaults_LimitedPriorityLevelConfiguration"},
		{"spec.limited.limitResponse.queuing.handSize", "8", "queuing set", "SetDefaults_QueuingConfiguration"},
		{"spec.limited.limitResponse.queuing.queues", "64", "queuing set", "SetDefaults_QueuingConfiguration"},
		{"spec.limited.limitResponse.queuing.queueLengthLimit", "50", "queuing set", "SetDefaults_QueuingConfiguration"},
		{"spec.exempt.nominalConcurrencyShares", "0", "spec.exempt set", "SetDefaults_ExemptPriorityLevelConfiguration"},
		{"spec.exempt.lendablePercent", "0", "spec.exempt set", "SetDefaults_ExemptPriorityLevelConfiguration"},
	},
	{"apiregistration.k8s.io", "v1", "APIService"}: {
		{"spec.service.port", "443", "spec.service set", "SetDefaults_ServiceReference"},
	},
}

// webhookRows are the defaults of every webhook of a webhook configuration.
func webhookRows(source string) []row {
	return []row{
		{"webhooks[*].failurePolicy", "Fail", "", source},
		{"webhooks[*].matchPolicy", "Equivalent", "", source},
		{"webhooks[*].namespaceSelector", "{}", "", source},
		{"webhooks[*].objectSelector", "{}", "", source},
		{"webhooks[*].timeoutSeconds", "10", "", source},
		{"webhooks[*].clientConfig.service.port", "443", "clientConfig.service set", "SetDefaults_ServiceReference"},
		{"webhooks[*].rules[*].scope", "*", "", "SetDefaults_Rule"},
	}
}

// matchResourcesRows are the defaults of a MatchResources member at prefix, when it is set.
func matchResourcesRows(prefix string) []row {
	return []row{
		{prefix + ".matchPolicy", "Equivalent", prefix + " set", "SetDefaults_MatchResources"},
		{prefix + ".namespaceSelector", "{}", prefix + " set", "SetDefaults_MatchResources"},
		{prefix + ".objectSelector", "{}", prefix + " set", "SetDefaults_MatchResources"},
		{prefix + ".<resourceRules|excludeResourceRules>[*].scope", "*", prefix + " set", "SetDefaults_Rule"},
	}
}

// policyRows are the defaults of an admission policy.
func policyRows(source string) []row {
	return append([]row{{"spec.failurePolicy", "Fail", "", source}}, matchResourcesRows("spec.matchConstraints")...)
}

// templatePrefix is where each kind keeps its pod spec.
var templatePrefix = map[kindKey]string{
	{"", "v1", "Pod"}:                   "spec.",
	{"", "v1", "PodTemplate"}:           "template.spec.",
	{"", "v1", "ReplicationController"}: "spec.template.spec.",
	{"apps", "v1", "Deployment"}:        "spec.template.spec.",
	{"apps", "v1", "ReplicaSet"}:        "spec.template.spec.",
	{"apps", "v1", "StatefulSet"}:       "spec.template.spec.",
	{"apps", "v1", "DaemonSet"}:         "spec.template.spec.",
	{"batch", "v1", "Job"}:              "spec.template.spec.",
	{"batch", "v1", "CronJob"}:          "spec.jobTemplate.spec.template.spec.",
}

// Defaults lists every default that Default applies, kind by kind in the order of
// Kinds, with the pod spec and container defaults written out under each kind's pod spec.
func Defaults() []Applied {
	var out []Applied
	for _, k := range Kinds() {
		add := func(prefix string, rows []row) {
			for _, r := range rows {
				out = append(out, Applied{Group: k.Group, Version: k.Version, Kind: k.Kind,
					Path: prefix + r.path, Value: r.value, When: r.when, Source: r.source})
			}
		}
		key := kindKey{k.Group, k.Version, k.Kind}
		if key.kind == "Pod" {
			add("", podRows)
		}
		add("", kindRows[key])
		if p, ok := templatePrefix[key]; ok {
			add(p, podSpecRows)
			add(p+"<containers|initContainers|ephemeralContainers>[*].", containerRows)
		}
	}
	return out
}

// Kind names one kind Default knows.
type Kind struct{ Group, Version, Kind string }

// Kinds lists the kinds Default knows, those without visible defaults included, sorted by
// group, kind and version.
func Kinds() []Kind {
	out := make([]Kind, 0, len(defaulters))
	for k := range defaulters {
		out = append(out, Kind{k.group, k.version, k.kind})
	}
	slices.SortFunc(out, func(a, b Kind) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Version, b.Version))
	})
	return out
}

// String prints a row as "Kind.group path = value (when)".
func (a Applied) String() string {
	var b strings.Builder
	b.WriteString(a.Kind)
	if a.Group != "" {
		b.WriteString("." + a.Group)
	}
	b.WriteString(" " + a.Path + " = " + a.Value)
	if a.When != "" {
		b.WriteString(" (" + a.When + ")")
	}
	return b.String()
}

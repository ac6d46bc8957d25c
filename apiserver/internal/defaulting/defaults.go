package defaulting

// kindKey names a kind by group, version and kind; the core group is "".
type kindKey struct{ group, version, kind string }

// defaulters maps each kind we know to its defaulting function. A kind missing here has no
// defaults a client can see, or is not served.
var defaulters = map[kindKey]func(map[string]any){
	{"", "v1", "Pod"}:                           defaultPod,
	{"", "v1", "Service"}:                       defaultService,
	{"", "v1", "Secret"}:                        defaultSecret,
	{"", "v1", "Namespace"}:                     defaultNamespace,
	{"", "v1", "Node"}:                          defaultNode,
	{"", "v1", "Endpoints"}:                     defaultEndpoints,
	{"", "v1", "PersistentVolumeClaim"}:         defaultPVC,
	{"", "v1", "PersistentVolume"}:              defaultPV,
	{"", "v1", "ReplicationController"}:         defaultReplicationController,
	{"", "v1", "PodTemplate"}:                   defaultPodTemplate,
	{"apps", "v1", "Deployment"}:                defaultDeployment,
	{"apps", "v1", "ReplicaSet"}:                defaultReplicaSet,
	{"apps", "v1", "StatefulSet"}:               defaultStatefulSet,
	{"apps", "v1", "DaemonSet"}:                 defaultDaemonSet,
	{"batch", "v1", "Job"}:                      defaultJob,
	{"batch", "v1", "CronJob"}:                  defaultCronJob,
	{"discovery.k8s.io", "v1", "EndpointSlice"}: defaultEndpointSlice,
	{"events.k8s.io", "v1", "Event"}:            nil,
	{"coordination.k8s.io", "v1", "Lease"}:      nil,
	{"", "v1", "ConfigMap"}:                     nil,
	{"", "v1", "ServiceAccount"}:                nil,
	{"", "v1", "Event"}:                         nil,

	// networking.k8s.io, node.k8s.io, storage.k8s.io and resource.k8s.io.
	{"networking.k8s.io", "v1", "Ingress"}:                                     defaultIngress,
	{"networking.k8s.io", "v1", "IngressClass"}:                                defaultIngressClass,
	{"networking.k8s.io", "v1", "NetworkPolicy"}:                               defaultNetworkPolicy,
	{"networking.k8s.io", "v1", "IPAddress"}:                                   nil,
	{"networking.k8s.io", "v1", "ServiceCIDR"}:                                 nil,
	{"node.k8s.io", "v1", "RuntimeClass"}:                                      nil,
	{"storage.k8s.io", "v1", "CSIDriver"}:                                      defaultCSIDriver,
	{"storage.k8s.io", "v1", "CSINode"}:                                        nil,
	{"storage.k8s.io", "v1", "CSIStorageCapacity"}:                             nil,
	{"storage.k8s.io", "v1", "StorageClass"}:                                   defaultStorageClass,
	{"storage.k8s.io", "v1", "VolumeAttachment"}:                               defaultVolumeAttachment,
	{"storage.k8s.io", "v1", "VolumeAttributesClass"}:                          nil,
	{"resource.k8s.io", "v1", "DeviceClass"}:                                   defaultDeviceClass,
	{"resource.k8s.io", "v1", "ResourceClaim"}:                                 defaultResourceClaim,
	{"resource.k8s.io", "v1", "ResourceClaimTemplate"}:                         defaultResourceClaimTemplate,
	{"resource.k8s.io", "v1", "ResourceSlice"}:                                 defaultResourceSlice,
	{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"}:   defaultValidatingWebhookConfiguration,
	{"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"}:     defaultMutatingWebhookConfiguration,
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"}:        defaultAdmissionPolicy,
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy"}:          defaultAdmissionPolicy,
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"}: defaultPolicyBinding,
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding"}:   defaultPolicyBinding,
	{"flowcontrol.apiserver.k8s.io", "v1", "FlowSchema"}:                       defaultFlowSchema,
	{"flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration"}:       defaultPriorityLevelConfiguration,
	{"apiregistration.k8s.io", "v1", "APIService"}:                             defaultAPIService,
	{"certificates.k8s.io", "v1", "CertificateSigningRequest"}:                 nil,
	// rbac.authorization.k8s.io, and the reviews (nothing to default: they are answered,
	// never stored).
	{"rbac.authorization.k8s.io", "v1", "RoleBinding"}:         defaultBinding,
	{"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"}:  defaultBinding,
	{"rbac.authorization.k8s.io", "v1", "Role"}:                nil,
	{"rbac.authorization.k8s.io", "v1", "ClusterRole"}:         nil,
	{"authentication.k8s.io", "v1", "TokenReview"}:             nil,
	{"authentication.k8s.io", "v1", "SelfSubjectReview"}:       nil,
	{"authorization.k8s.io", "v1", "SubjectAccessReview"}:      nil,
	{"authorization.k8s.io", "v1", "SelfSubjectAccessReview"}:  nil,
	{"authorization.k8s.io", "v1", "LocalSubjectAccessReview"}: nil,
	{"authorization.k8s.io", "v1", "SelfSubjectRulesReview"}:   nil,
	{"", "v1", "LimitRange"}:                                   defaultLimitRange,
	{"", "v1", "ResourceQuota"}:                                nil,
	{"", "v1", "ComponentStatus"}:                              nil,
	{"", "v1", "Binding"}:                                      nil,
	{"apps", "v1", "ControllerRevision"}:                       nil,
	{"autoscaling", "v2", "HorizontalPodAutoscaler"}:           defaultHPAV2,
	{"autoscaling", "v1", "HorizontalPodAutoscaler"}:           defaultHPAV1,
	{"policy", "v1", "PodDisruptionBudget"}:                    nil,
	{"scheduling.k8s.io", "v1", "PriorityClass"}:               defaultPriorityClass,
	{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"}: defaultCRD,
}

// Default mirrors what runtime.Scheme.Default does to a decoded object of the given kind in
// kube-apiserver v1.36, plus the two steps of a write that a client sees as defaults (the
// Secret stringData conversion and the Service IP family fields). It changes obj in place
// and is idempotent. A kind it does not know, or a nil obj, is left alone.
func Default(group, version, kind string, obj map[string]any) {
	if obj == nil {
		return
	}
	if f := defaulters[kindKey{group, version, kind}]; f != nil {
		f(obj)
	}
}

// HasDefaults reports whether Default changes anything of the kind: false for a kind it
// does not know or knows to have no visible defaults (a create then need not keep the body
// apart from its defaulted copy).
func HasDefaults(group, version, kind string) bool {
	return defaulters[kindKey{group, version, kind}] != nil
}

// Known reports whether Default knows the kind, including the kinds it knows to have no
// visible defaults (ConfigMap, ServiceAccount, both Events, Lease).
func Known(group, version, kind string) bool {
	_, ok := defaulters[kindKey{group, version, kind}]
	return ok
}

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

// Known reports whether Default knows the kind, including the kinds it knows to have no
// visible defaults (ConfigMap, ServiceAccount, both Events, Lease).
func Known(group, version, kind string) bool {
	_, ok := defaulters[kindKey{group, version, kind}]
	return ok
}

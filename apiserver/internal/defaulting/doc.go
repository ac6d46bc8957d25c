// Package defaulting applies, to objects kept as generic JSON (map[string]any, integers as
// int64), the defaults kube-apiserver v1.36 applies on decode, so that a read shows what a
// real cluster shows. It mirrors the SetDefaults_* and generated SetObjectDefaults_*
// functions of k8s.io/kubernetes pkg/apis/{core,apps,batch,discovery}/v1 and the +default
// markers of k8s.io/api, with none of their code.
//
// The contract:
//
//  1. Default(group, version, kind, obj) changes obj in place; defaulting twice equals
//     defaulting once; it never panics, and leaves a member of the wrong JSON type alone.
//     A kind it does not know is left untouched; Known tells which kinds it knows.
//  2. A field counts as unset as a typed decoder sees it: missing or null for pointers,
//     maps and lists; also "" for strings and 0 for plain integers.
//  3. A Pod gets the pod spec and container defaults and the Pod-only ones (enableServiceLinks,
//     requests from limits, host ports on the host network); a template (Deployment,
//     ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController, PodTemplate)
//     gets only the former, as upstream. Init and ephemeral containers are containers. A
//     missing template is not made up: validation refuses such an object anyway.
//  4. Feature gates are taken at their v1.36 defaults: ImageVolume, PodLevelResources and
//     JobPodReplacementPolicy on; MaxUnavailableStatefulSet off.
//  5. Default also does one thing a client sees as a default that upstream does elsewhere:
//     a Secret's stringData is merged into data as base64 and removed (v1 conversion, so on
//     every write). So is a pod spec's serviceAccountName, which falls back to the
//     deprecated serviceAccount, and serviceAccount, written as its copy.
//  6. Default never allocates, nor fills a Service's clusterIPs, ipFamilyPolicy and
//     ipFamilies: the Service strategy of the registry (registry/core) does, after Default,
//     on create and update, as the service REST storage does.
//  7. Defaults lists every default applied, per kind, with its path, value, condition and
//     upstream source; Kinds lists the kinds.
//  8. Left out: admission (serviceAccountName and its token volume, default tolerations,
//     LimitRanger, priority, DefaultStorageClass), registry strategies (Pod status and QoS
//     class, generation, a Job's generated selector and labels, node ports), rounding of
//     quantities to milli units, pod-level requests that sum container requests, and
//     hugepage pod limits.
//  9. The networking.k8s.io, storage.k8s.io and resource.k8s.io kinds get the defaults of
//     pkg/apis/{networking,storage,resource}/v1, with SELinuxMountReadWriteOncePod on and
//     VolumeLimitScaling off; node.k8s.io has none. Where a typed server always writes out a
//     struct member without omitempty (an Ingress's status.loadBalancer, a NetworkPolicy's
//     spec.podSelector, a VolumeAttachment's status.attached, a DeviceClass's spec, a claim
//     spec's devices), Default writes it too, listed as "(serialisation)".
package defaulting

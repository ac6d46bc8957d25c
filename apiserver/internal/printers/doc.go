// Package printers is server-side printing (docs/behaviour/wire.md K7–K9, K15, W21, E43): the
// TableConvertor of each registry, after the handlers of k8s.io/kubernetes
// pkg/printers/internalversion/printers.go, the default convertor of k8s.io/apiserver
// pkg/registry/rest/table.go for every other kind, and asTable in k8s.io/apiserver
// pkg/endpoints/handlers/response.go, which decides what each row's object is.
//
// The contract:
//
//  1. Cells are read from the object's generic JSON tree: an *api.Unstructured as it is,
//     any other object through its JSON, numbers as int64 or float64.
//  2. For(group, kind, builtin) gives a built-in kind the columns of kube-apiserver v1.36:
//     core Pod, ConfigMap, Namespace, Node, Service, Endpoints, Secret, ServiceAccount,
//     Event, PersistentVolumeClaim; apps Deployment, ReplicaSet, StatefulSet, DaemonSet;
//     batch Job, CronJob; coordination.k8s.io Lease; events.k8s.io Event (printed as its
//     core conversion); discovery.k8s.io EndpointSlice; a CustomResourceDefinition NAME and
//     CREATED AT. Every other kind gets NAME AGE; ForColumns prints a custom resource with
//     its CRD's additionalPrinterColumns (a dotted jsonPath each), or NAME AGE without.
//     The admissionregistration.k8s.io, flowcontrol.apiserver.k8s.io, certificates.k8s.io
//     and apiregistration.k8s.io kinds have their real columns too.
//  3. Column names, types, formats and priorities, and the cells, are the real printer's
//     with Wide set, as the server always prints: one cell per column, priority-1 columns
//     for kubectl's -o wide, and the Completed condition on a Succeeded or Failed pod's
//     row. Column descriptions are the real printers' too: where upstream quotes a field's
//     API documentation (ObjectMeta's name for Name, ReplicaSetSpec's replicas for
//     Desired), the column names that definition and member and the text is read from the
//     embedded OpenAPI v3 document on the kind's first Table (the enum list openapi-gen
//     appends left off, as SwaggerDoc has none); otherwise it is the printer's own text.
//  4. A member the real server would have defaulted or set on create reads as that value
//     when missing: pod phase Pending, namespace phase Active, PVC phase Pending and
//     volumeMode Filesystem, Secret type Opaque, Service type ClusterIP and port protocol
//     TCP, replicas 1, CronJob suspend false; a missing clusterIPs falls back to clusterIP.
//  5. A Table carries the ListMeta its caller gives: a list's RV, continue and
//     remainingItemCount, or a single object's RV.
//  6. Row objects follow includeObject: PartialObjectMetadata by default and for Metadata,
//     the object for Object, nothing for None, except that the initial-events-end bookmark
//     keeps its metadata; another value is 400 (E43).
//  7. A watch sends each event as a one-row Table whose columnDefinitions come with the
//     first event only (W21).
//  8. Quantities print as stored, not in canonical form. AGE and the other times read as
//     kubectl's, counted from TableConverter.Now.
//  9. Deviation: a kind without a printer gets NAME AGE, as a custom resource without
//     additionalPrinterColumns does, rather than the real default's Name and Created At.
//  10. The networking.k8s.io (Ingress, IngressClass, NetworkPolicy, IPAddress, ServiceCIDR),
//     node.k8s.io (RuntimeClass), storage.k8s.io (CSIDriver, CSINode, StorageClass,
//     VolumeAttachment, VolumeAttributesClass) and resource.k8s.io (DeviceClass,
//     ResourceClaim, ResourceClaimTemplate, ResourceSlice) kinds get their printers too, the
//     default class of an IngressClass or StorageClass marked "(default)". Two follow
//     upstream's quirks: CSIStorageCapacity has the default convertor's Name and Created At,
//     and an IPAddress row has one cell more than its two columns (the age).
package printers

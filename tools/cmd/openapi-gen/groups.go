package main

import "strings"

// groupVersion is one document that the simulated apiserver serves under /openapi/v3/<path>.
type groupVersion struct {
	// path is the URL path below /openapi/v3: "api/v1" or "apis/apps/v1".
	path string
	// group and version are the API group-version the document describes; they decide
	// which x-kubernetes-group-version-kind entries of the cross-registered meta types stay.
	group, version string
	// roots are the definitions that the group-version's routes name as request or
	// response bodies. kube-apiserver's document holds these and everything they
	// reference, so the same list, closed over references, gives the same schemas.
	roots []string
}

// fileName is the data file of the document: the path with "/" spelled "__", as the
// documents under api/openapi-spec/v3 in the Kubernetes repository are named.
func (gv groupVersion) fileName() string {
	return strings.ReplaceAll(gv.path, "/", "__") + ".json"
}

const (
	core       = "io.k8s.api.core.v1."
	meta       = "io.k8s.apimachinery.pkg.apis.meta.v1."
	extensions = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1."
)

// metaRoots are the bodies every group-version's routes share: the group-version's own
// discovery document (APIResourceList), DELETE's body (DeleteOptions), PATCH's body
// (Patch), the Status that DELETE and errors return and the events of a watch.
var metaRoots = []string{
	meta + "APIResourceList",
	meta + "DeleteOptions",
	meta + "Patch",
	meta + "Status",
	meta + "WatchEvent",
}

// kinds returns prefix+kind and prefix+kind+"List" for each kind.
func kinds(prefix string, names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, prefix+n, prefix+n+"List")
	}
	return out
}

func roots(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return append(out, metaRoots...)
}

// groupVersions lists the documents we generate. The roots of each are the bodies of the
// routes kube-apiserver v1.36 installs for that group-version (the $refs of the paths of
// its published document); the generator's test checks the outcome against those
// documents.
var groupVersions = []groupVersion{
	{
		path: "api/v1", group: "", version: "v1",
		roots: roots(
			kinds(core, "ComponentStatus", "ConfigMap", "Endpoints", "Event", "LimitRange",
				"Namespace", "Node", "PersistentVolume", "PersistentVolumeClaim", "Pod",
				"PodTemplate", "ReplicationController", "ResourceQuota", "Secret", "Service",
				"ServiceAccount"),
			// Subresource bodies: pods/binding, pods/eviction, serviceaccounts/token and
			// replicationcontrollers/scale.
			[]string{
				core + "Binding",
				"io.k8s.api.policy.v1.Eviction",
				"io.k8s.api.authentication.v1.TokenRequest",
				"io.k8s.api.autoscaling.v1.Scale",
			},
		),
	},
	gvOf("admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
		"MutatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
		"ValidatingWebhookConfiguration"),
	{
		path: "apis/apiextensions.k8s.io/v1", group: "apiextensions.k8s.io", version: "v1",
		roots: roots(kinds(extensions, "CustomResourceDefinition")),
	},
	{
		path: "apis/apiregistration.k8s.io/v1", group: "apiregistration.k8s.io", version: "v1",
		roots: roots(kinds("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.", "APIService")),
	},
	{
		path: "apis/apps/v1", group: "apps", version: "v1",
		roots: roots(
			kinds("io.k8s.api.apps.v1.", "ControllerRevision", "DaemonSet", "Deployment",
				"ReplicaSet", "StatefulSet"),
			// The scale subresource of deployments, replicasets and statefulsets.
			[]string{"io.k8s.api.autoscaling.v1.Scale"},
		),
	},
	// The reviews are create-only: their routes name the kind alone, never a List.
	reviews("authentication.k8s.io", "SelfSubjectReview", "TokenReview"),
	reviews("authorization.k8s.io", "LocalSubjectAccessReview", "SelfSubjectAccessReview",
		"SelfSubjectRulesReview", "SubjectAccessReview"),
	gvOf("autoscaling", "v1", "HorizontalPodAutoscaler"),
	gvOf("autoscaling", "v2", "HorizontalPodAutoscaler"),
	gvOf("batch", "v1", "CronJob", "Job"),
	gvOf("certificates.k8s.io", "v1", "CertificateSigningRequest"),
	gvOf("coordination.k8s.io", "v1", "Lease"),
	gvOf("discovery.k8s.io", "v1", "EndpointSlice"),
	gvOf("events.k8s.io", "v1", "Event"),
	gvOf("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema", "PriorityLevelConfiguration"),
	gvOf("networking.k8s.io", "v1", "IPAddress", "Ingress", "IngressClass", "NetworkPolicy", "ServiceCIDR"),
	gvOf("node.k8s.io", "v1", "RuntimeClass"),
	gvOf("policy", "v1", "PodDisruptionBudget"),
	gvOf("rbac.authorization.k8s.io", "v1", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"),
	gvOf("resource.k8s.io", "v1", "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"),
	gvOf("scheduling.k8s.io", "v1", "PriorityClass"),
	gvOf("storage.k8s.io", "v1", "CSIDriver", "CSINode", "CSIStorageCapacity", "StorageClass",
		"VolumeAttachment", "VolumeAttributesClass"),
}

// apiPrefix is the definition-name prefix of a group's Go package under k8s.io/api:
// "io.k8s.api.rbac.v1." for rbac.authorization.k8s.io/v1 (the group's first label).
func apiPrefix(group, version string) string {
	pkg, _, _ := strings.Cut(group, ".")
	return "io.k8s.api." + pkg + "." + version + "."
}

// gvOf is the document of a group-version of k8s.io/api whose routes serve kinds and their Lists.
func gvOf(group, version string, names ...string) groupVersion {
	return groupVersion{path: "apis/" + group + "/" + version, group: group, version: version,
		roots: roots(kinds(apiPrefix(group, version), names...))}
}

// reviews is the document of a v1 group whose resources are create-only reviews.
func reviews(group string, names ...string) groupVersion {
	var rs []string
	for _, n := range names {
		rs = append(rs, apiPrefix(group, "v1")+n)
	}
	// Create is their only verb: no DELETE, PATCH, watch or Status body in their routes.
	rs = append(rs, meta+"APIResourceList")
	return groupVersion{path: "apis/" + group + "/v1", group: group, version: "v1", roots: rs}
}

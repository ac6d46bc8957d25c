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
	{
		path: "apis/apps/v1", group: "apps", version: "v1",
		roots: roots(
			kinds("io.k8s.api.apps.v1.", "ControllerRevision", "DaemonSet", "Deployment",
				"ReplicaSet", "StatefulSet"),
			// The scale subresource of deployments, replicasets and statefulsets.
			[]string{"io.k8s.api.autoscaling.v1.Scale"},
		),
	},
	{
		path: "apis/batch/v1", group: "batch", version: "v1",
		roots: roots(kinds("io.k8s.api.batch.v1.", "CronJob", "Job")),
	},
	{
		path: "apis/coordination.k8s.io/v1", group: "coordination.k8s.io", version: "v1",
		roots: roots(kinds("io.k8s.api.coordination.v1.", "Lease")),
	},
	{
		path: "apis/events.k8s.io/v1", group: "events.k8s.io", version: "v1",
		roots: roots(kinds("io.k8s.api.events.v1.", "Event")),
	},
	{
		path: "apis/discovery.k8s.io/v1", group: "discovery.k8s.io", version: "v1",
		roots: roots(kinds("io.k8s.api.discovery.v1.", "EndpointSlice")),
	},
	{
		path: "apis/apiextensions.k8s.io/v1", group: "apiextensions.k8s.io", version: "v1",
		roots: roots(kinds(extensions, "CustomResourceDefinition")),
	},
}

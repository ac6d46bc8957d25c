package app

import "github.com/informer-lab/informer-lab/api"

// The resources the cluster's controllers read and write.
var (
	Pods                     = api.GroupVersionResource{Version: "v1", Resource: "pods"}
	Nodes                    = api.GroupVersionResource{Version: "v1", Resource: "nodes"}
	Namespaces               = api.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	Services                 = api.GroupVersionResource{Version: "v1", Resource: "services"}
	Endpoints                = api.GroupVersionResource{Version: "v1", Resource: "endpoints"}
	ServiceAccounts          = api.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	PersistentVolumeClaims   = api.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}
	Deployments              = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	ReplicaSets              = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
	StatefulSets             = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}
	DaemonSets               = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"}
	ControllerRevisions      = api.GroupVersionResource{Group: "apps", Version: "v1", Resource: "controllerrevisions"}
	Jobs                     = api.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
	CronJobs                 = api.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"}
	EndpointSlices           = api.GroupVersionResource{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices"}
	Leases                   = api.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}
	Events                   = api.GroupVersionResource{Group: "events.k8s.io", Version: "v1", Resource: "events"}
	HorizontalPodAutoscalers = api.GroupVersionResource{Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers"}
	PodDisruptionBudgets     = api.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"}
)

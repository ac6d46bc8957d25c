package controllers

import (
	"github.com/informer-lab/informer-lab/controllers/cronjob"
	"github.com/informer-lab/informer-lab/controllers/daemonset"
	"github.com/informer-lab/informer-lab/controllers/deployment"
	"github.com/informer-lab/informer-lab/controllers/disruption"
	"github.com/informer-lab/informer-lab/controllers/endpoints"
	"github.com/informer-lab/informer-lab/controllers/endpointslice"
	"github.com/informer-lab/informer-lab/controllers/garbagecollector"
	"github.com/informer-lab/informer-lab/controllers/job"
	"github.com/informer-lab/informer-lab/controllers/kubelet"
	"github.com/informer-lab/informer-lab/controllers/namespace"
	"github.com/informer-lab/informer-lab/controllers/nodelifecycle"
	"github.com/informer-lab/informer-lab/controllers/podautoscaler"
	"github.com/informer-lab/informer-lab/controllers/replicaset"
	"github.com/informer-lab/informer-lab/controllers/scheduler"
	"github.com/informer-lab/informer-lab/controllers/serviceaccount"
	"github.com/informer-lab/informer-lab/controllers/statefulset"
	"github.com/informer-lab/informer-lab/controllers/ttlafterfinished"
)

// descriptors mirrors NewControllerDescriptors: one line per controller. Each controller's
// package adds its line here; workers is the upstream default of its --concurrent-… flag.
var descriptors = []descriptor{
	{name: "deployment", init: deployment.New, workers: 5},
	{name: "replicaset", init: replicaset.New, workers: 5},
	{name: "statefulset", init: statefulset.New, workers: 5},
	{name: "daemonset", init: daemonset.New, workers: 2},
	{name: "job", init: job.New, workers: 5},
	{name: "disruption", init: disruption.New, workers: 1},
	{name: "endpoints", init: endpoints.New, workers: 5},
	{name: "endpointslice", init: endpointslice.New, workers: 5},
	{name: "podautoscaler", init: podautoscaler.New, workers: 5},
	{name: "serviceaccount", init: serviceaccount.New, workers: 1},
	{name: "kubelet", init: kubelet.New, workers: 5},
	{name: "scheduler", init: scheduler.New, workers: 1},
	{name: "nodelifecycle", init: nodelifecycle.New, workers: 4},
	{name: "garbagecollector", init: garbagecollector.New, workers: 20},
	{name: "cronjob", init: cronjob.New, workers: 5},
	{name: "ttl-after-finished", init: ttlafterfinished.New, workers: 5},
	{name: "namespace", init: namespace.New, workers: 10},
}

package controllers

import (
	"github.com/informer-lab/informer-lab/controllers/disruption"
	"github.com/informer-lab/informer-lab/controllers/endpoints"
	"github.com/informer-lab/informer-lab/controllers/endpointslice"
	"github.com/informer-lab/informer-lab/controllers/podautoscaler"
	"github.com/informer-lab/informer-lab/controllers/serviceaccount"
)

// descriptors mirrors NewControllerDescriptors: one line per controller. Each controller's
// package adds its line here; workers is the upstream default of its --concurrent-… flag.
var descriptors = []descriptor{
	{name: "disruption", init: disruption.New, workers: 1},
	{name: "endpoints", init: endpoints.New, workers: 5},
	{name: "endpointslice", init: endpointslice.New, workers: 5},
	{name: "podautoscaler", init: podautoscaler.New, workers: 5},
	{name: "serviceaccount", init: serviceaccount.New, workers: 1},
}

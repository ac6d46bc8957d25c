package controllers

import (
	"github.com/informer-lab/informer-lab/controllers/garbagecollector"
	"github.com/informer-lab/informer-lab/controllers/namespace"
)

// descriptors mirrors NewControllerDescriptors: one line per controller. Each controller's
// package adds its line here; workers is the upstream default of its --concurrent-… flag.
var descriptors = []descriptor{
	{name: "garbagecollector", init: garbagecollector.New, workers: 20},
	{name: "namespace", init: namespace.New, workers: 10},
}

package controllers

import (
	"github.com/informer-lab/informer-lab/controllers/cronjob"
	"github.com/informer-lab/informer-lab/controllers/job"
	"github.com/informer-lab/informer-lab/controllers/ttlafterfinished"
)

// descriptors mirrors NewControllerDescriptors: one line per controller. Each controller's
// package adds its line here; workers is the upstream default of its --concurrent-… flag.
var descriptors = []descriptor{
	{name: "job", init: job.New, workers: 5},
	{name: "cronjob", init: cronjob.New, workers: 5},
	{name: "ttl-after-finished", init: ttlafterfinished.New, workers: 5},
}

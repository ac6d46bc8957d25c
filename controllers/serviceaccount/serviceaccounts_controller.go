package serviceaccount

import (
	"context"
	"errors"
	"log/slog"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/controller"
	"github.com/informer-lab/informer-lab/controllers/app"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/workqueue"
)

// Name mirrors the controller's name in NewControllerDescriptors, as --controllers spells it.
const Name = "serviceaccount"

// component is the name hops and writes carry.
const component = "service-account-controller"

// accountsToEnsure mirrors DefaultServiceAccountsControllerOptions: only `default`.
var accountsToEnsure = []string{"default"}

// Controller mirrors ServiceAccountsController.
type Controller struct {
	cc    *app.ControllerContext
	sas   informer.SharedIndexInformer
	nss   informer.SharedIndexInformer
	queue workqueue.TypedRateLimitingInterface[string]
}

// New mirrors NewServiceAccountsController: namespaces are queued when added or updated, and
// a namespace whose account is deleted is queued again.
func New(cc *app.ControllerContext) (app.Controller, error) {
	c := &Controller{cc: cc, sas: cc.Informer(app.ServiceAccounts), nss: cc.Informer(app.Namespaces), queue: cc.NewQueue(Name)}
	if _, err := c.sas.AddEventHandler(processor.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			if u, ok := app.AsUnstructured(obj); ok {
				c.queue.Add(u.GetNamespace())
			}
		},
	}); err != nil {
		return nil, err
	}
	enqueue := func(obj any) {
		if u, ok := app.AsUnstructured(obj); ok {
			c.queue.Add(u.GetName())
		}
	}
	if _, err := c.nss.AddEventHandler(processor.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Name mirrors Controller.Name of k8s.io/controller-manager: "serviceaccount".
func (c *Controller) Name() string { return Name }

// Run mirrors ServiceAccountsController.Run: workers on the queue until ctx ends. A failed
// namespace is retried with rate limiting for ever, as upstream's handler does.
func (c *Controller) Run(ctx context.Context, workers int) {
	loop := controller.NewLoop(c.queue, c.syncNamespace)
	loop.MaxRetries = 1 << 30
	loop.Run(ctx, workers)
}

// syncNamespace mirrors ServiceAccountsController.syncNamespace: in an Active namespace,
// create every account of accountsToEnsure the cache does not hold. AlreadyExists is success;
// a refusal because the namespace is terminating is not an error either.
func (c *Controller) syncNamespace(ctx context.Context, key string) error {
	obj, exists, err := c.nss.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		return err
	}
	ns := obj.(*api.Unstructured)
	trace.Hop(c.cc.Logger, component, "sync", key, ns.GetResourceVersion())
	if app.NestedString(ns.Object, "status", "phase") != "Active" {
		return nil
	}
	var failures []error
	for _, name := range accountsToEnsure {
		if _, ok, err := c.sas.GetIndexer().GetByKey(key + "/" + name); err != nil {
			return err
		} else if ok {
			continue
		}
		sa := &api.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ServiceAccount",
			"metadata": map[string]any{"name": name, "namespace": key},
		}}
		created, err := c.cc.Client.Resource(app.ServiceAccounts).Namespace(key).Create(ctx, sa, api.CreateOptions{})
		rv := ""
		if created != nil {
			rv = created.GetResourceVersion()
		}
		trace.Hop(c.cc.Logger, component, "create", key+"/"+name, rv,
			slog.String("cause", "namespace has no "+name+" ServiceAccount"), slog.Any("err", err))
		if err != nil && !api.IsAlreadyExists(err) && !api.HasStatusCause(err, api.NamespaceTerminatingCause) {
			failures = append(failures, err)
		}
	}
	return errors.Join(failures...)
}

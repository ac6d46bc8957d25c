package printers

import (
	"fmt"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// Printer is one resource's table layout: the columns, and the cells of one object's row.
// cells returns exactly one value per column. It mirrors the TableConvertor a registry has,
// built from printers.TableGenerator in k8s.io/kubernetes pkg/printers.
type Printer struct {
	columns []api.TableColumnDefinition
	cells   func(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition)
}

const (
	nameDescription = "Name must be unique within a namespace. It identifies the object to clients and is the key of the object in storage."
	ageDescription  = "CreationTimestamp is when the server created the object, shown as the time since then."
)

func nameColumn() api.TableColumnDefinition {
	return api.TableColumnDefinition{Name: "Name", Type: "string", Format: "name", Description: nameDescription}
}

func ageColumn() api.TableColumnDefinition {
	return api.TableColumnDefinition{Name: "Age", Type: "string", Description: ageDescription}
}

// The printers of the built-in kinds and the default one, built once.
var (
	podPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			{Name: "Ready", Type: "string", Description: "How many of the pod's containers are ready, out of how many."},
			{Name: "Status", Type: "string", Description: "The aggregate status of the pod: its phase, or Terminating once deletion has begun."},
			{Name: "Restarts", Type: "string", Description: "How often the pod's containers have restarted."},
			ageColumn(),
			{Name: "IP", Type: "string", Priority: 1, Description: "The IP address allocated to the pod."},
			{Name: "Node", Type: "string", Priority: 1, Description: "The node the pod is bound to."},
			{Name: "Nominated Node", Type: "string", Priority: 1, Description: "The node the scheduler nominated for a preempting pod."},
			{Name: "Readiness Gates", Type: "string", Priority: 1, Description: "Extra conditions that must hold before the pod counts as ready."},
		},
		cells: podCells,
	}
	configMapPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			{Name: "Data", Type: "integer", Description: "How many keys the data and binaryData maps hold together."},
			ageColumn(),
		},
		cells: func(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
			n := 0
			if cm, ok := obj.(*api.ConfigMap); ok {
				n = len(cm.Data) + len(cm.BinaryData)
			}
			return []any{m.GetName(), int64(n), age(m, now)}, nil
		},
	}
	namespacePrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			{Name: "Status", Type: "string", Description: "The phase of the namespace: Active, or Terminating while it is being deleted."},
			ageColumn(),
		},
		cells: func(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
			phase := ""
			if ns, ok := obj.(*api.Namespace); ok {
				phase = string(ns.Status.Phase)
			}
			return []any{m.GetName(), phase, age(m, now)}, nil
		},
	}
	// defaultPrinter gives NAME and AGE, the columns kubectl shows for a custom resource
	// without additionalPrinterColumns. (The real default convertor of kinds without a
	// printer says "Created At" with an RFC 3339 cell; NAME AGE reads better in a workshop.)
	defaultPrinter = &Printer{
		columns: []api.TableColumnDefinition{nameColumn(), ageColumn()},
		cells: func(_ api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
			return []any{m.GetName(), age(m, now)}, nil
		},
	}
)

// For picks the printer of a kind: the built-in kinds (builtin true) Pod, ConfigMap and
// Namespace have their own columns, every other kind NAME and AGE.
func For(kind string, builtin bool) *Printer {
	if builtin {
		switch kind {
		case "Pod":
			return podPrinter
		case "ConfigMap":
			return configMapPrinter
		case "Namespace":
			return namespacePrinter
		}
	}
	return defaultPrinter
}

// podCells mirrors printPod. We keep no container statuses, so READY counts every container
// as ready when the pod's Ready condition is True and none otherwise, and RESTARTS is 0.
func podCells(obj api.Object, m api.MetaObject, now time.Time) ([]any, []api.TableRowCondition) {
	p, ok := obj.(*api.Pod)
	if !ok {
		p = &api.Pod{}
	}
	total, ready := len(p.Spec.Containers), 0
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady && c.Status == api.ConditionTrue {
			ready = total
		}
	}
	status := string(p.Status.Phase)
	if m.GetDeletionTimestamp() != nil {
		status = "Terminating"
	}
	cells := []any{m.GetName(), fmt.Sprintf("%d/%d", ready, total), status, "0", age(m, now),
		orNone(p.Status.PodIP), orNone(p.Spec.NodeName), "<none>", "<none>"}
	var conds []api.TableRowCondition
	switch p.Status.Phase {
	case api.PodSucceeded:
		conds = []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue, Reason: string(p.Status.Phase), Message: "The pod has completed successfully."}}
	case api.PodFailed:
		conds = []api.TableRowCondition{{Type: api.RowCompleted, Status: api.ConditionTrue, Reason: string(p.Status.Phase), Message: "The pod failed."}}
	}
	return cells, conds
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

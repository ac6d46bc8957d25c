package scenario

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

// --- inspection --------------------------------------------------------------------------

func (w *world) showState(c command) ([]string, error) {
	switch c.arg(0) {
	case "cache":
		if w.inf == nil {
			return nil, errors.New("no informer")
		}
		var out []string
		for _, obj := range w.inf.GetIndexer().List() {
			out = append(out, describe(obj))
		}
		sort.Strings(out)
		if len(out) == 0 {
			out = []string{"(empty)"}
		}
		return out, nil
	case "server":
		obj, err := w.srv.List(context.Background(), "pods", "", api.ListOptions{})
		if err != nil {
			return errLine(err), nil
		}
		var out []string
		for i := range obj.(*api.PodList).Items {
			out = append(out, describe(&obj.(*api.PodList).Items[i]))
		}
		if len(out) == 0 {
			out = []string{"(empty)"}
		}
		return out, nil
	case "requests":
		var out []string
		for k, n := range w.srv.RequestCounts() {
			if k.Resource == "pods" && (k.Verb == "list" || k.Verb == "watch") {
				out = append(out, fmt.Sprintf("%s pods: %d", k.Verb, n))
			}
		}
		sort.Strings(out)
		if len(out) == 0 {
			out = []string{"no list or watch requests"}
		}
		return out, nil
	case "handlers":
		var out []string
		for _, name := range w.order {
			out = append(out, w.handlers[name].stats())
		}
		return out, nil
	case "queue":
		if w.ctl == nil {
			return nil, errors.New("no controller")
		}
		return []string{w.ctl.state()}, nil
	}
	return nil, fmt.Errorf("show cache|server|requests|handlers|queue")
}

// describe is "ns/name@rv" plus the phase when set, or DFSU(…) for a tombstone.
func describe(obj any) string {
	switch o := obj.(type) {
	case store.DeletedFinalStateUnknown:
		return "DFSU(" + describe(o.Obj) + ")"
	case *api.Pod:
		return o.Namespace + "/" + o.Name + state(o)
	}
	return fmt.Sprintf("%T", obj)
}

// state is "@rv" plus the phase and the node when set.
func state(obj any) string {
	p, ok := obj.(*api.Pod)
	if !ok {
		return fmt.Sprintf("(%T)", obj)
	}
	s := "@" + p.ResourceVersion
	if p.Status.Phase != "" {
		s += " " + string(p.Status.Phase)
	}
	if p.Spec.NodeName != "" {
		s += " node=" + p.Spec.NodeName
	}
	return s
}

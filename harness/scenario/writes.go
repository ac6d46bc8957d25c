package scenario

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing/synctest"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
)

// --- server writes -----------------------------------------------------------------------

// write runs create, update, label and delete on pods. Options: phase=, image=, node=; any
// other key=value is a label (label k- removes one). node= on an existing pod binds it
// through pods/binding, as a scheduler does: an update may not change spec.nodeName.
func (w *world) write(c command) ([]string, error) {
	if c.arg(0) != "pod" {
		return nil, fmt.Errorf("%s: only pods are supported, got %q", c.name, c.arg(0))
	}
	ns, name := podKey(c.arg(1))
	ctx := context.Background()
	if c.name == "delete" {
		_, err := w.srv.Delete(ctx, "pods", ns, name, nil)
		return errLine(err), nil
	}
	var p *api.Pod
	if c.name == "create" {
		p = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}}}
	} else {
		obj, err := w.srv.Get(ctx, "pods", ns, name)
		if err != nil {
			return errLine(err), nil
		}
		p = obj.(*api.Pod)
	}
	phase, node := "", ""
	for _, k := range c.keys {
		v := c.opts[k]
		switch k {
		case "phase":
			phase = v
		case "image":
			p.Spec.Containers[0].Image = v
		case "node":
			if c.name == "create" {
				p.Spec.NodeName = v
			} else {
				node = v
			}
		default:
			if p.Labels == nil {
				p.Labels = map[string]string{}
			}
			p.Labels[k] = v
		}
	}
	for _, a := range c.args[2:] {
		if k, ok := strings.CutSuffix(a, "-"); ok {
			delete(p.Labels, k)
		}
	}
	var err error
	if c.name == "create" {
		p.Status.Phase = api.PodPhase(phase)
		var obj api.Object
		obj, err = w.srv.Create(ctx, "pods", ns, p)
		if err == nil && phase != "" && obj.(*api.Pod).Status.Phase != api.PodPhase(phase) {
			p = obj.(*api.Pod)
			p.Status.Phase = api.PodPhase(phase)
			_, err = w.srv.UpdateStatus(ctx, "pods", ns, p)
		}
		return errLine(err), nil
	}
	obj, err := w.srv.Update(ctx, "pods", ns, p)
	if err == nil && node != "" {
		err = w.bind(ns, name, node)
		if err == nil {
			obj, err = w.srv.Get(ctx, "pods", ns, name)
		}
	}
	if err == nil && phase != "" {
		p = obj.(*api.Pod)
		p.Status.Phase = api.PodPhase(phase)
		_, err = w.srv.UpdateStatus(ctx, "pods", ns, p)
	}
	return errLine(err), nil
}

// bind posts a Binding of the pod to node through the server's HTTP handler (the Go API
// has no subresource writes).
func (w *world) bind(ns, name, node string) error {
	body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Binding","metadata":{"name":%q},"target":{"kind":"Node","name":%q}}`, name, node)
	req := httptest.NewRequest("POST", "/api/v1/namespaces/"+ns+"/pods/"+name+"/binding", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	w.srv.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		return fmt.Errorf("binding %s/%s to %s: %d %s", ns, name, node, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	return nil
}

// burst makes n label updates of one pod, settling after each write, so that no watcher's
// buffer overflows and the workers see every update in turn: "burst 1500 pod default/a".
func (w *world) burst(c command) ([]string, error) {
	n, err := strconv.Atoi(c.arg(0))
	if err != nil || c.arg(1) != "pod" {
		return nil, fmt.Errorf("usage: burst N pod ns/name")
	}
	ns, name := podKey(c.arg(2))
	ctx := context.Background()
	for i := range n {
		obj, err := w.srv.Get(ctx, "pods", ns, name)
		if err != nil {
			return errLine(err), nil
		}
		p := obj.(*api.Pod)
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels["burst"] = strconv.Itoa(i + 1)
		if _, err := w.srv.Update(ctx, "pods", ns, p); err != nil {
			return errLine(err), nil
		}
		synctest.Wait()
	}
	return []string{fmt.Sprintf("%d updates of %s/%s, last rv=%d", n, ns, name, w.srv.ResourceVersion())}, nil
}

// --- faults ------------------------------------------------------------------------------

func (w *world) fault(c command) ([]string, error) {
	switch c.name {
	case "drop-next":
		n, err := strconv.Atoi(c.arg(0))
		if err != nil {
			return nil, fmt.Errorf("drop-next N [key=ns/name] [type=ADDED|MODIFIED|DELETED]")
		}
		w.srv.DropNextEvents(apiserver.DropRule{Count: n, Key: c.opts["key"], Type: watch.EventType(c.opts["type"])})
	case "compact":
		w.srv.CompactAll()
	case "close-watches":
		w.srv.CloseAllWatches()
	case "close-next-watches":
		n, err := strconv.Atoi(c.arg(0))
		if err != nil {
			return nil, err
		}
		w.srv.CloseNextWatches(n)
	case "fail-next":
		code, err := strconv.Atoi(c.arg(1))
		if err != nil {
			return nil, fmt.Errorf("fail-next VERB CODE [count=N] [as-event]")
		}
		count := 1
		if v, ok := c.opts["count"]; ok {
			if count, err = strconv.Atoi(v); err != nil {
				return nil, err
			}
		}
		w.srv.FailNext(apiserver.FailRule{Verb: c.arg(0), Resource: "pods", Count: count, Code: code,
			AsWatchEvent: c.arg(2) == "as-event"})
	case "delay":
		d, err := time.ParseDuration(c.arg(0))
		if err != nil {
			return nil, err
		}
		w.srv.DelayEvents(d)
	case "cut-next":
		w.srv.CutNextEvent(0)
	case "no-initial-events-end":
		w.noInitialEventsEnd.set(true)
	case "clear-faults":
		w.srv.ClearFaults()
		w.noInitialEventsEnd.set(false)
	}
	return nil, nil
}

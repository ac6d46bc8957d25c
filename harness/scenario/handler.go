package scenario

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// Handler kinds, chosen with "add-handler NAME kind=…".
const (
	kindRecord       = "record"        // one trace line per call (the default)
	kindQuiet        = "quiet"         // counts calls, prints nothing
	kindUnsafeDelete = "unsafe-delete" // OnDelete casts obj.(*api.Pod): panics on a tombstone
	kindSafeDelete   = "safe-delete"   // OnDelete unwraps DeletedFinalStateUnknown first
	kindMutate       = "mutate"        // writes to the cached pod it was given (never do this)
	kindEnqueue      = "enqueue"       // the controller's handler: enqueue the key
)

// handler is a ResourceEventHandler of the script. Each call records its line, then waits
// while the handler is held.
type handler struct {
	w      *world
	name   string
	kind   string
	resync *time.Duration
	gate   gate
	reg    processor.ResourceEventHandlerRegistration

	mu    sync.Mutex
	calls int
}

// addHandler: "add-handler NAME [kind=…] [resync=10s] [held=true]"; a held handler waits
// inside its first call until "release NAME". Before start it joins when the
// informer starts; after start it gets the cached objects as initial adds (SI-14).
func (w *world) addHandler(c command) ([]string, error) {
	name := c.arg(0)
	if name == "" || w.handlers[name] != nil {
		return nil, fmt.Errorf("add-handler needs a new name, got %q", name)
	}
	h := &handler{w: w, name: name, kind: kindRecord}
	if k, ok := c.opts["kind"]; ok {
		switch k {
		case kindRecord, kindQuiet, kindUnsafeDelete, kindSafeDelete, kindMutate:
			h.kind = k
		default:
			return nil, fmt.Errorf("unknown handler kind %q", k)
		}
	}
	if v, ok := c.opts["resync"]; ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, err
		}
		h.resync = &d
	}
	if c.opts["held"] == "true" {
		h.gate.hold()
	}
	w.handlers[name] = h
	w.order = append(w.order, name)
	if w.inf != nil {
		return nil, h.register()
	}
	return nil, nil
}

func (h *handler) register() error {
	reg, err := h.w.inf.AddEventHandlerWithOptions(h, informer.HandlerOptions{Name: h.name, ResyncPeriod: h.resync})
	h.reg = reg
	return err
}

func (h *handler) release() { h.gate.release() }

// stats is the handler's line of "show handlers": calls, ring length and capacity, sync.
func (h *handler) stats() string {
	h.mu.Lock()
	calls := h.calls
	h.mu.Unlock()
	s := fmt.Sprintf("%s calls=%d", h.name, calls)
	if l, ok := h.reg.(*processor.ProcessorListener); ok {
		s += fmt.Sprintf(" pending=%d ring-cap=%d", l.Pending(), l.PendingCap())
	}
	if h.reg != nil {
		s += fmt.Sprintf(" synced=%t", h.reg.HasSynced())
	}
	return s
}

func (h *handler) record(text string) {
	h.mu.Lock()
	h.calls++
	h.mu.Unlock()
	if h.kind != kindQuiet && h.kind != kindEnqueue {
		h.w.rec.line("handler", h.name, "handler "+h.name+" "+text)
	}
}

// OnAdd records "OnAdd ns/name@rv", with "init" for an initial-list add.
func (h *handler) OnAdd(obj any, isInInitialList bool) {
	text := "OnAdd " + describe(obj)
	if isInInitialList {
		text += " init"
	}
	h.record(text)
	h.act(obj)
	h.gate.pass()
}

// OnUpdate records "OnUpdate ns/name@old->new", marked "resync" when the RVs are equal.
func (h *handler) OnUpdate(oldObj, newObj any) {
	text := "OnUpdate " + describe(oldObj) + " -> " + state(newObj)
	if rvOf(oldObj) == rvOf(newObj) {
		text += " (resync)"
	}
	h.record(text)
	h.act(newObj)
	h.gate.pass()
}

// OnDelete records "OnDelete ns/name@rv" or "OnDelete DFSU(…)". The unsafe kind then casts
// the object to *api.Pod, which panics on a tombstone; the safe kind unwraps it.
func (h *handler) OnDelete(obj any) {
	h.record("OnDelete " + describe(obj))
	switch h.kind {
	case kindUnsafeDelete:
		pod := obj.(*api.Pod) // the bug: a DeletedFinalStateUnknown is not a *api.Pod
		h.w.rec.line("handler", h.name, "handler "+h.name+" cleaned up "+pod.Name)
	case kindSafeDelete:
		if tomb, ok := obj.(store.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if pod, ok := obj.(*api.Pod); ok {
			h.w.rec.line("handler", h.name, "handler "+h.name+" cleaned up "+pod.Name+" (last known rv="+pod.ResourceVersion+")")
		}
	case kindEnqueue:
		h.enqueue(obj)
	}
	h.gate.pass()
}

// act is what a handler does with an added or updated object.
func (h *handler) act(obj any) {
	switch h.kind {
	case kindMutate:
		if pod, ok := obj.(*api.Pod); ok {
			pod.Spec.NodeName = "node-picked-by-" + h.name // the bug: this is the cache's object
		}
	case kindEnqueue:
		h.enqueue(obj)
	}
}

// enqueue adds the object's key (tombstones included) to the controller's workqueue.
func (h *handler) enqueue(obj any) {
	key, err := store.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil || h.w.ctl == nil {
		return
	}
	h.w.ctl.tc.Queue.Add(key)
}

func rvOf(obj any) string {
	_, rv, _ := store.KeyAndResourceVersion(obj)
	return rv
}

// diffPods lists the JSON paths where two pods differ, as "path: old -> new", sorted.
func diffPods(a, b *api.Pod) []string {
	var av, bv any
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	_ = json.Unmarshal(ab, &av)
	_ = json.Unmarshal(bb, &bv)
	var out []string
	diffJSON("", av, bv, &out)
	sort.Strings(out)
	return out
}

func diffJSON(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			diffJSON(p, am[k], bm[k], out)
		}
		return
	}
	as, _ := json.Marshal(a)
	bs, _ := json.Marshal(b)
	if string(as) != string(bs) {
		*out = append(*out, fmt.Sprintf("%s: %s -> %s", path, as, bs))
	}
}

package apiserver

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/patch"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// The Go API: the same operations as HTTP, without a socket, so tests can seed and mutate
// objects directly and build an in-process ListWatch (useful inside testing/synctest
// bubbles, where real sockets do not play well). resource is a plural ("pods"), a short name
// ("po"), "plural.group" ("deployments.apps") or "group/version/plural". Objects are deep
// copies both ways (H-8). Requests are counted and fault rules apply, as over HTTP.

// enter is the common prologue: the server is open, the resource exists, the request is
// counted and no injected failure stops it.
func (s *endpoints) enter(verb, resource string) (*resource, func(), error) {
	if err := s.life.begin(); err != nil {
		return nil, nil, err
	}
	res, err := s.table.Lookup(resource)
	if err != nil {
		s.life.wg.Done()
		return nil, nil, err
	}
	s.counts.add(verb, res.Info.GroupResource().String())
	if err := s.checkFail(verb, res); err != nil {
		s.life.wg.Done()
		return nil, nil, err
	}
	return res, s.life.wg.Done, nil
}

// create is Create.
func (s *endpoints) create(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	res, done, err := s.enter("create", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	u, err := s.fromGo(res, obj)
	if err != nil {
		return nil, err
	}
	rec, err := s.reg.Create(s.goOwner(context.Background(), res), res, namespace, u, false)
	if err != nil {
		return nil, err
	}
	return s.view(s.served(res, rec)), nil
}

// goOwner is ctx for a Go-API write: with Options.GoAPIManagedFields it records
// goAPIManager as the writer, as an HTTP write records the manager managerOrUserAgent
// derives, so that the Go API's writes own their fields as HTTP writes do.
func (s *endpoints) goOwner(ctx context.Context, res *resource) context.Context {
	if !s.opts.GoAPIManagedFields {
		return ctx
	}
	return goAPIOwner(ctx, res)
}

// goAPIOwner is ctx carrying goAPIManager as the writer, at the version res serves (the Go
// API takes and returns objects as res serves them).
func goAPIOwner(ctx context.Context, res *resource) context.Context {
	o := registry.Owner{Manager: goAPIManager}
	o.APIVersion, o.View = requestVersion(res, nil, "")
	return registry.WithOwner(ctx, o)
}

// goGet is Get.
func (s *endpoints) goGet(ctx context.Context, resource, namespace, name string) (api.Object, error) {
	res, done, err := s.enter("get", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	rec, err := s.get(ctx, res, namespace, name, "") // as res serves it
	if err != nil {
		return nil, err
	}
	return s.view(rec), nil
}

// update is Update.
func (s *endpoints) update(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	return s.updateVia(resource, namespace, obj, "")
}

// updateStatus is UpdateStatus.
func (s *endpoints) updateStatus(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	return s.updateVia(resource, namespace, obj, "status")
}

func (s *endpoints) updateVia(resource, namespace string, obj api.Object, sub string) (api.Object, error) {
	res, done, err := s.enter("update", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	u, err := s.fromGo(res, obj)
	if err != nil {
		return nil, err
	}
	rec, err := s.reg.Update(s.goOwner(context.Background(), res), res, namespace, u, updateOptions{Subresource: sub})
	if err != nil {
		return nil, err
	}
	return s.view(s.served(res, rec)), nil
}

// goPatch is Patch.
func (s *endpoints) goPatch(ctx context.Context, resource, namespace, name string, patchType api.PatchType, data []byte) (api.Object, error) {
	res, done, err := s.enter("patch", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	if patchType, err = patch.TypeFromContentType(string(patchType)); err != nil {
		return nil, err
	}
	var wo decode.WriteOptions
	if patchType == api.ApplyPatchType {
		wo.FieldManager = goAPIManager // an apply needs a manager; the Go API has no options
	}
	octx := s.goOwner(ctx, res)
	if patchType == api.ApplyPatchType && !s.opts.GoAPIManagedFields {
		octx = goAPIOwner(ctx, res) // an apply always records its manager
	}
	rec, _, _, err := s.patch(octx, res, namespace, name, "", patchType, data, wo, nil)
	if err != nil {
		return nil, err
	}
	return s.view(s.served(res, rec)), nil
}

// goDelete is Delete.
func (s *endpoints) goDelete(ctx context.Context, resource, namespace, name string, opts *api.DeleteOptions) (api.Object, error) {
	res, done, err := s.enter("delete", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	var o api.DeleteOptions
	if opts != nil {
		o = *opts
	}
	if err := validateDelete(res, name); err != nil {
		return nil, err
	}
	dr, err := s.reg.Delete(context.Background(), res, namespace, name, o, decode.IsDryRun(o))
	if err != nil {
		return nil, err
	}
	return s.view(s.served(res, dr.Rec)), nil
}

// goList is List.
func (s *endpoints) goList(ctx context.Context, resource, namespace string, opts api.ListOptions) (api.Object, error) {
	res, done, err := s.enter("list", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	opts, err = decode.ParseListOptions(queryOf(opts), false)
	if err != nil {
		return nil, err
	}
	lr, err := s.list(ctx, res, namespace, opts)
	if err != nil {
		return nil, err
	}
	s.traceList(res, namespace, lr)
	return s.listObject(res, lr)
}

// goWatch is Watch.
func (s *endpoints) goWatch(ctx context.Context, resource, namespace string, opts api.ListOptions) (watch.Interface, error) {
	res, done, err := s.enter("watch", resource)
	if err != nil {
		return nil, err
	}
	// A watch through the Go API is a watch=true request: decode.ParseListOptions validates the
	// legacy /watch/ paths like a LIST, which would refuse watch-list options.
	opts.Watch = true
	opts, err = decode.ParseListOptions(queryOf(opts), true)
	if err != nil {
		done()
		return nil, err
	}
	wt, err := s.openWatch(ctx, res, namespace, opts)
	if err != nil {
		done()
		return nil, err
	}
	wctx, cancel := context.WithCancel(ctx)
	cw := &chanWatch{result: make(chan watch.Event), stop: make(chan struct{}), closing: s.life.closing, cancel: cancel, view: s.view}
	go func() {
		defer done()
		defer close(cw.result)
		defer cancel()
		s.serve(wctx, wt, cw)
	}()
	return cw, nil
}

// chanWatch is an in-process watch.Interface fed by a watcher's consumer.
type chanWatch struct {
	result  chan watch.Event
	stop    chan struct{}
	closing <-chan struct{} // the server's: Close must not wait for a reader
	once    sync.Once
	cancel  context.CancelFunc
	view    func(*record) api.Object // the Go API's copy of a stored record
}

func (c *chanWatch) Stop() {
	c.once.Do(func() {
		close(c.stop)
		c.cancel()
	})
}

func (c *chanWatch) ResultChan() <-chan watch.Event { return c.result }

func (c *chanWatch) send(typ watch.EventType, rec *record, obj api.Object) bool {
	if rec != nil {
		obj = c.view(rec)
	} else {
		obj = obj.DeepCopyObject()
	}
	select {
	case c.result <- watch.Event{Type: typ, Object: obj}:
		return true
	case <-c.stop:
		return false
	case <-c.closing:
		return false
	}
}

// flush: an in-process stream hands each event over as it is sent.
func (c *chanWatch) flush() bool { return true }

// endsIn: a send to an in-process stream ends with Stop or Close, not with a deadline.
func (c *chanWatch) endsIn(time.Duration) {}

// cut: an in-process stream has no bytes to cut; it just ends without the event.
func (c *chanWatch) cut(watch.EventType, *record) {}

// ResourceListerWatcher lists and watches one collection through the Go API. It has the
// methods of listwatch.ListerWatcher and ListerWatcherWithContext (client-go's
// cache.ListerWatcher), so a reflector or informer can use it without HTTP.
type ResourceListerWatcher struct {
	s         *Server
	resource  string
	namespace string
}

// ListerWatcher returns the in-process lister-watcher of a collection ("" namespace: all).
func (s *Server) ListerWatcher(resource, namespace string) *ResourceListerWatcher {
	return &ResourceListerWatcher{s: s, resource: resource, namespace: namespace}
}

// List mirrors ListWatch.List in client-go tools/cache/listwatch.go.
func (lw *ResourceListerWatcher) List(opts api.ListOptions) (api.Object, error) {
	return lw.s.List(context.Background(), lw.resource, lw.namespace, opts)
}

// Watch mirrors ListWatch.Watch.
func (lw *ResourceListerWatcher) Watch(opts api.ListOptions) (watch.Interface, error) {
	return lw.s.Watch(context.Background(), lw.resource, lw.namespace, opts)
}

// ListWithContext mirrors ListWatch.ListWithContext.
func (lw *ResourceListerWatcher) ListWithContext(ctx context.Context, opts api.ListOptions) (api.Object, error) {
	return lw.s.List(ctx, lw.resource, lw.namespace, opts)
}

// WatchWithContext mirrors ListWatch.WatchWithContext.
func (lw *ResourceListerWatcher) WatchWithContext(ctx context.Context, opts api.ListOptions) (watch.Interface, error) {
	return lw.s.Watch(ctx, lw.resource, lw.namespace, opts)
}

func (s *endpoints) traceList(res *resource, ns string, lr listResult) {
	if trace.Enabled(s.log) {
		trace.Hop(s.log, "apiserver", "list", objectKey(ns, res.Info.Resource), strconv.FormatUint(lr.RV, 10),
			slogInt("items", len(lr.Items)))
	}
}

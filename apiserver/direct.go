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
	"github.com/informer-lab/informer-lab/internal/trace"
)

// The Go API: the same operations as HTTP, without a socket, so tests can seed and mutate
// objects directly and build an in-process ListWatch (useful inside testing/synctest
// bubbles, where real sockets do not play well). resource is a plural ("pods"), a short name
// ("po"), "plural.group" ("deployments.apps") or "group/version/plural". Objects are deep
// copies both ways (H-8). Requests are counted and fault rules apply, as over HTTP.

// enter is the common prologue: the server is open, the resource exists, the request is
// counted and no injected failure stops it.
func (s *Server) enter(verb, resource string) (*resource, func(), error) {
	if err := s.begin(); err != nil {
		return nil, nil, err
	}
	res, err := s.lookup(resource)
	if err != nil {
		s.wg.Done()
		return nil, nil, err
	}
	s.counts.add(verb, res.info.GroupResource().String())
	if err := s.checkFail(verb, res); err != nil {
		s.wg.Done()
		return nil, nil, err
	}
	return res, s.wg.Done, nil
}

// Create stores a new object, as POST does, and returns the stored copy (C1–C6). A missing
// namespace in obj is taken from namespace.
func (s *Server) Create(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	res, done, err := s.enter("create", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	u, err := s.fromGo(res, obj)
	if err != nil {
		return nil, err
	}
	rec, err := s.create(res, namespace, u, false)
	if err != nil {
		return nil, err
	}
	return s.view(rec), nil
}

// Get returns a copy of the stored object, as GET does; a missing one is a NotFound Status.
func (s *Server) Get(ctx context.Context, resource, namespace, name string) (api.Object, error) {
	res, done, err := s.enter("get", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	rec, err := s.get(ctx, res, namespace, name, "")
	if err != nil {
		return nil, err
	}
	return s.view(rec), nil
}

// Update replaces the object named by obj, as PUT does (P1–P5): a stale resourceVersion is a
// Conflict, an empty one an unconditional update where the resource allows it, and a no-op
// writes nothing.
func (s *Server) Update(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	return s.updateVia(resource, namespace, obj, "")
}

// UpdateStatus writes only the status of obj, as PUT on the status subresource does.
func (s *Server) UpdateStatus(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	return s.updateVia(resource, namespace, obj, "status")
}

func (s *Server) updateVia(resource, namespace string, obj api.Object, sub string) (api.Object, error) {
	res, done, err := s.enter("update", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	u, err := s.fromGo(res, obj)
	if err != nil {
		return nil, err
	}
	rec, err := s.update(res, namespace, u, updateOptions{subresource: sub})
	if err != nil {
		return nil, err
	}
	return s.view(rec), nil
}

// Patch applies a patch, as PATCH does (X1–X5). patchType is one of api.JSONPatchType,
// MergePatchType, StrategicMergePatchType and ApplyPatchType, the Content-Types of a PATCH
// (parameters such as "; charset=utf-8" are ignored); any other is 415 UnsupportedMediaType.
// An apply patch creates a missing object.
func (s *Server) Patch(ctx context.Context, resource, namespace, name string, patchType api.PatchType, data []byte) (api.Object, error) {
	res, done, err := s.enter("patch", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	if patchType, err = patch.TypeFromContentType(string(patchType)); err != nil {
		return nil, err
	}
	rec, _, _, err := s.patch(res, namespace, name, "", patchType, data, decode.WriteOptions{})
	if err != nil {
		return nil, err
	}
	return s.view(rec), nil
}

// Delete deletes an object, as DELETE does (D1–D4, NS3, NS4). It returns the object's last
// state (with the delete's RV), or the marked object when finalizers keep it. opts may be nil.
func (s *Server) Delete(ctx context.Context, resource, namespace, name string, opts *api.DeleteOptions) (api.Object, error) {
	res, done, err := s.enter("delete", resource)
	if err != nil {
		return nil, err
	}
	defer done()
	var o api.DeleteOptions
	if opts != nil {
		o = *opts
	}
	dr, err := s.remove(res, namespace, name, o)
	if err != nil {
		return nil, err
	}
	return s.view(dr.rec), nil
}

// List returns one page of the collection as its list type (*api.PodList, …, or
// *api.UnstructuredList), with the semantics of §3: resourceVersion and
// resourceVersionMatch, limit and continue, selectors. namespace "" lists every namespace.
func (s *Server) List(ctx context.Context, resource, namespace string, opts api.ListOptions) (api.Object, error) {
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

// Watch opens a watch with the semantics of §4 and returns it as a watch.Interface whose
// events carry deep copies. It ends on Stop, when ctx is done, at its timeout, on
// CloseAllWatches and on Close.
func (s *Server) Watch(ctx context.Context, resource, namespace string, opts api.ListOptions) (watch.Interface, error) {
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
	cw := &chanWatch{result: make(chan watch.Event), stop: make(chan struct{}), closing: s.closing, cancel: cancel, view: s.view}
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

func (s *Server) traceList(res *resource, ns string, lr listResult) {
	if trace.Enabled(s.log) {
		trace.Hop(s.log, "apiserver", "list", objectKey(ns, res.info.Resource), strconv.FormatUint(lr.RV, 10),
			slogInt("items", len(lr.Items)))
	}
}

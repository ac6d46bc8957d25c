package apiserver

import (
	"context"
	"log/slog"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/authz"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/apiserver/internal/serviceaccount"
	"github.com/informer-lab/informer-lab/apiserver/storage"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// endpoints is the top layer of the server, on the model of k8s.io/apiserver
// pkg/endpoints: the HTTP handlers (routing, negotiation, decoding, tables, watch streams,
// discovery, OpenAPI, authentication, origin checks, limits) and the Go API behind the
// Server's exported verbs. It is a thin composition over the registry: every write goes to
// the generic store (registry.Store), every read to the storage.
type endpoints struct {
	opts    Options
	clock   clock.Clock
	log     *slog.Logger
	scheme  *api.Scheme
	version api.VersionInfo

	store  *storage.Store
	table  *registry.Table
	reg    *registry.Store
	faults *faults
	counts *requestCounts
	life   *lifecycle
	debug  debugFaults // /debug/faults drives the Server's fault API

	// openAPICache holds each group-version's OpenAPI document by the kinds it served when
	// built (openapi.go).
	openAPICache sync.Map

	// tokens issues and authenticates service-account tokens (auth.go, token_request.go);
	// authorizer is the chain of Options.Authorization (authorization.go).
	tokens     *serviceaccount.Tokens
	authorizer *authz.Chain
	// v2 holds the /openapi/v2 document of what is served now (openapi_v2.go).
	v2 swaggerState
}

// debugFaults serves /debug/faults over the Server's exported fault API.
type debugFaults struct{ *Server }

// The Go API's exported verbs, each one the endpoints' in-process counterpart of a request
// (direct.go).

// Create stores a new object, as POST does, and returns the stored copy (C1–C6). A missing
// namespace in obj is taken from namespace.
func (s *Server) Create(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	return s.ep.create(ctx, resource, namespace, obj)
}

// Get returns a copy of the stored object, as GET does; a missing one is a NotFound Status.
func (s *Server) Get(ctx context.Context, resource, namespace, name string) (api.Object, error) {
	return s.ep.goGet(ctx, resource, namespace, name)
}

// Update replaces the object named by obj, as PUT does (P1–P5): a stale resourceVersion is a
// Conflict, an empty one an unconditional update where the resource allows it, and a no-op
// writes nothing.
func (s *Server) Update(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	return s.ep.update(ctx, resource, namespace, obj)
}

// UpdateStatus writes only the status of obj, as PUT on the status subresource does.
func (s *Server) UpdateStatus(ctx context.Context, resource, namespace string, obj api.Object) (api.Object, error) {
	return s.ep.updateStatus(ctx, resource, namespace, obj)
}

// Patch applies a patch, as PATCH does (X1–X5). patchType is one of api.JSONPatchType,
// MergePatchType, StrategicMergePatchType and ApplyPatchType, the Content-Types of a PATCH
// (parameters such as "; charset=utf-8" are ignored); any other is 415 UnsupportedMediaType.
// An apply patch creates a missing object.
func (s *Server) Patch(ctx context.Context, resource, namespace, name string, patchType api.PatchType, data []byte) (api.Object, error) {
	return s.ep.goPatch(ctx, resource, namespace, name, patchType, data)
}

// Delete deletes an object, as DELETE does (D1–D4, NS3, NS4). It returns the object's last
// state (with the delete's RV), or the marked object when finalizers keep it. opts may be nil.
func (s *Server) Delete(ctx context.Context, resource, namespace, name string, opts *api.DeleteOptions) (api.Object, error) {
	return s.ep.goDelete(ctx, resource, namespace, name, opts)
}

// List returns one page of the collection as its list type (*api.PodList, …, or
// *api.UnstructuredList), with the semantics of §3: resourceVersion and
// resourceVersionMatch, limit and continue, selectors. namespace "" lists every namespace.
func (s *Server) List(ctx context.Context, resource, namespace string, opts api.ListOptions) (api.Object, error) {
	return s.ep.goList(ctx, resource, namespace, opts)
}

// Watch opens a watch with the semantics of §4 and returns it as a watch.Interface whose
// events carry deep copies. It ends on Stop, when ctx is done, at its timeout, on
// CloseAllWatches and on Close.
func (s *Server) Watch(ctx context.Context, resource, namespace string, opts api.ListOptions) (watch.Interface, error) {
	return s.ep.goWatch(ctx, resource, namespace, opts)
}

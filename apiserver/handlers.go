package apiserver

import (
	"context"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/patch"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// The REST handlers (k8s.io/apiserver pkg/endpoints/handlers: get.go, create.go, update.go,
// patch.go, delete.go, watch.go) over the registry's generic store (ops.go, list.go).

// serveCollectionGet serves LIST and WATCH (§3, §4).
func (s *endpoints) serveCollectionGet(w http.ResponseWriter, r *http.Request, info requestInfo) {
	opts, err := listOptionsFor(r, info)
	if err != nil {
		writeError(w, err)
		return
	}
	if info.verb == "watch" {
		s.serveWatchHTTP(w, r, info, opts)
		return
	}
	lr, err := s.list(r.Context(), info.res, info.namespace, opts)
	if err != nil {
		writeError(w, err)
		return
	}
	s.traceList(info.res, info.namespace, lr)
	var data []byte
	switch info.out.Shape {
	case negotiation.Table:
		data = append(s.tableConverter(info).Table(listMetaOf(lr), recordRows(lr.Items), true), '\n')
	case negotiation.PartialObjectMetadata:
		objects := make([][]byte, len(lr.Items))
		for i, r := range lr.Items {
			objects[i] = jsonOf(r)
		}
		data = printers.PartialObjectMetadataList(info.out.Version, listMetaOf(lr), objects)
	default:
		if info.out.Protobuf {
			if data, err = s.encodeListProtobuf(info.res, lr); err != nil {
				writeError(w, api.NewInternalError(err))
				return
			}
			break
		}
		data = s.encodeList(info.res, lr)
	}
	writeRawType(w, http.StatusOK, info.out.ContentType(), data)
}

// tableConverter prints the request's resource as of now.
func (s *endpoints) tableConverter(info requestInfo) *printers.TableConverter {
	return &printers.TableConverter{
		Printer: printerFor(info.res, info.version),
		Version: info.out.Version,
		Include: info.include,
		Now:     s.clock.Now(),
	}
}

// recordRows are the rows of stored objects, printed from their cached JSON.
func recordRows(recs []*record) []printers.Row {
	out := make([]printers.Row, len(recs))
	for i, r := range recs {
		out[i] = printers.Row{Object: r.Obj, JSON: jsonOf(r)}
	}
	return out
}

// listMetaOf is the metadata a list response carries (L1, K15).
func listMetaOf(lr listResult) api.ListMeta {
	return api.ListMeta{ResourceVersion: strconv.FormatUint(lr.RV, 10), Continue: lr.Continue, RemainingItemCount: lr.Remaining}
}

// serveGet serves GET of one object (L6); ?watch is ignored on an item (U7).
func (s *endpoints) serveGet(w http.ResponseWriter, r *http.Request, info requestInfo) {
	rv := r.URL.Query().Get("resourceVersion")
	rec, err := s.get(r.Context(), info.res, info.namespace, info.name, rv)
	if err != nil {
		writeError(w, err)
		return
	}
	var data []byte
	switch info.out.Shape {
	case negotiation.Table:
		meta := api.ListMeta{ResourceVersion: strconv.FormatUint(rec.RV, 10)}
		data = append(s.tableConverter(info).Table(meta, recordRows([]*record{rec}), true), '\n')
	case negotiation.PartialObjectMetadata:
		data = append(printers.PartialObjectJSON(info.out.Version, jsonOf(rec)), '\n')
	default:
		writeObject(w, info, http.StatusOK, rec)
		return
	}
	writeRawType(w, http.StatusOK, info.out.ContentType(), data)
}

// decodeRequest reads and decodes a POST or PUT body for the resource (C1, E1–E8, E21),
// after validating the query options of optionsKind (CreateOptions or UpdateOptions).
func (s *endpoints) decodeRequest(w http.ResponseWriter, r *http.Request, info requestInfo, optionsKind string) (*api.Unstructured, decode.WriteOptions, bool) {
	if err := checkBodyType(r, protobufServable(info.res)); err != nil {
		writeError(w, err)
		return nil, decode.WriteOptions{}, false
	}
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, err)
		return nil, decode.WriteOptions{}, false
	}
	var fromTree *api.Unstructured // a protobuf body the tree walk took whole
	if isProtobufType(r.Header.Get("Content-Type")) {
		tree, err := protobufBodyTree(body, info.res.Info.GVK())
		if err != nil {
			writeError(w, err)
			return nil, decode.WriteOptions{}, false
		}
		var ok bool
		if fromTree, ok = s.objectFromTree(info.res, tree); !ok {
			if body, err = treeJSON(tree, len(body)); err != nil { // the JSON way decides
				writeError(w, err)
				return nil, decode.WriteOptions{}, false
			}
		}
	}
	wo, err := decode.ParseWriteOptions(optionsKind, r.URL.Query(), "")
	if err != nil {
		writeError(w, err)
		return nil, wo, false
	}
	if fromTree != nil {
		return fromTree, wo, true
	}
	obj, warnings, err := s.decodeObjectAt(info.res, info.version, body, wo.FieldValidation)
	if err != nil {
		writeError(w, err)
		return nil, wo, false
	}
	writeWarnings(w, warnings)
	return obj, wo, true
}

// serveCreate serves POST (C1–C6): 201 with the stored object.
func (s *endpoints) serveCreate(w http.ResponseWriter, r *http.Request, info requestInfo) {
	obj, wo, ok := s.decodeRequest(w, r, info, decode.CreateOptionsKind)
	if !ok {
		return
	}
	ctx, wr := rest.WithWarnings(rest.WithUser(withOwner(context.Background(), r, wo, info), s.requestUser(r)))
	rec, err := s.reg.Create(ctx, info.res, info.namespace, obj, wo.DryRun)
	if err != nil {
		writeWarnings(w, wr.Warnings()) // sent with the error too, as warning.AddWarning does
		writeError(w, err)
		return
	}
	writeWarnings(w, wr.Warnings())
	writeObject(w, info, http.StatusCreated, s.served(info.res, rec))
}

// serveUpdate serves PUT (P1–P5).
func (s *endpoints) serveUpdate(w http.ResponseWriter, r *http.Request, info requestInfo) {
	obj, wo, ok := s.decodeRequest(w, r, info, decode.UpdateOptionsKind)
	if !ok {
		return
	}
	if obj.GetName() != info.name {
		writeError(w, errNameMismatch(obj.GetName(), info.name))
		return
	}
	ctx, wr := rest.WithWarnings(rest.WithUser(withOwner(context.Background(), r, wo, info), s.requestUser(r)))
	rec, created, err := s.reg.UpdateOrCreate(ctx, info.res, info.namespace, obj, updateOptions{Subresource: info.subresource, DryRun: wo.DryRun})
	if err != nil {
		writeWarnings(w, wr.Warnings())
		writeError(w, err)
		return
	}
	writeWarnings(w, wr.Warnings())
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	writeObject(w, info, code, s.served(info.res, rec))
}

// servePatch serves PATCH (X1–X5).
func (s *endpoints) servePatch(w http.ResponseWriter, r *http.Request, info requestInfo) {
	pt, err := patch.TypeFromContentType(r.Header.Get("Content-Type"))
	if err == nil {
		err = patch.Supported(pt, info.res.Builtin)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	wo, err := decode.ParseWriteOptions(decode.PatchOptionsKind, r.URL.Query(), pt)
	if err != nil {
		writeError(w, err)
		return
	}
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	if pt == api.ApplyPatchType {
		wo.FieldManager = managerOrUserAgent(wo.FieldManager, r.UserAgent())
	}
	ctx, wr := rest.WithWarnings(rest.WithUser(withOwner(context.Background(), r, wo, info), s.requestUser(r)))
	rec, created, warnings, err := s.patch(ctx, info.res, info.namespace, info.name, info.subresource, pt, body, wo, info.conv)
	if err != nil {
		writeWarnings(w, wr.Warnings())
		writeError(w, err)
		return
	}
	writeWarnings(w, append(warnings, wr.Warnings()...))
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	writeObject(w, info, code, s.served(info.res, rec))
}

// patch applies a patch to the stored object and updates it, retrying when a concurrent
// write got in between, as GuaranteedUpdate does. A stale resourceVersion carried by the
// patch itself is a conflict (X5). An apply patch goes to the field manager (apply.go).
func (s *endpoints) patch(ctx context.Context, res *resource, ns, name, sub string, pt api.PatchType, body []byte, wo decode.WriteOptions, conv *conversion) (*record, bool, []string, error) {
	decodeAt := func(data []byte) (*api.Unstructured, []string, error) {
		if conv != nil { // the patch is in the terms of the version it was sent at
			return conv.decode(s, res, data, wo.FieldValidation)
		}
		return s.decodeObject(res, data, wo.FieldValidation)
	}
	if pt == api.ApplyPatchType {
		return s.apply(ctx, res, ns, name, sub, body, wo, decodeAt, conv)
	}
	for attempt := 0; ; attempt++ {
		cur, _ := s.store.Get(context.Background(), res.Coll, objectKey(ns, name), storage.GetOptions{})
		if cur == nil {
			return nil, false, nil, api.NewNotFound(res.Info.GroupResource(), name)
		}
		curJSON, gvk := jsonOf(s.served(res, cur)), res.Info.GVK()
		if conv != nil {
			curJSON, gvk = conv.view(curJSON), conv.asked
		}
		patched, err := patch.ApplyFor(pt, curJSON, body, gvk, res.Builtin)
		if err != nil {
			return nil, false, nil, err
		}
		obj, warnings, err := decodeAt(patched)
		if err != nil {
			return nil, false, nil, err
		}
		m := obj
		if m.GetName() != name {
			return nil, false, nil, errNameMismatch(m.GetName(), name)
		}
		curRV := strconv.FormatUint(cur.RV, 10)
		fromPatch := m.GetResourceVersion() != curRV
		if !fromPatch {
			m.SetResourceVersion("")
		}
		rec, err := s.reg.Update(ctx, res, ns, obj, updateOptions{Subresource: sub, ExpectRV: curRV, DryRun: wo.DryRun})
		if err != nil && api.IsConflict(err) && !fromPatch && attempt < 5 {
			continue // someone wrote in between: apply the patch to the new state
		}
		return rec, false, warnings, err
	}
}

// serveDelete serves DELETE of one object (D1–D4).
func (s *endpoints) serveDelete(w http.ResponseWriter, r *http.Request, info requestInfo) {
	body, err := s.readDeleteBody(w, r, info)
	if err != nil {
		writeError(w, err)
		return
	}
	opts, err := decode.ParseDeleteOptions(r.URL.Query(), body)
	if err != nil {
		writeError(w, err)
		return
	}
	writeWarnings(w, jobDeleteWarning(info.res, opts))
	if err := validateDelete(info.res, info.name); err != nil {
		writeError(w, err)
		return
	}
	res, err := s.reg.Delete(context.Background(), info.res, info.namespace, info.name, opts, decode.IsDryRun(opts))
	if err != nil {
		writeError(w, err)
		return
	}
	if info.res.Info.ReturnDeletedObject || !res.Deleted {
		writeObject(w, info, http.StatusOK, s.served(info.res, res.Rec))
		return
	}
	gr := info.res.Info.GroupResource()
	writeStatusBody(w, http.StatusOK, &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusSuccess,
		Details:  &api.StatusDetails{Name: info.name, Group: gr.Group, Kind: gr.Resource, UID: res.Rec.Obj.GetUID()},
	})
}

// readDeleteBody reads the optional DeleteOptions body of a DELETE, in JSON or, for a
// built-in kind, protobuf (client-go's typed clients send protobuf by default, CG1). Any
// other encoding is 415, like a POST body (N2).
func (s *endpoints) readDeleteBody(w http.ResponseWriter, r *http.Request, info requestInfo) ([]byte, error) {
	body, err := s.readBody(w, r)
	if err != nil || len(body) == 0 {
		return body, err
	}
	if err := checkBodyType(r, protobufServable(info.res)); err != nil {
		return nil, err
	}
	if isProtobufType(r.Header.Get("Content-Type")) {
		return protobufBodyToJSON(body, api.GroupVersionKind{Kind: "DeleteOptions"})
	}
	return body, nil
}

// serveDeleteCollection deletes every object of the collection that passes the selectors
// (D6) and answers with the list of what it deleted or marked.
func (s *endpoints) serveDeleteCollection(w http.ResponseWriter, r *http.Request, info requestInfo) {
	body, err := s.readDeleteBody(w, r, info)
	if err != nil {
		writeError(w, err)
		return
	}
	dopts, err := decode.ParseDeleteOptions(r.URL.Query(), body)
	if err != nil {
		writeError(w, err)
		return
	}
	lopts, err := decode.ParseListOptions(r.URL.Query(), false)
	if err != nil {
		writeError(w, err)
		return
	}
	writeWarnings(w, jobDeleteWarning(info.res, dopts))
	lr, err := s.deleteCollection(r, info.res, info.namespace, lopts, dopts)
	if err != nil {
		writeError(w, err)
		return
	}
	if info.out.Protobuf {
		data, err := s.encodeListProtobuf(info.res, lr)
		if err != nil {
			writeError(w, api.NewInternalError(err))
			return
		}
		writeRawType(w, http.StatusOK, info.out.ContentType(), data)
		return
	}
	writeRaw(w, http.StatusOK, s.encodeList(info.res, lr))
}

func (s *endpoints) deleteCollection(r *http.Request, res *resource, ns string, lopts api.ListOptions, dopts api.DeleteOptions) (listResult, error) {
	lopts.Limit, lopts.Continue = 0, ""
	lr, err := s.list(r.Context(), res, ns, lopts)
	if err != nil {
		return lr, err
	}
	out := listResult{Items: []*record{}}
	for _, rec := range lr.Items {
		// Wait for room in the watchers' queues: a reading watcher gets every DELETED.
		s.store.WaitForRoom(r.Context(), res.Coll)
		_, err := s.reg.Delete(r.Context(), res, rec.Obj.GetNamespace(), rec.Obj.GetName(), dopts, decode.IsDryRun(dopts))
		if api.IsNotFound(err) {
			continue
		}
		if err != nil {
			return out, err
		}
		// DeleteCollection answers the items as it listed them, not their deletes' results
		out.Items = append(out.Items, s.served(res, rec))
	}
	out.RV = s.store.ResourceVersion()
	return out, nil
}

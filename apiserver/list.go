package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/storage"
)

// Lists: the handler side of the cacher's GetList (the snapshots, paging and 410s are the
// storage's: package storage). What it adds:
//
//  1. limit is ignored with resourceVersion=0 unless HonourLimitWithRV0 (L9).
//     remainingItemCount is set only on a non-last page of a list without selectors (L13).
//  2. An Exact list, or a paged list from a given RV, reads the snapshot at that RV (L7);
//     a future RV waits TooLargeResourceVersionWait, then 504 (L4, L5, H-2).
//  3. Continue tokens are the real server's (internal/continuetoken); a bad one is 400.

// listResult is one page of a LIST, ready to encode.
type listResult = storage.ListResult

// list serves a LIST (Store.List with the cacher's rules; L3–L16). opts must have passed
// decode.ParseListOptions.
func (s *endpoints) list(ctx context.Context, res *resource, ns string, opts api.ListOptions) (listResult, error) {
	sel, err := parseSelectors(res, opts.LabelSelector, opts.FieldSelector)
	if err != nil {
		return listResult{}, err
	}
	rv, err := decode.ParseResourceVersion(opts.ResourceVersion)
	if err != nil {
		return listResult{}, err
	}
	limit := int(opts.Limit)
	if opts.ResourceVersion == "0" && opts.Continue == "" && !s.opts.HonourLimitWithRV0 {
		limit = 0 // L9: the watch cache ignores limit for "any" lists
	}
	exact := opts.ResourceVersionMatch == api.ResourceVersionMatchExact ||
		(opts.ResourceVersionMatch == "" && limit > 0 && rv > 0)
	lr, err := s.store.GetList(ctx, res.Coll, storage.ListOptions{
		Namespace: ns, ResourceVersion: rv, Exact: exact, Continue: opts.Continue,
		Limit: limit, Predicate: sel.keepFunc(res),
	})
	return s.servedList(res, lr), err
}

// encodeList writes a list as the real server sends it (L1): kind and apiVersion, ListMeta,
// and items that are never null. Items reuse each record's cached JSON.
func (s *endpoints) encodeList(res *resource, lr listResult) []byte {
	meta, _ := json.Marshal(api.ListMeta{
		ResourceVersion:    strconv.FormatUint(lr.RV, 10),
		Continue:           lr.Continue,
		RemainingItemCount: lr.Remaining,
	})
	if res.CRDName != "" {
		// A custom resource's list is an UnstructuredList, whose SetContinue always writes
		// the member, "" included, and whose map encodes with sorted keys.
		m := map[string]any{"continue": lr.Continue, "resourceVersion": strconv.FormatUint(lr.RV, 10)}
		if lr.Remaining != nil {
			m["remainingItemCount"] = *lr.Remaining
		}
		meta, _ = json.Marshal(m)
	}
	size := 128
	for _, r := range lr.Items {
		size += len(jsonOf(r)) + 1
	}
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(`{"kind":`)
	writeJSONString(&b, res.Info.ListKindName())
	b.WriteString(`,"apiVersion":`)
	writeJSONString(&b, res.Info.APIVersion())
	b.WriteString(`,"metadata":`)
	b.Write(meta)
	b.WriteString(`,"items":[`)
	for i, r := range lr.Items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonOf(r))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

// listObject builds the Go list of a page: a *api.PodList (etc.) for built-ins, an
// *api.UnstructuredList otherwise. Items are deep copies (H-8).
func (s *endpoints) listObject(res *resource, lr listResult) (api.Object, error) {
	items := make([]api.Object, len(lr.Items))
	for i, r := range lr.Items {
		items[i] = s.view(r)
	}
	var list api.ListObject
	listGVK := res.Info.GVK()
	listGVK.Kind += "List"
	if res.Builtin && s.scheme.Recognizes(listGVK) {
		l, err := s.scheme.NewList(res.Info.GVK())
		if err != nil {
			return nil, api.NewInternalError(err)
		}
		list = l
	} else {
		// A custom kind, or a built-in without a Go view (deployments, events): its items
		// are Unstructured (view), so is the list.
		list = &api.UnstructuredList{Object: map[string]any{}}
	}
	list.GetObjectKind().SetGroupVersionKind(api.GroupVersionKind{Group: res.Info.Group, Version: res.Info.Version, Kind: res.Info.ListKindName()})
	if err := list.SetItems(items); err != nil {
		return nil, api.NewInternalError(err)
	}
	list.SetResourceVersion(strconv.FormatUint(lr.RV, 10))
	list.SetContinue(lr.Continue)
	list.SetRemainingItemCount(lr.Remaining)
	return list, nil
}

// watchListForbidden is the 422 of a server with the WatchList feature gate off (CG5).
func watchListForbidden() *api.Status {
	return api.NewInvalid(api.GroupKind{Group: api.MetaGroupName, Kind: "ListOptions"}, "", []api.StatusCause{{
		Type: api.CauseTypeForbidden, Field: "sendInitialEvents",
		Message: "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
	}})
}

// openWatch validates a WATCH and registers its watcher (W1–W9). opts must have passed
// decode.ParseListOptions. Errors here are ordinary HTTP errors (W2); a compacted or too large RV
// becomes the watcher's single ERROR event instead (W9, W12).
func (s *endpoints) openWatch(ctx context.Context, res *resource, ns string, opts api.ListOptions) (*watcher, error) {
	sendInitial := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	if sendInitial && s.opts.RejectWatchList {
		return nil, watchListForbidden()
	}
	sel, err := parseSelectors(res, opts.LabelSelector, opts.FieldSelector)
	if err != nil {
		return nil, err
	}
	rv, err := decode.ParseResourceVersion(opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	// As in the real handler, only a missing or zero timeoutSeconds gets the default random
	// lifetime; a negative one has expired already (the watch ends before any event).
	timeout := s.defaultWatchTimeout()
	if t := opts.TimeoutSeconds; t != nil && *t != 0 {
		secs := max(min(*t, int64(math.MaxInt64/time.Second)), -1) // no overflow either way
		timeout = time.Duration(secs) * time.Second
	}
	return s.register(ctx, watchRequest{res: res, ns: ns, opts: opts, sel: sel, rv: rv, timeout: timeout})
}

// queryOf turns Go-side ListOptions into the query a client would send, so the Go API runs
// the same validation as HTTP.
func queryOf(o api.ListOptions) url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("labelSelector", o.LabelSelector)
	set("fieldSelector", o.FieldSelector)
	if o.Watch {
		q.Set("watch", "true")
	}
	if o.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	set("resourceVersion", o.ResourceVersion)
	set("resourceVersionMatch", o.ResourceVersionMatch)
	if o.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
	}
	if o.Limit != 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	set("continue", o.Continue)
	if o.SendInitialEvents != nil {
		q.Set("sendInitialEvents", fmt.Sprint(*o.SendInitialEvents))
	}
	return q
}

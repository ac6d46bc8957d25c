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
	"github.com/informer-lab/informer-lab/apiserver/internal/continuetoken"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
)

// Lists: the cacher's GetList and the etcd3 store's paging. What they promise:
//
//  1. Snapshots without MVCC: a list at an older revision (Exact, or a later page of a paged
//     list) is rebuilt from the current state by undoing the retained events after it. Every
//     page of one list therefore has the first page's RV even when writes happen between
//     pages (wire spec L7); once that RV leaves the history, the token gets 410 Expired
//     carrying a fresh "latest" token (L12). Exact at a compacted RV is 410; a future RV
//     waits TooLargeResourceVersionWait, then 504 ResourceVersionTooLarge (L4, L5, H-2).
//  2. limit is ignored with resourceVersion=0 unless HonourLimitWithRV0 (L9).
//     remainingItemCount is set only on a non-last page of a list without selectors (L13).
//  3. Continue tokens are the real server's (internal/continuetoken); a bad one is 400.

// errContinueExpiredMessage mirrors the message of the real server's 410 for a continue
// token whose revision was compacted (L12).
const errContinueExpiredMessage = "The provided continue parameter is too old to display a consistent list result. " +
	"You can start a new list without the continue parameter, or use the continue token in this response to " +
	"retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - " +
	"objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."

// listResult is one page of a LIST, ready to encode.
type listResult struct {
	items     []*record
	rv        uint64
	cont      string
	remaining *int64
}

// list serves a LIST (Store.List with the cacher's rules; L3–L16). opts must have passed
// decode.ParseListOptions.
//
// Snapshots: an Exact list and every page after the first are read at an older revision.
// Instead of MVCC, the page is rebuilt from the current state and the history of events
// after that revision (readPage). Such a read works while the revision is retained; once
// compacted it is 410 Expired, as on a real server.
func (s *Server) list(ctx context.Context, res *resource, ns string, opts api.ListOptions) (listResult, error) {
	sel, err := parseSelectors(res, opts.LabelSelector, opts.FieldSelector)
	if err != nil {
		return listResult{}, err
	}
	keep := sel.keepFunc(res)
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
	if rv > 0 && opts.Continue == "" {
		if err := s.waitForRV(ctx, rv); err != nil {
			return listResult{}, err
		}
	}

	var from string
	var tokenRV uint64
	if opts.Continue != "" {
		if tokenRV, from, err = continuetoken.Decode(opts.Continue); err != nil {
			return listResult{}, err
		}
	}

	p, err := s.readList(res, ns, opts.Continue != "", tokenRV, exact, rv, from, limit, keep)
	if err != nil {
		return listResult{}, err
	}

	out := listResult{items: p.items, rv: p.rv}
	if p.more {
		out.cont = continuetoken.Encode(p.rv, p.lastKey+"\x00")
		if keep == nil {
			n := p.remaining
			out.remaining = &n
		}
	}
	if out.items == nil {
		out.items = []*record{}
	}
	return out, nil
}

// readList picks the snapshot revision and reads the page under the read lock (released by
// defer, so a panicking selector cannot leave the store locked).
func (s *Server) readList(res *resource, ns string, isContinue bool, tokenRV uint64, exact bool, rv uint64, from string, limit int, keep func(*record) bool) (page, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	at := s.rev
	switch {
	case isContinue && tokenRV == 0: // an "inconsistent continuation": latest
	case isContinue && tokenRV > s.rev:
		return page{}, api.NewBadRequest("invalid continue token: continue key is not valid: resourceVersion is ahead of the server")
	case isContinue && tokenRV < s.hist.start:
		st := api.NewResourceExpired(errContinueExpiredMessage)
		st.Continue = continuetoken.EncodeLatest(from)
		return page{}, st
	case isContinue:
		at = tokenRV
	case exact && rv < s.hist.start:
		return page{}, api.NewResourceExpired("The resourceVersion for the provided list is too old.")
	case exact:
		at = rv
	}
	return s.readPage(res, ns, at, from, limit, keep), nil
}

// encodeList writes a list as the real server sends it (L1): kind and apiVersion, ListMeta,
// and items that are never null. Items reuse each record's cached JSON.
func (s *Server) encodeList(res *resource, lr listResult) []byte {
	meta, _ := json.Marshal(api.ListMeta{
		ResourceVersion:    strconv.FormatUint(lr.rv, 10),
		Continue:           lr.cont,
		RemainingItemCount: lr.remaining,
	})
	size := 128
	for _, r := range lr.items {
		size += len(r.json()) + 1
	}
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(`{"kind":`)
	writeJSONString(&b, res.info.listKind())
	b.WriteString(`,"apiVersion":`)
	writeJSONString(&b, res.info.apiVersion())
	b.WriteString(`,"metadata":`)
	b.Write(meta)
	b.WriteString(`,"items":[`)
	for i, r := range lr.items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(r.json())
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
func (s *Server) listObject(res *resource, lr listResult) (api.Object, error) {
	items := make([]api.Object, len(lr.items))
	for i, r := range lr.items {
		items[i] = s.view(r)
	}
	var list api.ListObject
	listGVK := res.info.GVK()
	listGVK.Kind += "List"
	if res.info.builtin && s.scheme.Recognizes(listGVK) {
		l, err := s.scheme.NewList(res.info.GVK())
		if err != nil {
			return nil, api.NewInternalError(err)
		}
		list = l
	} else {
		// A custom kind, or a built-in without a Go view (deployments, events): its items
		// are Unstructured (view), so is the list.
		list = &api.UnstructuredList{Object: map[string]any{}}
	}
	list.GetObjectKind().SetGroupVersionKind(api.GroupVersionKind{Group: res.info.Group, Version: res.info.Version, Kind: res.info.listKind()})
	if err := list.SetItems(items); err != nil {
		return nil, api.NewInternalError(err)
	}
	list.SetResourceVersion(strconv.FormatUint(lr.rv, 10))
	list.SetContinue(lr.cont)
	list.SetRemainingItemCount(lr.remaining)
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
func (s *Server) openWatch(ctx context.Context, res *resource, ns string, opts api.ListOptions) (*watcher, error) {
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
	if sendInitial && rv > 0 {
		if err := s.waitForRV(ctx, rv); err != nil {
			st, _ := err.(*api.Status)
			if st == nil {
				st = api.NewInternalError(err)
			}
			return &watcher{res: res, ns: ns, startRV: rv, initErr: st, done: make(chan struct{})}, nil
		}
	}
	return s.register(watchRequest{res: res, ns: ns, opts: opts, sel: sel, rv: rv, timeout: timeout})
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

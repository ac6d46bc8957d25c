package storage

import (
	"context"
	"slices"
	"sort"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/continuetoken"
)

// errContinueExpiredMessage mirrors the message of the real server's 410 for a continue
// token whose revision was compacted.
const errContinueExpiredMessage = "The provided continue parameter is too old to display a consistent list result. " +
	"You can start a new list without the continue parameter, or use the continue token in this response to " +
	"retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - " +
	"objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."

// GetList mirrors store.GetList with the cacher's rules. Snapshots need no MVCC: a list at
// an older revision (Exact, or a later page of a paged list) is rebuilt from the current
// state by undoing the retained events after it, so every page of one list has the first
// page's revision. Once that revision leaves the history, the token is 410 Expired carrying
// a fresh "latest" token; Exact at a compacted revision is 410; a future revision waits
// TooLargeResourceVersionWait, then 504.
func (s *Store) GetList(ctx context.Context, c *Collection, opts ListOptions) (ListResult, error) {
	if opts.ResourceVersion > 0 && opts.Continue == "" {
		if err := s.WaitForResourceVersion(ctx, opts.ResourceVersion); err != nil {
			return ListResult{}, err
		}
	}
	var from string
	var tokenRV uint64
	if opts.Continue != "" {
		var err error
		if tokenRV, from, err = continuetoken.Decode(opts.Continue); err != nil {
			return ListResult{}, err
		}
	}
	p, err := s.readList(c, opts, tokenRV, from)
	if err != nil {
		return ListResult{}, err
	}
	out := ListResult{Items: p.items, RV: p.rv}
	if p.more {
		out.Continue = continuetoken.Encode(p.rv, p.lastKey+"\x00")
		if opts.Predicate == nil {
			n := p.remaining
			out.Remaining = &n
		}
	}
	if out.Items == nil {
		out.Items = []*Record{}
	}
	return out, nil
}

// readList picks the snapshot revision and reads the page under the read lock (released by
// defer, so a panicking predicate cannot leave the store locked).
func (s *Store) readList(c *Collection, opts ListOptions, tokenRV uint64, from string) (page, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	at := s.rev
	isContinue := opts.Continue != ""
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
	case opts.Exact && opts.ResourceVersion < s.hist.start:
		return page{}, api.NewResourceExpired("The resourceVersion for the provided list is too old.")
	case opts.Exact:
		at = opts.ResourceVersion
	}
	return s.readPage(c, opts.Namespace, at, from, opts.Limit, opts.Predicate), nil
}

// page is one read of a collection at a snapshot revision.
type page struct {
	items     []*Record
	rv        uint64
	lastKey   string // key of the last item, relative to the collection prefix
	more      bool
	remaining int64 // items after lastKey, when more
}

// readPage reads collection c (namespace ns, "" for all) as of revision at, starting at the
// relative key from, up to limit items (0: all) that keep passes. Callers hold s.mu and have
// checked that at is in [hist.start, rev].
//
// A snapshot older than the current revision is rebuilt from the history: walking the events
// after at from newest to oldest, each key's overlay ends at its state before the oldest such
// event, which is its state at at. The page merges the current keys with the overlay keys.
func (s *Store) readPage(c *Collection, ns string, at uint64, from string, limit int, keep func(*Record) bool) page {
	var overlay map[string]*Record
	if at < s.rev {
		overlay = map[string]*Record{}
		for rv := s.rev; rv > at; rv-- {
			ev := s.hist.at(rv)
			if ev.Coll == c {
				overlay[ev.Obj.Key] = ev.Old
			}
		}
	}
	prefix := ""
	if ns != "" {
		prefix = ns + "/"
	}
	cur := c.sortedKeys()
	lo := sort.SearchStrings(cur, prefix+from)
	hi := len(cur)
	if prefix != "" {
		hi = sort.SearchStrings(cur, ns+"0") // '0' follows '/': the end of the prefix range
	}
	var extra []string
	for k, rec := range overlay {
		if _, inCur := c.objects[k]; !inCur && rec != nil && k >= prefix+from && (prefix == "" || len(k) > len(prefix) && k[:len(prefix)] == prefix) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)

	p := page{rv: at}
	i, j := lo, 0
	next := func() (string, *Record, bool) {
		for i < hi || j < len(extra) {
			var k string
			if j >= len(extra) || (i < hi && cur[i] < extra[j]) {
				k = cur[i]
				i++
			} else {
				k = extra[j]
				j++
			}
			rec, ok := overlay[k]
			if !ok {
				rec = c.objects[k]
			}
			if rec != nil {
				return k, rec, true
			}
		}
		return "", nil, false
	}
	var lastAbs string
	for {
		k, rec, ok := next()
		if !ok {
			break
		}
		if keep != nil && !keep(rec) {
			continue
		}
		if limit > 0 && len(p.items) == limit {
			p.more = true
			break
		}
		p.items = append(p.items, rec)
		lastAbs = k
	}
	if p.more {
		p.lastKey = lastAbs[len(prefix):]
		if keep == nil {
			p.remaining = countAfter(c, cur, hi, overlay, prefix, lastAbs)
		}
	}
	return p
}

// countAfter counts the snapshot's items with a key after last inside the prefix range.
func countAfter(c *Collection, cur []string, hi int, overlay map[string]*Record, prefix, last string) int64 {
	n := int64(hi - sort.SearchStrings(cur, last+"\x00"))
	for k, rec := range overlay {
		if k <= last || (prefix != "" && (len(k) <= len(prefix) || k[:len(prefix)] != prefix)) {
			continue
		}
		_, inCur := c.objects[k]
		switch {
		case inCur && rec == nil:
			n--
		case !inCur && rec != nil:
			n++
		}
	}
	return n
}

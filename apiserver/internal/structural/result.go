package structural

import "github.com/informer-lab/informer-lab/apiserver/internal/cost"

// result mirrors validate.Result: errors deduplicated by text, and a match count.
type result struct {
	errs    []verr
	matches int
	seen    map[string]struct{} // the texts of errs, once there are more than a few
}

// smallResult is how many errors a result deduplicates by scanning before it keeps a set:
// a scan per error is quadratic in an object with one error per list item.
const smallResult = 8

func (r *result) add(errs ...verr) {
	for _, e := range errs {
		cost.Add(1)
		if r.seen != nil {
			if _, dup := r.seen[e.msg]; !dup {
				r.seen[e.msg] = struct{}{}
				r.errs = append(r.errs, e)
			}
			continue
		}
		dup := false
		cost.Add(len(r.errs))
		for _, x := range r.errs {
			if x.msg == e.msg {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		r.errs = append(r.errs, e)
		if len(r.errs) > smallResult {
			r.seen = make(map[string]struct{}, len(r.errs))
			for _, x := range r.errs {
				r.seen[x.msg] = struct{}{}
			}
		}
	}
}

func (r *result) merge(others ...*result) *result {
	for _, o := range others {
		if o != nil {
			r.add(o.errs...)
			r.matches += o.matches
		}
	}
	return r
}

func (r *result) valid() bool { return r == nil || len(r.errs) == 0 }

func one(e verr) *result { return &result{errs: []verr{e}} }

package processor

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api"
)

// SI-19: ResourceEventHandlerFuncs cannot see isInInitialList; the Detailed variant can; nil
// functions are skipped.
func TestCh07_SI19_FuncsAndDetailedFuncs(t *testing.T) {
	var got []string
	plain := ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { got = append(got, "add "+describeObj(obj)) },
		UpdateFunc: func(o, n any) { got = append(got, "update "+describeObj(o)+"->"+describeObj(n)) },
		DeleteFunc: func(obj any) { got = append(got, "delete "+describeObj(obj)) },
	}
	plain.OnAdd(pod("a", "1"), true)
	plain.OnUpdate(pod("a", "1"), pod("a", "2"))
	plain.OnDelete(pod("a", "2"))

	detailed := ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, init bool) {
			if init {
				got = append(got, "detailed add init "+describeObj(obj))
			}
		},
		UpdateFunc: func(o, n any) { got = append(got, "detailed update") },
		DeleteFunc: func(obj any) { got = append(got, "detailed delete") },
	}
	detailed.OnAdd(pod("b", "3"), true)
	detailed.OnUpdate(nil, nil)
	detailed.OnDelete(nil)

	// Empty adapters do nothing and do not panic.
	ResourceEventHandlerFuncs{}.OnAdd(nil, false)
	ResourceEventHandlerFuncs{}.OnUpdate(nil, nil)
	ResourceEventHandlerFuncs{}.OnDelete(nil)
	ResourceEventHandlerDetailedFuncs{}.OnAdd(nil, false)
	ResourceEventHandlerDetailedFuncs{}.OnUpdate(nil, nil)
	ResourceEventHandlerDetailedFuncs{}.OnDelete(nil)

	assert.Equal(t, []string{
		"add ns/a@1", "update ns/a@1->ns/a@2", "delete ns/a@2",
		"detailed add init ns/b@3", "detailed update", "detailed delete",
	}, got)
}

// C-12: FilteringResourceEventHandler forwards adds and deletes that pass; an update becomes
// OnUpdate (both pass), OnAdd(new, false) (only new passes), OnDelete(old) (only old passes),
// or nothing.
func TestCh07_C12_FilteringHandler(t *testing.T) {
	labelled := func(name, rv, app string) *api.Pod {
		p := pod(name, rv)
		p.Labels = map[string]string{"app": app}
		return p
	}
	isWeb := func(obj any) bool {
		p, ok := obj.(*api.Pod)
		return ok && p.Labels["app"] == "web"
	}
	tests := []struct {
		name string
		call func(h ResourceEventHandler)
		want []string
	}{
		{"add passes", func(h ResourceEventHandler) { h.OnAdd(labelled("a", "1", "web"), true) }, []string{"add ns/a@1 init"}},
		{"add filtered", func(h ResourceEventHandler) { h.OnAdd(labelled("a", "1", "db"), true) }, nil},
		{"update both pass", func(h ResourceEventHandler) { h.OnUpdate(labelled("a", "1", "web"), labelled("a", "2", "web")) },
			[]string{"update ns/a@1->ns/a@2"}},
		{"update enters", func(h ResourceEventHandler) { h.OnUpdate(labelled("a", "1", "db"), labelled("a", "2", "web")) },
			[]string{"add ns/a@2"}},
		{"update leaves", func(h ResourceEventHandler) { h.OnUpdate(labelled("a", "1", "web"), labelled("a", "2", "db")) },
			[]string{"delete ns/a@1"}},
		{"update neither", func(h ResourceEventHandler) { h.OnUpdate(labelled("a", "1", "db"), labelled("a", "2", "db")) }, nil},
		{"delete passes", func(h ResourceEventHandler) { h.OnDelete(labelled("a", "3", "web")) }, []string{"delete ns/a@3"}},
		{"delete filtered", func(h ResourceEventHandler) { h.OnDelete(labelled("a", "3", "db")) }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			tc.call(FilteringResourceEventHandler{FilterFunc: isWeb, Handler: rec})
			assert.Equal(t, tc.want, rec.got())
		})
	}

	// Nil fields: a nil filter accepts everything, a nil handler drops everything.
	rec := &recorder{}
	FilteringResourceEventHandler{Handler: rec}.OnAdd(pod("x", "1"), false)
	assert.Equal(t, []string{"add ns/x@1"}, rec.got())
	assert.NotPanics(t, func() {
		h := FilteringResourceEventHandler{FilterFunc: isWeb}
		h.OnAdd(labelled("a", "1", "web"), false)
		h.OnUpdate(labelled("a", "1", "web"), labelled("a", "2", "web"))
		h.OnDelete(labelled("a", "1", "web"))
	})
}

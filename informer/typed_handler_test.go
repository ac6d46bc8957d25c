package informer

import (
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/store"
)

// TestCh08_Typed_C13_DeletedObject: the typed adapter turns a real object into
// DeletedObject{OptionalObj: obj} and a tombstone into DeletedObject{OptionalObj: tomb.Obj (zero
// if nil), FinalStateUnknown: &tomb}; GetKey is the tombstone's key if present, else ns/name of
// OptionalObj, else "" (C-13).
func TestCh08_Typed_C13_DeletedObject(t *testing.T) {
	p := pod("a", "3")
	clusterScoped := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "n"}}
	tests := []struct {
		name     string
		deleted  any
		wantObj  *api.Pod
		wantTomb bool
		wantKey  string
		wantNS   string
		wantName string
	}{
		{"real object", p, p, false, "ns/a", "ns", "a"},
		{"no namespace", clusterScoped, clusterScoped, false, "n", "", "n"},
		{"tombstone with its last state", store.DeletedFinalStateUnknown{Key: "ns/a", Obj: p}, p, true, "ns/a", "ns", "a"},
		{"tombstone without an object", store.DeletedFinalStateUnknown{Key: "ns/gone"}, nil, true, "ns/gone", "ns", "gone"},
		{"tombstone key without a slash", store.DeletedFinalStateUnknown{Key: "solo"}, nil, true, "solo", "", "solo"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []DeletedObject[*api.Pod]
			h := NewTypedResourceEventHandler[*api.Pod](TypedResourceEventHandlerFuncs[*api.Pod]{
				DeleteFunc: func(d DeletedObject[*api.Pod]) { got = append(got, d) },
			})
			h.OnDelete(tc.deleted)
			require.Len(t, got, 1)
			d := got[0]
			assert.Same(t, tc.wantObj, d.OptionalObj)
			assert.Equal(t, tc.wantTomb, d.FinalStateUnknown != nil)
			if tc.wantTomb {
				assert.Equal(t, tc.deleted, *d.FinalStateUnknown)
			}
			assert.Equal(t, tc.wantKey, d.GetKey())
			assert.Equal(t, tc.wantNS, d.GetNamespace())
			assert.Equal(t, tc.wantName, d.GetName())
		})
	}
	var empty DeletedObject[*api.Pod]
	assert.Equal(t, "", empty.GetKey(), "neither a tombstone nor an object")
	assert.Equal(t, store.ObjectName{}, empty.GetObjectName())
}

// TestCh08_Typed_C13_ThroughASharedInformer: a typed handler registered with
// AddTypedEventHandler sees typed adds (with isInInitialList), updates, and a missed delete
// as a DeletedObject carrying the tombstone, in every profile.
func TestCh08_Typed_C13_ThroughASharedInformer(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				src := newSource(t, "p1", "p2")
				inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{Profile: p})
				var mu sync.Mutex
				var lines []string
				log := func(s string) { mu.Lock(); lines = append(lines, s); mu.Unlock() }
				_, err := AddTypedEventHandler[*api.Pod](inf, typedRecorder{log: log})
				require.NoError(t, err)
				r := runInBubble(t, inf.RunWithContext)
				defer r.stop()
				mustModify(t, src, pod("p1", ""))
				src.DropNextEvents(1)
				mustDelete(t, src, "p2")
				forceRelist(src)
				waitUntil(t, "the tombstone", func() bool {
					mu.Lock()
					defer mu.Unlock()
					return hasPrefixLine(lines, "DEL ")
				})
				synctest.Wait()
				mu.Lock()
				defer mu.Unlock()
				require.GreaterOrEqual(t, len(lines), 4, "%v", lines)
				assert.ElementsMatch(t, []string{"ADD p1@1 true", "ADD p2@2 true"}, lines[:2])
				assert.Equal(t, "UPD p1@1→p1@3", lines[2])
				// The relist also re-delivers p1 unchanged, as a sync update, before or after the
				// tombstone depending on the profile (§14).
				assert.ElementsMatch(t, []string{"UPD p1@3→p1@3", "DEL ns/p2 unknown=true obj=p2@2"}, lines[3:])
			})
		})
	}
}

// typedRecorder is a TypedResourceEventHandler[*api.Pod] that logs one line per call.
type typedRecorder struct{ log func(string) }

func (r typedRecorder) OnAdd(obj *api.Pod, init bool) {
	r.log("ADD " + show(obj) + map[bool]string{true: " true", false: " false"}[init])
}
func (r typedRecorder) OnUpdate(o, n *api.Pod) { r.log("UPD " + show(o) + "→" + show(n)) }
func (r typedRecorder) OnDelete(d DeletedObject[*api.Pod]) {
	obj := "<nil>"
	if d.OptionalObj != nil {
		obj = show(d.OptionalObj)
	}
	r.log("DEL " + d.GetKey() + map[bool]string{true: " unknown=true", false: " unknown=false"}[d.FinalStateUnknown != nil] + " obj=" + obj)
}

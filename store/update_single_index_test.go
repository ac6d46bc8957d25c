package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh03_TS2_UpdateSingleIndex: updateSingleIndex alone refiles one key in one index: the
// key leaves every value the old object had, a value left with no key disappears, the key joins
// every value of the new object, and one unchanged value is the fast path that writes nothing
// (TS-2, TS-3).
func TestCh03_TS2_UpdateSingleIndex(t *testing.T) {
	// The objects are their own index values, so that each case reads as old → new.
	values := func(obj any) ([]string, error) { return obj.([]string), nil }
	keys := func(k ...string) KeySet {
		s := KeySet{}
		for _, x := range k {
			s[x] = struct{}{}
		}
		return s
	}
	tests := []struct {
		name     string
		old, new any
		before   Index // nil: the index was never written
		want     Index
	}{
		{"an add files the key", nil, []string{"a"}, nil, Index{"a": keys("k")}},
		{"a move drops the emptied value", []string{"a"}, []string{"b"}, Index{"a": keys("k")}, Index{"b": keys("k")}},
		{"a move keeps the other keys", []string{"a"}, []string{"b"}, Index{"a": keys("k", "j")}, Index{"a": keys("j"), "b": keys("k")}},
		{"a delete unfiles every value", []string{"a", "b"}, nil, Index{"a": keys("k", "j"), "b": keys("k")}, Index{"a": keys("j")}},
		{"a new value joins", []string{"a"}, []string{"a", "c"}, Index{"a": keys("k")}, Index{"a": keys("k"), "c": keys("k")}},
		{"one unchanged value: the fast path writes nothing", []string{"a"}, []string{"a"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := &storeIndex{indexers: Indexers{"by": values}, indices: Indices{}}
			if tt.before != nil {
				i.indices["by"] = tt.before
			}
			i.updateSingleIndex("by", values, tt.old, tt.new, "k")
			assert.Equal(t, tt.want, i.indices["by"])
		})
	}
}

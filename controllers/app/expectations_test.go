package app_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/controllers/app"
)

// TestCh14_Expectations: creates are counted; deletes are counted once per expected key
// (a graceful deletion is seen twice); a key with no record, or whose record is met, syncs.
func TestCh14_Expectations(t *testing.T) {
	tests := []struct {
		name string
		run  func(e *app.Expectations)
		want bool
	}{
		{"no record", func(*app.Expectations) {}, true},
		{"creates pending", func(e *app.Expectations) { e.ExpectCreations("k", 2); e.CreationObserved("k") }, false},
		{"creates seen", func(e *app.Expectations) { e.ExpectCreations("k", 2); e.CreationObserved("k"); e.CreationObserved("k") }, true},
		{"a delete seen twice counts once", func(e *app.Expectations) {
			e.ExpectDeletions("k", []string{"ns/a", "ns/b"})
			e.DeletionObserved("k", "ns/a")
			e.DeletionObserved("k", "ns/a")
		}, false},
		{"an unexpected delete counts nothing", func(e *app.Expectations) {
			e.ExpectDeletions("k", []string{"ns/a"})
			e.DeletionObserved("k", "ns/z")
		}, false},
		{"deletes seen", func(e *app.Expectations) {
			e.ExpectDeletions("k", []string{"ns/a", "ns/b"})
			e.DeletionObserved("k", "ns/b")
			e.DeletionObserved("k", "ns/a")
		}, true},
		{"a new expectation replaces the old", func(e *app.Expectations) { e.ExpectDeletions("k", []string{"ns/a"}); e.ExpectCreations("k", 0) }, true},
		{"deleted", func(e *app.Expectations) { e.ExpectCreations("k", 3); e.DeleteExpectations("k") }, true},
		{"raised and lowered", func(e *app.Expectations) {
			e.ExpectCreations("k", 1)
			e.RaiseExpectations("k", 1, 0)
			e.LowerExpectations("k", 1, 0)
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := app.NewExpectations()
			tc.run(e)
			require.Equal(t, tc.want, e.SatisfiedExpectations("k"))
		})
	}
}

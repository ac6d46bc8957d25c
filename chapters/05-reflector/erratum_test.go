package ch05_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/deltafifo"
	"github.com/informer-lab/informer-lab/store"
)

// TestCh05_Erratum_ReplaceEmitsSyncByDefault pins the fact behind the "Sync" lines of the
// runnable-examples article's Reflector example: a DeltaFIFO built without
// EmitDeltaTypeReplaced (its zero value is false) turns Replace into Sync deltas in v0.37 too.
// Nothing about the article's age explains them; informers set the option and see Replaced.
func TestCh05_Erratum_ReplaceEmitsSyncByDefault(t *testing.T) {
	tests := []struct {
		name string
		opts deltafifo.DeltaFIFOOptions
		want deltafifo.DeltaType
	}{
		{"the article's options: EmitDeltaTypeReplaced unset", deltafifo.DeltaFIFOOptions{}, deltafifo.Sync},
		{"what informers set", deltafifo.DeltaFIFOOptions{EmitDeltaTypeReplaced: true}, deltafifo.Replaced},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.KeyFunction = store.MetaNamespaceKeyFunc
			tt.opts.KnownObjects = store.NewStore(store.MetaNamespaceKeyFunc)
			fifo := deltafifo.NewDeltaFIFOWithOptions(tt.opts)
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "web-1", ResourceVersion: "5"}}
			require.NoError(t, fifo.Replace([]any{pod}, "5"))

			var got []deltafifo.DeltaType
			_, err := fifo.Pop(func(obj any, _ bool) error {
				for _, d := range obj.(deltafifo.Deltas) {
					got = append(got, d.Type)
				}
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, []deltafifo.DeltaType{tt.want}, got)
		})
	}
}

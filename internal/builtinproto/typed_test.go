package builtinproto

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh02_ProtobufTypedRoundTripIsByteExact decodes the real serializer's bytes into our
// typed views and encodes them again: the bytes are the same, the fields the views do not
// model coming back from the kept message, and the typed value equals the one decoded from
// the same object's JSON.
func TestCh02_ProtobufTypedRoundTripIsByteExact(t *testing.T) {
	for _, tc := range []struct {
		file  string
		typed func() api.Object
	}{
		{"Pod", func() api.Object { return &api.Pod{} }},
		{"PodList", func() api.Object { return &api.PodList{} }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data := readFile(t, tc.file+".pb")
			obj := tc.typed()
			gvk, err := Codec().DecodeInto(data, obj)
			require.NoError(t, err)
			again, err := Codec().EncodeTyped(gvk, obj)
			require.NoError(t, err)
			assert.Equal(t, data, again)

			fromJSON := tc.typed()
			require.NoError(t, json.Unmarshal(readFile(t, tc.file+".json"), fromJSON))
			assert.Empty(t, cmp.Diff(fromJSON, obj))
		})
	}
}

package negotiation

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
)

// TestCh01_N3_AcceptParsedOnce: an Accept header seen before is not parsed again (no
// allocation), and what the cache answers is what parsing gives, for client-go's headers,
// wildcards, qualities, parameters and a header past the cached length.
func TestCh01_N3_AcceptParsedOnce(t *testing.T) {
	for _, v := range []string{
		"application/vnd.kubernetes.protobuf, */*",
		"application/json, */*",
		"application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
		"text/html;q=0.5, application/json;q=0.9, *",
		"application/json;q=0, application/yaml",
		"application/" + strings.Repeat("x", maxCachedAccept) + ", application/json",
	} {
		values := []string{v}
		want := parseAcceptValues(values)
		assert.True(t, cmp.Equal(want, parseAccept(values), cmp.AllowUnexported(mediaClause{})), v)
		assert.True(t, cmp.Equal(want, parseAccept(values), cmp.AllowUnexported(mediaClause{})), v)
		if len(v) <= maxCachedAccept {
			assert.Zero(t, testing.AllocsPerRun(20, func() { parseAccept(values) }), v)
		}
	}
	two := []string{"application/json", "*/*"}
	assert.True(t, cmp.Equal(parseAcceptValues(two), parseAccept(two), cmp.AllowUnexported(mediaClause{})))
}

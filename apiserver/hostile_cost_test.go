package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_HostileEnumAmplification sends many bad values against a long enum. Spelled in
// full, every cause repeats the whole enum, and the answer is thousands of times the
// request (the probe's 8 KB object got a 680 MB Status). The answer stays bounded: each
// cause lists a few KiB of the valid values and says how many more there are, and the list
// of causes ends in a "too many errors" cause once the Status reaches its size cap.
func TestCh01_HostileEnumAmplification(t *testing.T) {
	_, c := newServer(t, Options{})
	enum := make([]any, 2000)
	for i := range enum {
		enum[i] = fmt.Sprintf("value-%05d", i)
	}
	crd := fooCRD(t, func(m map[string]any) {
		spec := at(m, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties")
		spec["tags"] = map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": enum}}
	})
	r := c.do(http.MethodPost, crdPath, crd)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	bad := make([]any, 1000)
	for i := range bad {
		bad[i] = fmt.Sprintf("bad-%d", i)
	}
	r = c.do(http.MethodPost, foosPath, foo("amplified", map[string]any{"deploymentName": "x", "tags": bad}))
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Less(t, len(r.body), 3*api.MaxStatusBytes, "the Status is bounded")
	st := r.status(t)
	causes := st.Details.Causes
	require.NotEmpty(t, causes)
	assert.Less(t, len(causes), len(bad), "the causes are cut short")
	first := causes[0]
	assert.Equal(t, "spec.tags[0]", first.Field)
	assert.True(t, strings.HasPrefix(first.Message, `Unsupported value: "bad-0": supported values: "value-00000", "value-00001"`), first.Message)
	assert.Regexp(t, `, and \d+ more$`, first.Message)
	last := causes[len(causes)-1]
	assert.Equal(t, api.CauseTypeTooMany, last.Type)
	assert.Regexp(t, `^too many errors, \d+ more not shown$`, last.Message)
	assert.Regexp(t, `too many errors, \d+ more not shown\]$`, st.Message)
}

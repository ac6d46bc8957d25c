package defaulting

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_Defaulting_Idempotent defaults every case's input, encodes and decodes it, and
// defaults it again: the second pass must change nothing. FuzzDefault checks the same, in
// place as well, on random objects.
func TestCh01_Defaulting_Idempotent(t *testing.T) {
	for _, tc := range allCases() {
		t.Run(tc.kind+"/"+tc.name, func(t *testing.T) {
			once := decodeJSON(t, tc.in)
			Default(tc.group, tc.version, tc.kind, once)
			b, err := json.Marshal(once)
			require.NoError(t, err)
			twice := decodeJSON(t, string(b))
			Default(tc.group, tc.version, tc.kind, twice)
			if d := cmp.Diff(once, twice); d != "" {
				t.Errorf("second Default changed the object (-once +twice):\n%s", d)
			}
		})
	}
}

// TestCh01_Defaulting_NilAndEmpty checks the edges: a nil object, an empty one.
func TestCh01_Defaulting_NilAndEmpty(t *testing.T) {
	assert.NotPanics(t, func() { Default("", "v1", "Pod", nil) })
	for _, k := range Kinds() {
		obj := map[string]any{}
		assert.NotPanics(t, func() { Default(k.Group, k.Version, k.Kind, obj) }, k.Kind)
	}
}

// TestCh01_Defaulting_TableMatchesCode checks Defaults against Default: every
// unconditional row whose path names no alternatives is present after defaulting the
// first test case of its kind, wherever its lists have elements.
func TestCh01_Defaulting_TableMatchesCode(t *testing.T) {
	firstCase := map[Kind]defaultCase{}
	for _, tc := range allCases() {
		k := Kind{tc.group, tc.version, tc.kind}
		if _, ok := firstCase[k]; !ok {
			firstCase[k] = tc
		}
	}
	checked := 0
	for _, row := range Defaults() {
		k := Kind{row.Group, row.Version, row.Kind}
		tc, ok := firstCase[k]
		if !assert.True(t, ok, "no test case for %v", k) || row.When != "" || strings.Contains(row.Path, "<") {
			continue
		}
		obj := decodeJSON(t, tc.in)
		Default(tc.group, tc.version, tc.kind, obj)
		assert.True(t, present(obj, strings.Split(row.Path, ".")), "%s: not set by Default on %q", row, tc.name)
		checked++
	}
	assert.Greater(t, checked, 50)
	for _, k := range Kinds() {
		assert.True(t, Known(k.Group, k.Version, k.Kind))
	}
	assert.False(t, Known("apps", "v1", "Foo"))
}

// present reports whether the path exists in v; a step "x[*]" must hold in every element
// of the list x (vacuously when it is empty or missing).
func present(v any, steps []string) bool {
	if len(steps) == 0 {
		return true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	step := steps[0]
	if name, isList := strings.CutSuffix(step, "[*]"); isList {
		l, _ := m[name].([]any)
		for _, e := range l {
			if !present(e, steps[1:]) {
				return false
			}
		}
		return true
	}
	next, ok := m[step]
	return ok && present(next, steps[1:])
}

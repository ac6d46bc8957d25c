package corpus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		kinds []string
	}{
		{"one", "kind: A\napiVersion: v1\n", []string{"A"}},
		{"two with separator comment", "kind: A\napiVersion: v1\n--- # second\nkind: B\napiVersion: v1\n", []string{"A", "B"}},
		{"leading separator and empty docs", "---\n---\nkind: A\napiVersion: v1\n---\n", []string{"A"}},
		{"list expanded", "apiVersion: v1\nkind: List\nitems:\n- kind: A\n  apiVersion: v1\n- kind: B\n  apiVersion: v1\n", []string{"A", "B"}},
		{"json", `{"kind":"A","apiVersion":"v1"}`, []string{"A"}},
		{"separator inside a block scalar is not a split", "kind: A\napiVersion: v1\ndata:\n  x: |\n    ---x\n", []string{"A"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Split([]byte(tt.in))
			require.NoError(t, err)
			var kinds []string
			for _, o := range objs {
				kinds = append(kinds, o["kind"].(string))
			}
			assert.Equal(t, tt.kinds, kinds)
		})
	}
	_, err := Split([]byte("kind: [unclosed\n"))
	assert.Error(t, err)
}

// TestCh01_ConformanceLoadLocal reads the apiserver's round-trip manifests as the corpus does:
// every file, the kind's object last, sources named after the label and file.
func TestCh01_ConformanceLoadLocal(t *testing.T) {
	var st Stats
	docs, err := LoadLocal(Local{Label: "roundtrip", Dir: "../../apiserver/testdata/roundtrip"}, &st)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 20 || st.PerSource["roundtrip"] != len(docs) {
		t.Fatalf("read %d documents (%d counted)", len(docs), st.PerSource["roundtrip"])
	}
	for _, d := range docs {
		if d.Kind() == "" || d.APIVersion() == "" {
			t.Errorf("%s has no kind", d.Source)
		}
		if !strings.HasPrefix(d.Source, "roundtrip/") {
			t.Errorf("source %s", d.Source)
		}
	}
}

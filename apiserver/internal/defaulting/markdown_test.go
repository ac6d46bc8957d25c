package defaulting_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
)

var update = flag.Bool("update", false, "rewrite chapters/01-apiserver/defaults.md")

const defaultsDoc = "../../../chapters/01-apiserver/defaults.md"

// renderDefaults writes the table chapter 01 links to: every default we apply, per kind.
func renderDefaults() string {
	var b strings.Builder
	b.WriteString("<!-- Generated from apiserver/internal/defaulting (Defaults) by\n" +
		"     go test ./apiserver/internal/defaulting -run DefaultsDoc -update; do not edit. -->\n\n")
	b.WriteString("# The defaults the simulated apiserver applies\n\n")
	b.WriteString("What kube-apiserver v1.36's defaulting functions fill in when a field is unset, and so\n" +
		"what `kubectl get -o yaml` shows although nobody wrote it. `[*]` is every element of a\n" +
		"list; a value in angle brackets is computed. Chapter 01 explains where defaulting sits\n" +
		"in a write.\n\n")
	b.WriteString("| kind | field | default | when | upstream |\n|---|---|---|---|---|\n")
	for _, d := range defaulting.Defaults() {
		kind := d.Kind
		if d.Group != "" {
			kind += "." + d.Group
		}
		esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
		b.WriteString("| " + kind + " | `" + esc(d.Path) + "` | `" + esc(d.Value) + "` | " + esc(d.When) + " | `" + d.Source + "` |\n")
	}
	return b.String()
}

// TestCh01_DefaultsDocIsCurrent keeps chapters/01-apiserver/defaults.md in step with the code.
func TestCh01_DefaultsDocIsCurrent(t *testing.T) {
	want := renderDefaults()
	if *update {
		require.NoError(t, os.WriteFile(defaultsDoc, []byte(want), 0o644))
	}
	got, err := os.ReadFile(defaultsDoc)
	require.NoError(t, err, "run: go test ./apiserver/internal/defaulting -run DefaultsDoc -update")
	assert.Equal(t, want, string(got), "run: go test ./apiserver/internal/defaulting -run DefaultsDoc -update")
}

package fields_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/fields"
)

// FuzzParse checks contract items 1 and 6: ParseSelector never panics, and whatever it accepts
// prints as text it accepts again with the same result.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"", ",", "a", "metadata.name=a", "status.phase==Running", "spec.nodeName!=",
		"b=1,a=2", "a==x,a=b", `a=x\,y`, `a=\=\\`, `a\=b`, `a=\!`, `a=b\`, "a=b=c", "=", "=a",
		"a!b=c", "a!==b",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sel, err := fields.ParseSelector(in)
		if err != nil {
			require.Nil(t, sel)
			require.NotEmpty(t, err.Error())
			return
		}
		out := sel.String()
		again, err := fields.ParseSelector(out)
		require.NoError(t, err, "ParseSelector(%q).String() = %q does not parse", in, out)
		require.Equal(t, out, again.String(), "String of %q is not canonical", in)
		require.Equal(t, sel.Requirements(), again.Requirements())
	})
}

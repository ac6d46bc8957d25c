package labels_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/labels"
)

// FuzzParse checks contract items 1 and 8: Parse never panics, and whatever it accepts prints
// as text it accepts again with the same result.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"", "a", "!a", "a=b", "a==b", "a!=b", "a in (x,y)", "a notin ()", "k>5", "k<5",
		"b=2,a=1", "a in (,x,)", "in in (in)", "example.com/a=b", "a b", "k in (a", "=v",
		"a,,b", "!==", "a=b=c",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sel, err := labels.Parse(in)
		if err != nil {
			require.Nil(t, sel)
			require.NotEmpty(t, err.Error())
			return
		}
		out := sel.String()
		again, err := labels.Parse(out)
		require.NoError(t, err, "Parse(%q).String() = %q does not parse", in, out)
		require.Equal(t, out, again.String(), "String of %q is not canonical", in)
		require.Equal(t, sel.Empty(), again.Empty())
	})
}

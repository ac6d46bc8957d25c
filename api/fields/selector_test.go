package fields_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/api/labels"
)

func TestFields_ParseSelector(t *testing.T) {
	eq := func(f, v string) fields.Requirement {
		return fields.Requirement{Operator: labels.Equals, Field: f, Value: v}
	}
	ne := func(f, v string) fields.Requirement {
		return fields.Requirement{Operator: labels.NotEquals, Field: f, Value: v}
	}
	tests := []struct {
		in       string
		wantStr  string
		wantReqs fields.Requirements
	}{
		{"", "", nil},
		{",", "", nil},
		{"metadata.name=a", "metadata.name=a", fields.Requirements{eq("metadata.name", "a")}},
		{"status.phase==Running", "status.phase=Running", fields.Requirements{eq("status.phase", "Running")}},
		{"spec.nodeName!=", "spec.nodeName!=", fields.Requirements{ne("spec.nodeName", "")}},
		{"spec.nodeName=", "spec.nodeName=", fields.Requirements{eq("spec.nodeName", "")}},
		// Terms sort by their printed form; "==" prints as "=" and so sorts as it.
		{"b=1,a=2", "a=2,b=1", fields.Requirements{eq("a", "2"), eq("b", "1")}},
		{"a==x,a=b", "a=b,a=x", fields.Requirements{eq("a", "b"), eq("a", "x")}},
		{"a=b,,c!=d", "a=b,c!=d", fields.Requirements{eq("a", "b"), ne("c", "d")}},
		// Escapes: '\' before ',' '=' '\'; String escapes again.
		{`a=x\,y`, `a=x\,y`, fields.Requirements{eq("a", "x,y")}},
		{`a=\=\\`, `a=\=\\`, fields.Requirements{eq("a", `=\`)}},
		{`a!=\,`, `a!=\,`, fields.Requirements{ne("a", ",")}},
		// A term splits at its first operator, so '!' in a value needs no escape.
		{"a=!b", "a=!b", fields.Requirements{eq("a", "!b")}},
		{"a=b!c", "a=b!c", fields.Requirements{eq("a", "b!c")}},
		{"a!b=c", "a!b=c", fields.Requirements{eq("a!b", "c")}},
		// Fields are not checked or trimmed here; the server's per-kind check rejects them (L19).
		{"metadata.name = a", "metadata.name = a", fields.Requirements{eq("metadata.name ", " a")}},
		{"=a", "=a", fields.Requirements{eq("", "a")}},
		// A term with empty field and value adds nothing, as upstream.
		{"=", "", nil},
		{"!=,a=b", "a=b", fields.Requirements{eq("a", "b")}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := fields.ParseSelector(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.wantStr, sel.String())
			if diff := cmp.Diff(tt.wantReqs, sel.Requirements()); diff != "" {
				t.Errorf("requirements (-want +got):\n%s", diff)
			}
			assert.Equal(t, len(tt.wantReqs) == 0, sel.Empty())

			again, err := fields.ParseSelector(sel.String())
			require.NoError(t, err, "String must be parseable")
			assert.Equal(t, tt.wantStr, again.String(), "String must be canonical")
		})
	}
}

func TestFields_ParseSelectorErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		// The text the wire reference quotes for L18 and E30.
		{"a", "invalid selector: 'a'; can't understand 'a'"},
		{"metadata.name=a,b", "invalid selector: 'metadata.name=a,b'; can't understand 'b'"},
		// Terms are checked in sorted order, as upstream, so of two bad ones 'a' is named.
		{"b,a", "invalid selector: 'b,a'; can't understand 'a'"},
		{"a!b", "invalid selector: 'a!b'; can't understand 'a!b'"},
		{"spec.nodeName in (a)", "invalid selector: 'spec.nodeName in (a)'; can't understand 'spec.nodeName in (a)'"},
		// Escape errors name the sequence; '!' is not escapable (upstream rejects "\!" too).
		{`a=\!`, `invalid field selector: invalid escape sequence: \!`},
		{`a=\x`, `invalid field selector: invalid escape sequence: \x`},
		{`a=\é`, `invalid field selector: invalid escape sequence: \é`},
		{`a=b\`, `invalid field selector: invalid escape sequence: \`},
		{"a=b=c", `invalid field selector: unescaped character in value: '='`},
		{"a!==b", `invalid field selector: unescaped character in value: '='`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := fields.ParseSelector(tt.in)
			require.Error(t, err)
			assert.Nil(t, sel)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestFields_ParseSelectorOrDie(t *testing.T) {
	assert.Equal(t, "metadata.name=a", fields.ParseSelectorOrDie("metadata.name=a").String())
	assert.PanicsWithError(t, "invalid selector: 'a'; can't understand 'a'", func() {
		fields.ParseSelectorOrDie("a")
	})
}

func TestFields_Matches(t *testing.T) {
	scheduled := fields.Set{"metadata.name": "p1", "spec.nodeName": "n1", "status.phase": "Running"}
	pending := fields.Set{"metadata.name": "p2", "status.phase": "Pending"} // no spec.nodeName
	tests := []struct {
		sel  string
		fs   fields.Set
		want bool
	}{
		{"", pending, true},
		{"metadata.name=p1", scheduled, true},
		{"metadata.name=p1", pending, false},
		{"status.phase==Running", scheduled, true},
		{"status.phase!=Running", pending, true},
		// An absent field compares as "" (L20).
		{"spec.nodeName=", pending, true},
		{"spec.nodeName=", scheduled, false},
		{"spec.nodeName!=", scheduled, true},
		{"spec.nodeName!=", pending, false},
		{"spec.nodeName!=n1", pending, true},
		// Comma is AND.
		{"spec.nodeName=n1,status.phase=Running", scheduled, true},
		{"spec.nodeName=n1,status.phase=Pending", scheduled, false},
		{`metadata.name=a\,b`, fields.Set{"metadata.name": "a,b"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.sel+" on "+tt.fs.String(), func(t *testing.T) {
			sel, err := fields.ParseSelector(tt.sel)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.Matches(tt.fs))
		})
	}
}

func TestFields_EverythingNothing(t *testing.T) {
	all, none := fields.Everything(), fields.Nothing()
	fs := fields.Set{"metadata.name": "a"}

	assert.True(t, all.Matches(fs))
	assert.True(t, all.Empty())
	assert.Equal(t, "", all.String())
	assert.Empty(t, all.Requirements())

	// Nothing also prints as "", but is not Empty and matches nothing.
	assert.False(t, none.Matches(fs))
	assert.False(t, none.Matches(fields.Set{}))
	assert.False(t, none.Empty())
	assert.Equal(t, "", none.String())
	assert.Nil(t, none.Requirements())
	_, found := none.RequiresExactMatch("metadata.name")
	assert.False(t, found)
	tr, err := none.Transform(func(f, v string) (string, string, error) { return "x", "y", nil })
	require.NoError(t, err)
	assert.Equal(t, none, tr)
}

func TestFields_Constructors(t *testing.T) {
	tests := []struct {
		name      string
		sel       fields.Selector
		wantStr   string
		wantEmpty bool
	}{
		{"one term equal", fields.OneTermEqualSelector("metadata.name", "a,b"), `metadata.name=a\,b`, false},
		{"one term not equal", fields.OneTermNotEqualSelector("spec.nodeName", ""), "spec.nodeName!=", false},
		// AndSelectors keeps the order it was given and skips members that print as "".
		{"and keeps order", fields.AndSelectors(
			fields.OneTermEqualSelector("b", "1"),
			fields.Everything(),
			fields.OneTermEqualSelector("a", "2"),
		), "b=1,a=2", false},
		{"and of nothing", fields.AndSelectors(), "", true},
		{"and of everything", fields.AndSelectors(fields.Everything()), "", true},
		{"from set sorts", fields.SelectorFromSet(fields.Set{"b": "1", "a": "2"}), "a=2,b=1", false},
		{"from nil set", fields.SelectorFromSet(nil), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wantStr, tt.sel.String())
			assert.Equal(t, tt.wantEmpty, tt.sel.Empty())
		})
	}

	// AndSelectors(x, Nothing()) matches nothing, although it prints like x.
	sel := fields.AndSelectors(fields.OneTermEqualSelector("a", "1"), fields.Nothing())
	assert.False(t, sel.Matches(fields.Set{"a": "1"}))
	assert.False(t, sel.Empty())

	// AndSelectors copies its arguments: later changes to the slice do not leak in.
	parts := []fields.Selector{fields.OneTermEqualSelector("a", "1")}
	sel = fields.AndSelectors(parts...)
	parts[0] = fields.Nothing()
	assert.True(t, sel.Matches(fields.Set{"a": "1"}))
}

func TestFields_RequiresExactMatch(t *testing.T) {
	tests := []struct {
		sel       string
		field     string
		wantValue string
		wantFound bool
	}{
		{"metadata.name=a", "metadata.name", "a", true},
		{"metadata.name==a", "metadata.name", "a", true},
		{"spec.nodeName=,metadata.name=a", "metadata.name", "a", true},
		{"metadata.name!=a", "metadata.name", "", false},
		{"metadata.namespace=x", "metadata.name", "", false},
		{"", "metadata.name", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			sel := fields.ParseSelectorOrDie(tt.sel)
			v, found := sel.RequiresExactMatch(tt.field)
			assert.Equal(t, tt.wantValue, v)
			assert.Equal(t, tt.wantFound, found)
		})
	}
}

func TestFields_Transform(t *testing.T) {
	// The legacy alias from L19: spec.host means spec.nodeName.
	alias := func(f, v string) (string, string, error) {
		if f == "spec.host" {
			return "spec.nodeName", v, nil
		}
		return f, v, nil
	}
	sel := fields.ParseSelectorOrDie("spec.host=n1,status.phase!=Failed")
	got, err := sel.Transform(alias)
	require.NoError(t, err)
	assert.Equal(t, "spec.nodeName=n1,status.phase!=Failed", got.String())
	assert.Equal(t, "spec.host=n1,status.phase!=Failed", sel.String(), "Transform must not change its receiver")

	// A term mapped to an empty field and value disappears.
	drop := func(f, v string) (string, string, error) {
		if f == "status.phase" {
			return "", "", nil
		}
		return f, v, nil
	}
	got, err = sel.Transform(drop)
	require.NoError(t, err)
	assert.Equal(t, "spec.host=n1", got.String())
	got, err = fields.OneTermNotEqualSelector("status.phase", "x").Transform(drop)
	require.NoError(t, err)
	assert.True(t, got.Empty())

	// An error from fn stops the transform, as the server's "field label not supported" does.
	errUnsupported := errors.New("field label not supported: spec.bogus")
	reject := func(f, v string) (string, string, error) {
		if strings.HasPrefix(f, "spec.bogus") {
			return "", "", errUnsupported
		}
		return f, v, nil
	}
	_, err = fields.ParseSelectorOrDie("a=1,spec.bogus=x").Transform(reject)
	require.ErrorIs(t, err, errUnsupported)
	_, err = fields.OneTermEqualSelector("spec.bogus", "x").Transform(reject)
	require.ErrorIs(t, err, errUnsupported)
}

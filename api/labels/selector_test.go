package labels_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api/labels"
)

// Rule texts that several expected errors share, written out once. They are the real
// server's words (checked against apimachinery v0.37.2).
const (
	valueRuleText = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
	nameRuleText  = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
)

func TestLabels_ParseString(t *testing.T) {
	tests := []struct {
		in   string
		want string // the canonical String()
	}{
		{"", ""},
		{"  \t\r\n", ""},
		{"a=b", "a=b"},
		{"a==b", "a==b"},
		{"a!=b", "a!=b"},
		{"a", "a"},
		{"!a", "!a"},
		{"a in (x)", "a in (x)"},
		{"a notin (x)", "a notin (x)"},
		{"k>5", "k>5"},
		{"k<5", "k<5"},
		{"k > 5", "k>5"},
		// Requirements sort by key; set values sort and lose duplicates.
		{"b=2,a=1", "a=1,b=2"},
		{"k in (b,a,b)", "k in (a,b)"},
		{"z,!y,x=1", "x=1,!y,z"},
		// Ties keep their order, so String stays canonical.
		{"a=2,b=1,a=1", "a=2,a=1,b=1"},
		// Blanks around any token are ignored.
		{" a = b , c in ( x , y ) ", "a=b,c in (x,y)"},
		{"a in(x),b notin(y)", "a in (x),b notin (y)"},
		// A missing value is the empty value.
		{"a=", "a="},
		{"a=,b", "a=,b"},
		{"a!=", "a!="},
		// An empty set item is the empty value; "()" is {""} as upstream.
		{"k in ()", "k in ()"},
		{"k in (,)", "k in ()"},
		{"k in (a,)", "k in (,a)"},
		{"k in (,a,,b,)", "k in (,a,b)"},
		{"k notin ()", "k notin ()"},
		// in and notin are keywords only where an operator is due.
		{"in in (in,notin)", "in in (in,notin)"},
		{"notin=in", "notin=in"},
		{"!in", "!in"},
		// Qualified keys.
		{"example.com/app=web", "example.com/app=web"},
		{"a.b-c_d=E.f-G_h", "a.b-c_d=E.f-G_h"},
		{strings.Repeat("k", 63) + "=" + strings.Repeat("v", 63), strings.Repeat("k", 63) + "=" + strings.Repeat("v", 63)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := labels.Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.String())

			again, err := labels.Parse(sel.String())
			require.NoError(t, err, "String must be parseable")
			assert.Equal(t, tt.want, again.String(), "String must be canonical")
		})
	}
}

func TestLabels_ParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		// The two texts the wire reference quotes for L17.
		{"a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"k=v@l", `unable to parse requirement: values[0][k]: Invalid value: "v@l": ` + valueRuleText},
		// gt/lt are spelled > and < in selectors; the words are not operators.
		{"k gt 5", "unable to parse requirement: found 'gt', expected: in, notin, =, ==, !=, gt, lt"},
		{"k>x", `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"k>", `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"k>-1", `unable to parse requirement: values[0][k]: Invalid value: "-1": ` + valueRuleText},
		// Missing or misplaced pieces: the token found, and what was expected.
		{"=v", "found '=', expected: !, identifier, or 'end of string'"},
		{"(", "found '(', expected: !, identifier, or 'end of string'"},
		{"a,", "found '', expected: identifier after ','"},
		{"a,,b", "found ',', expected: identifier after ','"},
		{"a=b c", "found 'c', expected: ',' or 'end of string'"},
		{"!a=b", "found '=', expected: ',' or 'end of string'"},
		{"!", "unable to parse requirement: found '', expected: identifier"},
		{"!!a", "unable to parse requirement: found '!', expected: identifier"},
		{"a===b", "unable to parse requirement: found '=', expected: identifier"},
		{"a in b", "unable to parse requirement: found 'b' expected: '('"},
		{"a in", "unable to parse requirement: found '' expected: '('"},
		{"k in (a", "unable to parse requirement: found '', expected: ',' or ')'"},
		{"k in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"},
		{"k in (", "unable to parse requirement: found '', expected: ',', ')' or identifier"},
		{"k in ((", "unable to parse requirement: found '(', expected: ',', ')' or identifier"},
		{"k in (a,", "unable to parse requirement: found '', expected: ',', or identifier"},
		{"k in (a,=)", "unable to parse requirement: found '=', expected: ',', or identifier"},
		// Bad keys: the real server prints its nil field path as "<nil>".
		{"a@b", `unable to parse requirement: <nil>: Invalid value: "a@b": ` + nameRuleText},
		{"-a=b", `unable to parse requirement: <nil>: Invalid value: "-a": ` + nameRuleText},
		{"a\x00b", `unable to parse requirement: <nil>: Invalid value: "a\x00b": ` + nameRuleText},
		{strings.Repeat("k", 64), `unable to parse requirement: <nil>: Invalid value: "` + strings.Repeat("k", 64) + `": name part must be no more than 63 bytes`},
		{"/a", `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`},
		{"a/", `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ` + nameRuleText},
		{"Example.com/a", `unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"a/b/c", `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		// Bad values: the index is into the sorted set.
		{"k=" + strings.Repeat("v", 64), `unable to parse requirement: values[0][k]: Invalid value: "` + strings.Repeat("v", 64) + `": must be no more than 63 bytes`},
		{"k in (ok,b@d)", `unable to parse requirement: values[0][k]: Invalid value: "b@d": ` + valueRuleText},
		{"k in (ok,x@)", `unable to parse requirement: values[1][k]: Invalid value: "x@": ` + valueRuleText},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := labels.Parse(tt.in)
			require.Error(t, err)
			assert.Nil(t, sel)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestLabels_Matches(t *testing.T) {
	var (
		none  = labels.Set{}
		web   = labels.Set{"app": "web"}
		db    = labels.Set{"app": "db"}
		empty = labels.Set{"app": ""}
		five  = labels.Set{"n": "5"}
		word  = labels.Set{"n": "five"}
	)
	tests := []struct {
		sel  string
		ls   labels.Set
		want bool
	}{
		{"", none, true},
		{"app=web", web, true},
		{"app=web", db, false},
		{"app=web", none, false},
		{"app==web", web, true},
		// != and notin select objects that lack the key (as upstream).
		{"app!=web", db, true},
		{"app!=web", web, false},
		{"app!=web", none, true},
		{"app in (web,db)", db, true},
		{"app in (web)", db, false},
		{"app in (web)", none, false},
		{"app notin (web)", db, true},
		{"app notin (web,db)", db, false},
		{"app notin (web)", none, true},
		{"app", empty, true},
		{"app", none, false},
		{"!app", none, true},
		{"!app", empty, false},
		// The empty value is a value: "app=" needs the key present and empty.
		{"app=", empty, true},
		{"app=", none, false},
		{"app in ()", empty, true},
		{"app in ()", web, false},
		// > and < compare as integers; a non-integer label or a missing one never matches.
		{"n>4", five, true},
		{"n>5", five, false},
		{"n<6", five, true},
		{"n<5", five, false},
		{"n>10", labels.Set{"n": "9"}, false}, // numeric, not string, order
		{"n>4", word, false},
		{"n<4", word, false},
		{"n>4", none, false},
		// Comma is AND.
		{"app=web,n>4", labels.Set{"app": "web", "n": "5"}, true},
		{"app=web,n>4", web, false},
	}
	for _, tt := range tests {
		t.Run(tt.sel+" on "+tt.ls.String(), func(t *testing.T) {
			sel, err := labels.Parse(tt.sel)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.Matches(tt.ls))
		})
	}
}

func TestLabels_EverythingNothing(t *testing.T) {
	all, none := labels.Everything(), labels.Nothing()
	ls := labels.Set{"a": "b"}

	assert.True(t, all.Matches(ls))
	assert.True(t, all.Matches(labels.Set{}))
	assert.True(t, all.Empty())
	assert.Equal(t, "", all.String())
	assert.False(t, labels.MatchesNothing(all))
	reqs, selectable := all.Requirements()
	assert.Empty(t, reqs)
	assert.True(t, selectable)

	// Nothing prints like Everything; Empty, Requirements and MatchesNothing tell them apart.
	assert.False(t, none.Matches(ls))
	assert.False(t, none.Matches(labels.Set{}))
	assert.False(t, none.Empty())
	assert.Equal(t, "", none.String())
	assert.True(t, labels.MatchesNothing(none))
	reqs, selectable = none.Requirements()
	assert.Nil(t, reqs)
	assert.False(t, selectable)

	r, err := labels.NewRequirement("a", labels.Exists, nil)
	require.NoError(t, err)
	assert.True(t, labels.MatchesNothing(none.Add(*r)), "nothing plus more is still nothing")
}

func TestLabels_NewRequirement(t *testing.T) {
	type view struct {
		Key    string
		Op     labels.Operator
		Values []string
		String string
	}
	tests := []struct {
		name string
		key  string
		op   labels.Operator
		vals []string
		want view
	}{
		{"equals", "a", labels.Equals, []string{"b"}, view{"a", labels.Equals, []string{"b"}, "a=b"}},
		{"double equals", "a", labels.DoubleEquals, []string{"b"}, view{"a", labels.DoubleEquals, []string{"b"}, "a==b"}},
		{"not equals", "a", labels.NotEquals, []string{""}, view{"a", labels.NotEquals, []string{""}, "a!="}},
		{"in sorts and dedups on output", "a", labels.In, []string{"z", "b", "z"}, view{"a", labels.In, []string{"b", "z"}, "a in (b,z)"}},
		{"notin", "a", labels.NotIn, []string{"x"}, view{"a", labels.NotIn, []string{"x"}, "a notin (x)"}},
		{"exists", "a", labels.Exists, nil, view{"a", labels.Exists, []string{}, "a"}},
		{"does not exist", "a", labels.DoesNotExist, []string{}, view{"a", labels.DoesNotExist, []string{}, "!a"}},
		{"gt", "a", labels.GreaterThan, []string{"3"}, view{"a", labels.GreaterThan, []string{"3"}, "a>3"}},
		{"lt", "a", labels.LessThan, []string{"3"}, view{"a", labels.LessThan, []string{"3"}, "a<3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := labels.NewRequirement(tt.key, tt.op, tt.vals)
			require.NoError(t, err)
			got := view{r.Key(), r.Operator(), r.Values(), r.String()}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("requirement mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLabels_NewRequirementErrors(t *testing.T) {
	tests := []struct {
		name string
		key  string
		op   labels.Operator
		vals []string
		want string
	}{
		{"in needs values", "a", labels.In, nil, `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
		{"notin needs values", "a", labels.NotIn, []string{}, `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`},
		{"equals needs one value", "a", labels.Equals, []string{"x", "y"}, `values: Invalid value: ["x","y"]: exact-match compatibility requires one single value`},
		{"exists takes none", "a", labels.Exists, []string{"x"}, `values: Invalid value: ["x"]: values set must be empty for exists and does not exist`},
		{"gt needs one integer", "a", labels.GreaterThan, []string{"1", "2"}, `values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required`},
		{"unknown operator", "a", labels.Operator("~"), []string{"x"}, `operator: Unsupported value: "~": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`},
		// Outside Parse the key's path is "key", as upstream.
		{"bad key", "a@", labels.Exists, nil, `key: Invalid value: "a@": ` + nameRuleText},
		// Every problem is reported, once each, in brackets.
		{"several problems", "a@", labels.Equals, []string{"b@", "c"}, `[key: Invalid value: "a@": ` + nameRuleText +
			`, values: Invalid value: ["b@","c"]: exact-match compatibility requires one single value` +
			`, values[0][a@]: Invalid value: "b@": ` + valueRuleText + `]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := labels.NewRequirement(tt.key, tt.op, tt.vals)
			require.Error(t, err)
			assert.Nil(t, r)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestLabels_RequirementDoesNotAliasInput(t *testing.T) {
	vals := []string{"a", "b"}
	r, err := labels.NewRequirement("k", labels.In, vals)
	require.NoError(t, err)
	vals[0] = "changed"
	assert.Equal(t, []string{"a", "b"}, r.Values())
	assert.True(t, r.Matches(labels.Set{"k": "a"}))
}

func TestLabels_SelectorFromSet(t *testing.T) {
	tests := []struct {
		name      string
		set       labels.Set
		wantStr   string
		wantEmpty bool
	}{
		{"nil is everything", nil, "", true},
		{"empty is everything", labels.Set{}, "", true},
		{"sorted equality terms", labels.Set{"b": "2", "a": "1"}, "a=1,b=2", false},
		// SelectorFromSet trusts its input, as upstream; see ValidatedSelectorFromSet.
		{"not validated", labels.Set{"a b": "c@"}, "a b=c@", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel := labels.SelectorFromSet(tt.set)
			assert.Equal(t, tt.wantStr, sel.String())
			assert.Equal(t, tt.wantEmpty, sel.Empty())
			assert.True(t, sel.Matches(tt.set), "a set always matches its own selector")
		})
	}
}

func TestLabels_ValidatedSelectorFromSet(t *testing.T) {
	sel, err := labels.ValidatedSelectorFromSet(labels.Set{"b": "2", "a": "1"})
	require.NoError(t, err)
	assert.Equal(t, "a=1,b=2", sel.String())

	sel, err = labels.ValidatedSelectorFromSet(nil)
	require.NoError(t, err)
	assert.True(t, sel.Empty())

	// Of several bad entries the first key in order is reported, every time.
	_, err = labels.ValidatedSelectorFromSet(labels.Set{"z": "b@d", "a": "b@d"})
	require.Error(t, err)
	assert.Equal(t, `values[0][a]: Invalid value: "b@d": `+valueRuleText, err.Error())
}

func TestLabels_AddAndRequirements(t *testing.T) {
	base, err := labels.Parse("b=2")
	require.NoError(t, err)
	r, err := labels.NewRequirement("a", labels.In, []string{"x", "y"})
	require.NoError(t, err)

	added := base.Add(*r)
	assert.Equal(t, "a in (x,y),b=2", added.String())
	assert.Equal(t, "b=2", base.String(), "Add must not change its receiver")
	assert.Equal(t, "a in (x,y)", labels.Everything().Add(*r).String())

	reqs, selectable := added.Requirements()
	require.True(t, selectable)
	var keys []string
	for i := range reqs {
		keys = append(keys, reqs[i].Key())
	}
	if diff := cmp.Diff([]string{"a", "b"}, keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	assert.Equal(t, "a in (x,y), b=2", reqs.String())

	// Requirements is a copy: changing it does not change the selector.
	reqs[0] = reqs[1]
	assert.Equal(t, "a in (x,y),b=2", added.String())
}

func TestLabels_ZeroRequirementMatchesNothing(t *testing.T) {
	var r labels.Requirement // not built by NewRequirement: no operator
	assert.False(t, r.Matches(labels.Set{"": ""}))
	assert.False(t, r.Matches(labels.Set{}))
}

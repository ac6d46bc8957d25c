package jsonpath

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = `{"apiVersion":"p.example.com/v1","kind":"Blob","metadata":{"name":"jp"},
 "status":{"conditions":[{"type":"Ready","status":"True","count":3,"ratio":0.5},{"type":"Synced","status":"False","count":1}],
  "list":[1,2,3,4,5],"m":{"b":2,"a":1},"s":"xyz","n":null,"f":1.5,"big":1e21,"t":true,"nested":{"x":{"y":"deep"}}}}`

// decoded is sample as the server holds it: integers int64, other numbers float64.
func decoded(t *testing.T) any {
	v, err := decodeSample()
	require.NoError(t, err)
	return v
}

func decodeSample() (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader([]byte(sample)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var fix func(any) any
	fix = func(x any) any {
		switch t := x.(type) {
		case json.Number:
			if i, err := t.Int64(); err == nil {
				return i
			}
			f, _ := t.Float64()
			return f
		case map[string]any:
			for k, e := range t {
				t[k] = fix(e)
			}
		case []any:
			for i, e := range t {
				t[i] = fix(e)
			}
		}
		return x
	}
	return fix(v), nil
}

// TestCh13_JSONPath_AsKubectl runs templates on one object and expects what
// `kubectl get -o jsonpath=…` printed for each on the real server (kubectl's printer is the
// same package): filters with every operator, slices, unions, wildcards, recursive
// descent, range, literal text, and the errors for what does not parse or evaluate.
func TestCh13_JSONPath_AsKubectl(t *testing.T) {
	tests := []struct{ template, want, err string }{
		{`{.status.conditions[?(@.type=="Ready")].status}`, "True", ""},
		{`{.status.conditions[?(@.type=='Synced')].count}`, "1", ""},
		{`{.status.conditions[?(@.count>1)].type}`, "Ready", ""},
		{`{.status.conditions[?(@.count<=1)].type}`, "Synced", ""},
		{`{.status.conditions[?(@.count!=3)].type}`, "Synced", ""},
		{`{.status.conditions[?(@.ratio)].type}`, "Ready", ""},
		{`{.status.conditions[?(@.count==1.0)].type}`, "", "incompatible types for comparison"},
		{`{.status.conditions[*].type}`, "Ready Synced", ""},
		{`{.status.conditions[0]}`, `{"count":3,"ratio":0.5,"status":"True","type":"Ready"}`, ""},
		{`{.status.list[1:3]}`, "2 3", ""},
		{`{.status.list[-1]}`, "5", ""},
		{`{.status.list[::2]}`, "1 3 5", ""},
		{`{.status.list[0,2]}`, "1 3", ""},
		{`{.status.list[:]}`, "1 2 3 4 5", ""},
		{`{.status.list[10]}`, "", "array index out of bounds: index 10, length 5"},
		{`{.status.list[2:1]}`, "", "starting index 2 is greater than ending index 1"},
		{`{.status.m.*}`, "1 2", ""},
		{`{.status.m['a','b']}`, "1 2", ""},
		{`{..y}`, "deep", ""},
		{`{.status.nested..y}`, "deep", ""},
		{`{.status.s}`, "xyz", ""},
		{`{.status.n}`, "null", ""},
		{`{.status.f}`, "1.5", ""},
		{`{.status.big}`, "1e+21", ""},
		{`{.status.t}`, "true", ""},
		{`{.status.missing}`, "", ""},
		{`{.status.m}`, `{"a":1,"b":2}`, ""},
		{`{.status.list}`, "[1,2,3,4,5]", ""},
		{`{range .status.conditions[*]}{.type}={.status};{end}`, "Ready=True;Synced=False;", ""},
		{`{.status.conditions[?(@.type=="Ready")]}`, `{"count":3,"ratio":0.5,"status":"True","type":"Ready"}`, ""},
		{`{.metadata.name} and {.status.s}`, "jp and xyz", ""},
		{`{.status.list[x]}`, "", "invalid array index x"},
		{`{.status..type}`, "Ready Synced", ""},
		{`{.status.conditions[*]['type','status']}`, "Ready Synced True False", ""},
		{`{$.status.s}`, "xyz", ""},
		{`{@.status.t}`, "true", ""},
		{`{.status.s[0]}`, "", "string is not array or slice"},
		{`{.status.conditions[?(@.type=="Ready")].status`, "", "unclosed action"},
		{`{.status.conditions[?(@.nope=="x")].type}`, "", ""},
		{`{.status.conditions[?(@.status==True)].type}`, "", "unrecognized identifier True"},
		{`{.status.list[?(@>2)]}`, "3 4 5", ""},
	}
	for _, tt := range tests {
		t.Run(tt.template, func(t *testing.T) {
			j := New("t").AllowMissingKeys(true)
			var out bytes.Buffer
			err := j.Parse(tt.template)
			if err == nil {
				err = j.Execute(&out, decoded(t))
			}
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, out.String())
		})
	}
}

// TestCh13_JSONPath_MissingKeys checks the two settings of AllowMissingKeys, and that the
// column printer prints a null as "<no value>".
func TestCh13_JSONPath_MissingKeys(t *testing.T) {
	j := New("t")
	require.NoError(t, j.Parse("{.status.nope}"))
	_, err := j.FindResults(decoded(t))
	assert.EqualError(t, err, "nope is not found")
	res, err := j.AllowMissingKeys(true).FindResults(decoded(t))
	require.NoError(t, err)
	assert.Equal(t, [][]any{nil}, res)

	require.NoError(t, j.Parse("{.status.n}"))
	res, err = j.FindResults(decoded(t))
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, j.PrintResults(&out, res[0]))
	assert.Equal(t, "<no value>", out.String())
	_, err = New("empty").FindResults(nil)
	assert.EqualError(t, err, "empty is an incomplete jsonpath template")
}

// FuzzJSONPath parses random templates and runs them on the sample: nothing panics.
func FuzzJSONPath(f *testing.F) {
	for _, s := range []string{`{.a.b[0]}`, `{.status.conditions[?(@.type=="Ready")].status}`, `{range .x[*]}{.y}{end}`, `{..y}`, `{.a['b','c'][1:2:3]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tpl string) {
		j := New("f").AllowMissingKeys(true)
		if j.Parse(tpl) != nil {
			return
		}
		var out bytes.Buffer
		_ = j.Execute(&out, decoded(t))
	})
}

package fieldpath

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_SSA_FieldsV1Encoding: sets encode as the real server stores them: "." first
// for a member with children, field names before keys before values before indexes,
// numbers ordered by value (9 before 10, unlike the JSON text), keys and values through
// encoding/json with HTML escaping, escaped once more as object keys.
func TestCh01_SSA_FieldsV1Encoding(t *testing.T) {
	tests := []struct {
		name  string
		paths []Path
		want  string
	}{
		{"empty", nil, `{}`},
		{"one field", []Path{MakePath("spec", "replicas")}, `{"f:spec":{"f:replicas":{}}}`},
		{"member with children", []Path{MakePath("metadata", "labels"), MakePath("metadata", "labels", "a")},
			`{"f:metadata":{"f:labels":{".":{},"f:a":{}}}}`},
		{"keys by numeric value", []Path{
			MakePath("ports", Key("port", int64(10))), MakePath("ports", Key("port", float64(9))),
		}, `{"f:ports":{"k:{\"port\":9}":{},"k:{\"port\":10}":{}}}`},
		{"key fields sorted by name", []Path{MakePath("ports", Key("protocol", "TCP", "containerPort", int64(80)))},
			`{"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}`},
		{"set values", []Path{MakePath("finalizers", Value("b")), MakePath("finalizers", Value("a"))},
			`{"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}}}`},
		{"kinds in order", []Path{
			MakePath("x", Index(1)), MakePath("x", Value("v")), MakePath("x", Key("k", "a")), MakePath("x", "f"),
		}, `{"f:x":{"f:f":{},"k:{\"k\":\"a\"}":{},"v:\"v\"":{},"i:1":{}}}`},
		{"html escaped", []Path{MakePath("metadata", "annotations", "a<b>&c")},
			`{"f:metadata":{"f:annotations":{"f:a\u003cb\u003e\u0026c":{}}}}`},
		{"value escaped twice", []Path{MakePath("args", Value(`say "hi"`))}, `{"f:args":{"v:\"say \\\"hi\\\"\"":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := NewSet(tt.paths...).ToJSON()
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
			back, err := FromJSON(b)
			require.NoError(t, err)
			assert.True(t, back.Equals(NewSet(tt.paths...)), "decoded:\n%v", back)
		})
	}
}

// TestCh01_SSA_FieldsV1Decoding: what decoding accepts and refuses.
func TestCh01_SSA_FieldsV1Decoding(t *testing.T) {
	tests := []struct {
		in      string
		want    []Path
		wantErr bool
	}{
		{in: `{}`},
		{in: `null`},
		{in: `{"f:a":{}}`, want: []Path{MakePath("a")}},
		{in: `{"f:a":{".":{},"f:b":{}}}`, want: []Path{MakePath("a"), MakePath("a", "b")}},
		{in: `{"f:a":{"f:b":{}}}`, want: []Path{MakePath("a", "b")}},
		{in: `{"x:unknown":{"f:b":{}},"f:a":{}}`, want: []Path{MakePath("a")}}, // unknown kinds skipped
		{in: `{"f:a":null}`, want: []Path{MakePath("a")}},
		{in: `{"i:2":{}}`, want: []Path{{Index(2)}}},
		{in: `{"v:5":{}}`, want: []Path{{Value(int64(5))}}},
		{in: `{"a":{}}`, wantErr: true},
		{in: `{"fa":{}}`, wantErr: true},
		{in: `{"i:x":{}}`, wantErr: true},
		{in: `{"k:[1]":{}}`, wantErr: true},
		{in: `{"f:a":1}`, wantErr: true},
		{in: `[]`, wantErr: true},
		{in: `{"f:a":{}} {}`, wantErr: true},
		{in: `{"f:a":{}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s, err := FromJSON([]byte(tt.in))
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.True(t, s.Equals(NewSet(tt.want...)), "got:\n%v", s)
		})
	}
}

// TestCh01_SSA_SetOperations: union, intersection, the two differences and leaves.
func TestCh01_SSA_SetOperations(t *testing.T) {
	a := NewSet(MakePath("spec"), MakePath("spec", "replicas"), MakePath("spec", "paused"), MakePath("metadata", "labels", "a"))
	b := NewSet(MakePath("spec"), MakePath("spec", "replicas"), MakePath("metadata", "labels", "b"))
	str := func(s *Set) string { return s.String() }
	assert.Equal(t, ".spec\n.metadata.labels.a\n.metadata.labels.b\n.spec.paused\n.spec.replicas", str(a.Union(b)))
	assert.Equal(t, ".spec\n.spec.replicas", str(a.Intersection(b)))
	assert.Equal(t, ".metadata.labels.a\n.spec.paused", str(a.Difference(b)))
	assert.Equal(t, ".metadata.labels.a", str(a.RecursiveDifference(b)))
	assert.Equal(t, ".metadata.labels.a\n.spec.paused\n.spec.replicas", str(a.Leaves()))
	assert.True(t, a.Has(MakePath("spec", "paused")))
	assert.False(t, a.Has(MakePath("metadata")))
	assert.Equal(t, 4, a.Size())
	assert.True(t, NewSet().Empty())
	assert.True(t, a.Difference(a).Empty())
	p := MakePath("spec", "containers", Key("name", "nginx"), "image")
	assert.Equal(t, `.spec.containers[name="nginx"].image`, p.String())
	assert.Equal(t, `[=5]`, Value(float64(5)).String())
	assert.Equal(t, `[3]`, Index(3).String())
}

// FuzzCh01_SSA_FieldsV1 feeds FieldsV1 decoding arbitrary bytes: it never panics, and what
// it accepts encodes to bytes that decode to the same set and encode the same again.
func FuzzCh01_SSA_FieldsV1(f *testing.F) {
	for _, s := range []string{`{}`, `{"f:a":{".":{},"f:b":{}}}`, `{"k:{\"name\":\"x\",\"port\":80}":{".":{},"f:image":{}}}`,
		`{"v:\"a\"":{},"v:1.5":{},"v:true":{},"v:null":{},"i:0":{}}`, `{"f:a\u003cb":{}}`, `null`, `{"x:y":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := FromJSON(data)
		if err != nil {
			return
		}
		b, err := s.ToJSON()
		if err != nil {
			return // a value JSON cannot hold (none can come from JSON)
		}
		s2, err := FromJSON(b)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", b, err)
		}
		b2, err := s2.ToJSON()
		if err != nil || string(b) != string(b2) {
			t.Fatalf("unstable: %s then %s (%v)", b, b2, err)
		}
		if s.String() != s2.String() {
			t.Fatalf("sets differ: %v / %v", s, s2)
		}
	})
}

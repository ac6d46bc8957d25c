package decode

import (
	"fmt"

	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
)

// The one-pass reader behind Object: it checks the JSON grammar and builds the JSON tree
// while it walks the schema, so that validity, unknown and duplicate members, type and
// format errors and missing required members cost one pass over the body. Anything it
// does not accept (bad JSON, nesting deeper than encoding/json's 10,000) only marks the
// body invalid: Object then runs checkKind, whose encoding/json error is the one to report.
// It never indexes past the end of data.

const (
	// maxStrictProblems is sigs.k8s.io/json's cap on the strict errors it collects.
	maxStrictProblems = 100
	// maxDepth is encoding/json's nesting limit (its scanner's maxNestingDepth).
	maxDepth = 10000
)

type objectDecoder struct {
	data []byte
	// text is data as one string: plain strings and member names are cut from it, one
	// allocation for the whole body instead of one per string.
	text   string
	pos    int
	depth  int
	strict bool // collect unknown and duplicate members

	invalid   bool     // the body is not JSON, or too deep
	notObject bool     // the top level is neither an object nor null
	kindCase  bool     // a top-level member matches kind or apiVersion only ignoring case
	err       error    // the first type or format error; a *schema.StopError ends the walk
	problems  []string // `unknown field "…"`, `duplicate field "…"`, in document order, once each
	required  []string // paths of missing required members

	path     []pathSegment // the strict-error path: spec, containers, [0]
	fields   []string      // member names only: the field of a type error
	owner    string        // the Go struct holding the innermost member
	inStatus bool          // under the top-level status, where presence is not checked
	// opaque counts the values being read inside a Go type that decodes itself (FieldsV1,
	// RawExtension): upstream nothing inside is checked, so nothing is reported.
	opaque int
}

// root reads the whole body: an object, or null for an empty one (as null decodes into a
// struct). Anything after the value but spaces makes the body invalid.
func (d *objectDecoder) root(s *schema.Schema) map[string]any {
	d.skipSpace()
	var m map[string]any
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '{':
		m = d.object(s, true)
	case d.literal("null"):
		m = map[string]any{}
	default:
		d.notObject = true
		return nil
	}
	if !d.stopped() {
		d.skipSpace()
		if d.pos != len(d.data) {
			d.bad()
		}
	}
	return m
}

// bad marks the body invalid and ends the walk.
func (d *objectDecoder) bad() {
	d.invalid = true
	d.pos = len(d.data)
}

// stopped reports whether the walk is over: bad JSON or a decoder's own error.
func (d *objectDecoder) stopped() bool {
	if d.invalid {
		return true
	}
	_, stop := d.err.(*schema.StopError)
	return stop
}

// fail records err if it is the first; a *schema.TypeError gets the field context.
func (d *objectDecoder) fail(err error) {
	if d.opaque > 0 {
		return
	}
	if te, ok := err.(*schema.TypeError); ok && (d.owner != "" || len(d.fields) > 0) {
		te.Struct, te.Field = d.owner, joinFields(d.fields)
	}
	if se, ok := err.(*schema.StopError); ok {
		if _, already := d.err.(*schema.StopError); !already {
			d.err = se // a decoder's own error ends the decode and wins over saved ones
		}
		return
	}
	if d.err == nil {
		d.err = err
	}
}

func joinFields(f []string) string {
	n := 0
	for _, s := range f {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for i, s := range f {
		if i > 0 {
			b = append(b, '.')
		}
		b = append(b, s...)
	}
	return string(b)
}

// problem records a strict error at the current path plus member name.
func (d *objectDecoder) problem(kind, name string) {
	if !d.strict || d.opaque > 0 || len(d.problems) >= maxStrictProblems {
		return
	}
	segs := append(d.path[:len(d.path):len(d.path)], pathSegment{name: name})
	text := fmt.Sprintf("%s field %q", kind, fieldPath(segs))
	for _, p := range d.problems {
		if p == text {
			return
		}
	}
	d.problems = append(d.problems, text)
}

package apiserver

import (
	"bytes"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
)

// The fieldValidation directives of a POST, PUT or PATCH (wire spec C1). Absent means Warn.
const (
	fieldValidationIgnore = "Ignore"
	fieldValidationWarn   = "Warn"
	fieldValidationStrict = "Strict"
)

// legacySchemeName is the name the real server's scheme reports in "no kind is registered"
// errors; we print it so that decode errors read like the real ones.
const legacySchemeName = "pkg/api/legacyscheme/scheme.go:30"

// decodeBody decodes the body of a POST or PUT to an endpoint serving expected. It mirrors
// the decode step of createHandler and UpdateResource in apiserver's endpoints/handlers
// (create.go, update.go, rest.go transformDecodeError), JSON only:
//
//   - kind and apiVersion may be missing; they default to expected's (wire spec C1);
//   - a body that is not a JSON object is 400 "the object provided is unrecognized …" (E1, E2);
//   - a value of the wrong JSON type is 400 "<Kind> in version … cannot be handled as …" (E3);
//   - another kind is 400 with the same prefix and a conversion detail (E4);
//   - the right kind in another group-version is 400 "the API version in the data …" (E5);
//   - unknown and duplicate fields are, by fieldValidation: Strict → 400 "… strict decoding
//     error: unknown field \"spec.bogus\"" (E6); Warn or "" → decoded, and each problem
//     returned as a warning text `unknown field "spec.bogus"` for a Warning header (E7);
//     Ignore → decoded silently. Field names match case-sensitively, as the real decoder's.
//
// Kinds the scheme knows decode into their Go type (a *api.Pod); any other kind (a registered
// custom kind) decodes into *api.Unstructured, where only duplicate fields can be detected.
// The returned object always has kind and apiVersion set. Every error is an *api.Status.
func decodeBody(scheme *api.Scheme, data []byte, expected api.GroupVersionKind, fieldValidation string) (api.Object, []string, error) {
	var tm struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}
	if err := json.Unmarshal(data, &tm); err != nil {
		return nil, nil, api.NewBadRequest(fmt.Sprintf(
			"the object provided is unrecognized (must be of type %s): couldn't get version/kind; json parse error: %v (%s)",
			expected.Kind, err, summarizeData(data, 30)))
	}
	actual := defaultGVK(tm.APIVersion, tm.Kind, expected)
	if actual.Kind != expected.Kind {
		return nil, nil, cannotHandle(actual, expected, conversionDetail(scheme, actual, expected))
	}
	if actual.Group != expected.Group || actual.Version != expected.Version {
		return nil, nil, api.NewBadRequest(fmt.Sprintf(
			"the API version in the data (%s) does not match the expected API version (%s)",
			actual.APIVersion(), expected.APIVersion()))
	}

	var obj api.Object
	var typ reflect.Type // nil: free-form, no unknown fields to find
	if scheme != nil && scheme.Recognizes(expected) {
		o, err := scheme.New(expected)
		if err != nil {
			return nil, nil, api.NewInternalError(err)
		}
		obj, typ = o, reflect.TypeOf(o).Elem()
	} else {
		obj = &api.Unstructured{}
	}

	// Typed objects are always walked, even under Ignore: encoding/json matches member names
	// case-insensitively and the real decoder does not, so members that match a field only
	// by case must be removed before decoding.
	var problems []strictProblem
	if typ != nil || fieldValidation != fieldValidationIgnore {
		problems = findStrictProblems(data, typ)
	}
	body := data
	var drop [][]pathSegment
	for _, p := range problems {
		if p.caseFold {
			drop = append(drop, p.segments)
		}
	}
	if len(drop) > 0 {
		body = dropMembers(data, drop)
	}
	if fieldValidation == fieldValidationIgnore {
		problems = nil
	}
	if err := json.Unmarshal(body, obj); err != nil {
		return nil, nil, cannotHandle(actual, expected, err.Error())
	}
	if u, ok := obj.(*api.Unstructured); ok && u.Object == nil {
		return nil, nil, cannotHandle(actual, expected, "expected a JSON object, got null")
	}
	obj.GetObjectKind().SetGroupVersionKind(expected)

	if len(problems) == 0 {
		return obj, nil, nil
	}
	texts := make([]string, len(problems))
	for i, p := range problems {
		texts[i] = p.text
	}
	if fieldValidation == fieldValidationStrict {
		return nil, nil, cannotHandle(actual, expected, "strict decoding error: "+strings.Join(texts, ", "))
	}
	return obj, texts, nil
}

// defaultGVK fills a missing kind or version from the endpoint's, as the real JSON
// serializer does with its default GVK.
func defaultGVK(apiVersion, kind string, def api.GroupVersionKind) api.GroupVersionKind {
	g, v := api.ParseAPIVersion(apiVersion)
	out := api.GroupVersionKind{Group: g, Version: v, Kind: kind}
	if out.Kind == "" {
		out.Kind = def.Kind
	}
	if out.Version == "" && (out.Group == "" || out.Group == def.Group) {
		out.Group, out.Version = def.Group, def.Version
	}
	return out
}

// cannotHandle is the 400 of transformDecodeError when the data named a kind. Upstream
// prints the version alone ("v1", not "apps/v1").
func cannotHandle(actual, expected api.GroupVersionKind, detail string) error {
	return api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s",
		actual.Kind, actual.Version, expected.Kind, detail))
}

// conversionDetail is what the real server's scheme says when a body of another kind reaches
// an endpoint: a kind it knows has no conversion to the endpoint's internal type, a kind it
// does not know is not registered.
func conversionDetail(scheme *api.Scheme, actual, expected api.GroupVersionKind) string {
	if scheme != nil && scheme.Recognizes(actual) {
		return fmt.Sprintf("converting (%s.%s) to (%s.%s): unknown conversion",
			actual.Version, actual.Kind, internalPackage(expected.Group), expected.Kind)
	}
	return fmt.Sprintf("no kind %q is registered for version %q in scheme %q",
		actual.Kind, actual.APIVersion(), legacySchemeName)
}

// internalPackage is the Go package name of a group's internal types upstream: "core" for
// the core group, else the group's first label ("apps", "example" for example.dev).
func internalPackage(group string) string {
	if group == "" {
		return "core"
	}
	if i := strings.IndexByte(group, '.'); i >= 0 {
		return group[:i]
	}
	return group
}

// summarizeData mirrors summarizeData in apiserver handlers/rest.go: the start of a body
// for an error message, as text when it looks like JSON and as hex otherwise.
func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		if len(data) > maxLength {
			return hex.EncodeToString(data[:maxLength]) + " ..."
		}
		return hex.EncodeToString(data)
	}
}

// pathSegment is one step of a field path: a member name, or an index when isIndex.
type pathSegment struct {
	name    string
	index   int
	isIndex bool
}

// strictProblem is one unknown or duplicate member found by findStrictProblems.
type strictProblem struct {
	text     string // `unknown field "spec.bogus"` or `duplicate field "metadata.name"`
	segments []pathSegment
	caseFold bool // unknown, but encoding/json would match it to a field ignoring case
}

// fieldPath prints segments as the real decoder does: "spec.containers[0].name".
func fieldPath(segs []pathSegment) string {
	var b strings.Builder
	for i, s := range segs {
		if s.isIndex {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return b.String()
}

// findStrictProblems walks the JSON text of data beside the Go type typ and reports, in
// document order, members typ has no field for and members that appear twice in one object
// (what sigs.k8s.io/json's strict mode reports). typ nil means free-form: duplicates only.
// It is a small hand-written scanner rather than json.Decoder.Token, which allocates for
// every token; it allocates only for the problems it finds. data has already been checked
// to be valid JSON; should the scan meet anything else it stops, and the decode that
// follows reports the error.
func findStrictProblems(data []byte, typ reflect.Type) []strictProblem {
	s := strictScanner{data: data}
	s.value(typ, true)
	return s.problems
}

// strictScanner holds the scan position and the path of the value being scanned.
type strictScanner struct {
	data     []byte
	pos      int
	path     []scanSegment
	problems []strictProblem
	failed   bool
}

// scanSegment is one path step, pointing into data to avoid copying member names.
type scanSegment struct {
	key     []byte // raw, still escaped, without quotes
	escaped bool
	index   int
	isIndex bool
}

func (s *strictScanner) add(kind string) {
	segs := make([]pathSegment, len(s.path))
	for i, p := range s.path {
		if p.isIndex {
			segs[i] = pathSegment{index: p.index, isIndex: true}
		} else {
			segs[i] = pathSegment{name: memberName(p.key, p.escaped)}
		}
	}
	s.problems = append(s.problems, strictProblem{text: fmt.Sprintf("%s field %q", kind, fieldPath(segs)), segments: segs})
}

// memberName unescapes a raw member name.
func memberName(raw []byte, escaped bool) string {
	if !escaped {
		return string(raw)
	}
	var out string
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	if err := json.Unmarshal(quoted, &out); err != nil {
		return string(raw)
	}
	return out
}

func (s *strictScanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *strictScanner) peek() byte {
	s.skipSpace()
	if s.pos >= len(s.data) {
		s.failed = true
		return 0
	}
	return s.data[s.pos]
}

// str scans a string starting at its opening quote and returns its raw content.
func (s *strictScanner) str() (raw []byte, escaped bool) {
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			s.pos = i + 1
			return s.data[start:i], escaped
		}
	}
	s.failed = true
	s.pos = len(s.data)
	return nil, false
}

// value scans one JSON value. check false means the value belongs to an unknown member:
// it is skipped without looking inside, as the real decoder skips it.
func (s *strictScanner) value(t reflect.Type, check bool) {
	if s.failed {
		return
	}
	t = indirectType(t)
	if isOpaqueType(t) {
		check = false
	}
	switch s.peek() {
	case '{':
		s.object(t, check)
	case '[':
		s.array(t, check)
	case '"':
		s.str()
	case 0:
	default: // number, true, false, null
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				return
			}
			s.pos++
		}
	}
}

func (s *strictScanner) array(t reflect.Type, check bool) {
	s.pos++ // '['
	var elem reflect.Type
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		elem = t.Elem()
	} else if t != nil && t.Kind() != reflect.Interface {
		check = false // the decode will fail on the type mismatch
	}
	if s.peek() == ']' {
		s.pos++
		return
	}
	for i := 0; !s.failed; i++ {
		s.path = append(s.path, scanSegment{index: i, isIndex: true})
		s.value(elem, check)
		s.path = s.path[:len(s.path)-1]
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return
		default:
			s.failed = true
		}
	}
}

func (s *strictScanner) object(t reflect.Type, check bool) {
	s.pos++ // '{'
	var fields map[string]reflect.Type
	var elem reflect.Type
	structured := false
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields, structured = structFields(t), true
		case reflect.Map:
			elem = t.Elem()
		case reflect.Interface:
		default:
			check = false // the decode will fail on the type mismatch
		}
	}
	if s.peek() == '}' {
		s.pos++
		return
	}
	var seen seenKeys
	for !s.failed {
		if s.peek() != '"' {
			s.failed = true
			return
		}
		raw, escaped := s.str()
		if s.peek() != ':' {
			s.failed = true
			return
		}
		s.pos++
		s.path = append(s.path, scanSegment{key: raw, escaped: escaped})
		childType, childCheck := elem, check
		if check {
			name := raw
			if escaped {
				name = []byte(memberName(raw, true))
			}
			if seen.addOrFind(name) {
				s.add("duplicate")
			}
			if structured {
				ft, known := fields[string(name)]
				if !known {
					s.add("unknown")
					s.problems[len(s.problems)-1].caseFold = foldMatches(fields, string(name))
				}
				childType, childCheck = ft, known
			}
		}
		s.value(childType, childCheck)
		s.path = s.path[:len(s.path)-1]
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return
		default:
			s.failed = true
		}
	}
}

// seenKeys is the set of member names met in one object: an inline array (no allocation
// for the usual handful of members), then a map once the object is large.
type seenKeys struct {
	small [16][]byte
	n     int
	set   map[string]struct{}
}

// addOrFind records name and reports whether it was already there.
func (k *seenKeys) addOrFind(name []byte) bool {
	if k.set != nil {
		if _, ok := k.set[string(name)]; ok {
			return true
		}
		k.set[string(name)] = struct{}{}
		return false
	}
	for _, n := range k.small[:k.n] {
		if bytes.Equal(n, name) {
			return true
		}
	}
	if k.n < len(k.small) {
		k.small[k.n] = name
		k.n++
		return false
	}
	k.set = make(map[string]struct{}, 2*len(k.small))
	for _, n := range k.small {
		k.set[string(n)] = struct{}{}
	}
	k.set[string(name)] = struct{}{}
	return false
}

// foldMatches reports whether encoding/json would decode member key into one of fields.
func foldMatches(fields map[string]reflect.Type, key string) bool {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return true
		}
	}
	return false
}

func indirectType(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isOpaqueType reports types that decode themselves (api.Time, json.RawMessage,
// api.Unstructured): their members are theirs to judge, so the scan does not look inside.
func isOpaqueType(t reflect.Type) bool {
	if t == nil || t.Kind() == reflect.Interface {
		return false
	}
	pt := reflect.PointerTo(t)
	return pt.Implements(jsonUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

var structFieldsCache sync.Map // reflect.Type → map[string]reflect.Type

// structFields maps the JSON member names of struct type t to their Go types, following
// encoding/json's rules for tags, "-" and embedded structs (TypeMeta `json:",inline"`).
func structFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := structFieldsCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	out := map[string]reflect.Type{}
	collectFields(t, out, 0)
	structFieldsCache.Store(t, out)
	return out
}

func collectFields(t reflect.Type, out map[string]reflect.Type, depth int) {
	if depth > 8 {
		return // embedding this deep does not happen in API types; stop any cycle
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if et := indirectType(f.Type); et.Kind() == reflect.Struct {
				collectFields(et, out, depth+1)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := out[name]; !dup {
			out[name] = f.Type
		}
	}
}

// dropMembers removes the members at paths from the JSON object in data and re-encodes it.
// It is the rare path (a member that differs from a field only by case), so it may be slow.
func dropMembers(data []byte, paths [][]pathSegment) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return data
	}
	if _, err := dec.Token(); err != io.EOF {
		return data
	}
	for _, p := range paths {
		removeAt(root, p)
	}
	out, err := json.Marshal(root)
	if err != nil {
		return data
	}
	return out
}

// removeAt deletes the member at path p inside the decoded JSON tree v.
func removeAt(v any, p []pathSegment) {
	for i, s := range p {
		last := i == len(p)-1
		switch c := v.(type) {
		case map[string]any:
			if s.isIndex {
				return
			}
			if last {
				delete(c, s.name)
				return
			}
			v = c[s.name]
		case []any:
			if !s.isIndex || s.index >= len(c) || last {
				return
			}
			v = c[s.index]
		default:
			return
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/informer-lab/informer-lab/tools/internal/datafiles"
)

// kindMessage and kindMap are the field kinds that name another type.
const (
	kindMessage = "message"
	kindMap     = "map"
)

// field is one field of a message, as the descriptor files write it. The keys up to
// nullable are the contract with the codec; name and omitZero extend it.
type field struct {
	JSON      string `json:"json"`                // the JSON key ("" for an inline struct)
	Name      string `json:"name"`                // the proto field name
	Number    int    `json:"number"`              // the proto field number
	Kind      string `json:"kind"`                // string, bytes, bool, int32, int64, uint32, uint64, double, float, message, map
	Type      string `json:"type,omitempty"`      // full message name, for kind message
	Repeated  bool   `json:"repeated,omitempty"`  // a Go slice (other than []byte)
	Key       string `json:"key,omitempty"`       // the scalar kind of a map's keys
	Value     string `json:"value,omitempty"`     // the kind of a map's values
	ValueType string `json:"valueType,omitempty"` // full message name of a map's values
	Inline    bool   `json:"inline,omitempty"`    // json:",inline": the message's fields sit in the parent JSON object
	OmitEmpty bool   `json:"omitEmpty"`           // json ",omitempty"
	OmitZero  bool   `json:"omitZero,omitempty"`  // json ",omitzero" (IsZero, e.g. a zero Time, is left out)
	Nullable  bool   `json:"nullable"`            // pointer, slice, map or []byte: written only when non-nil
}

// message is one message of a descriptor file.
type message struct {
	Fields  []field `json:"fields"`
	Special string  `json:"special,omitempty"` // Time, MicroTime, Duration, Quantity, IntOrString, RawExtension, FieldsV1, Unknown
}

// generator walks Go types and collects their messages, by proto package.
type generator struct {
	packages map[string]map[string]*message // proto package → message name → message
	types    map[string]reflect.Type        // full message name → Go type (for the tests)
}

// generate builds the descriptor of every message reachable from roots and returns the
// files to write, keyed by file name: one JSON file per proto package plus SHA256SUMS.
// The same inputs always give the same bytes.
func generate() (map[string][]byte, error) {
	g, err := collect()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for pkg, msgs := range g.packages {
		data, err := encodeFile(pkg, msgs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", pkg, err)
		}
		files[pkg+".json"] = data
	}
	files[datafiles.SumsFile] = datafiles.SHA256Sums(files)
	return files, nil
}

// collect walks every root and returns the messages found.
func collect() (*generator, error) {
	g := &generator{packages: map[string]map[string]*message{}, types: map[string]reflect.Type{}}
	for _, t := range rootTypes() {
		if _, err := g.visit(t); err != nil {
			return nil, err
		}
	}
	if err := g.checkClosed(); err != nil {
		return nil, err
	}
	return g, nil
}

// protoPackage is the proto package of a Go package: go-to-protobuf names it after the
// import path, with dots for slashes (k8s.io/api/core/v1 → k8s.io.api.core.v1).
func protoPackage(goPkg string) string {
	return strings.ReplaceAll(goPkg, "/", ".")
}

// visit records the message of struct type t (or of a special named type) and of every type it reaches, and returns
// the message's full name.
func (g *generator) visit(t reflect.Type) (string, error) {
	if _, sp := specials[t]; (t.Kind() != reflect.Struct && !sp) || t.Name() == "" || t.PkgPath() == "" {
		return "", fmt.Errorf("%v is not a named struct type", t)
	}
	pkg := protoPackage(t.PkgPath())
	full := pkg + "." + t.Name()
	msgs := g.packages[pkg]
	if msgs == nil {
		msgs = map[string]*message{}
		g.packages[pkg] = msgs
	}
	if _, done := msgs[t.Name()]; done {
		return full, nil
	}
	m := &message{}
	msgs[t.Name()] = m // before the fields, so a recursive type ends here
	g.types[full] = t
	if sp, ok := specials[t]; ok {
		m.Special = sp.name
		m.Fields = append([]field(nil), sp.fields...)
		return full, nil
	}
	for i := range t.NumField() {
		f, ok, err := g.field(t.Field(i))
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", full, t.Field(i).Name, err)
		}
		if ok {
			m.Fields = append(m.Fields, f)
		}
	}
	sort.Slice(m.Fields, func(i, j int) bool { return m.Fields[i].Number < m.Fields[j].Number })
	for i := 1; i < len(m.Fields); i++ {
		if m.Fields[i].Number == m.Fields[i-1].Number {
			return "", fmt.Errorf("%s: field number %d used twice", full, m.Fields[i].Number)
		}
	}
	return full, nil
}

// field describes one struct field from its protobuf and json tags and its Go type.
// A field without a protobuf tag is not in the message: that is the inline TypeMeta of
// every object (apiVersion and kind travel in the envelope), and nothing else.
func (g *generator) field(sf reflect.StructField) (field, bool, error) {
	ptag, ok := sf.Tag.Lookup("protobuf")
	if !ok {
		if sf.Anonymous && sf.Name == "TypeMeta" || !sf.IsExported() || sf.Tag.Get("json") == "-" {
			return field{}, false, nil
		}
		return field{}, false, fmt.Errorf("exported field without a protobuf tag")
	}
	// Only the number and the name are read from the tag: its wire type and label have
	// slips (SecretVolumeSource.defaultMode says bytes, ISCSIVolumeSource.portals says
	// opt) that generated.proto and the generated Marshal do not share; they follow the
	// Go type, and so does the kind here.
	number, name, err := parseProtobufTag(ptag)
	if err != nil {
		return field{}, false, err
	}
	if name == "" {
		// EphemeralContainer's inline EphemeralContainerCommon has a bare "bytes,1,req":
		// go-to-protobuf then names the field after the Go field, first letter lowered.
		name = strings.ToLower(sf.Name[:1]) + sf.Name[1:]
	}
	f := field{Name: name, Number: number}
	jname, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
	for _, o := range strings.Split(opts, ",") {
		switch o {
		case "omitempty":
			f.OmitEmpty = true
		case "omitzero":
			f.OmitZero = true
		case "inline":
			f.Inline = true
		}
	}
	switch {
	case f.Inline && jname == "":
	case jname == "" && sf.Tag.Get("json") == "":
		f.JSON = sf.Name // encoding/json's default key
	case jname == "-":
		return field{}, false, fmt.Errorf("protobuf field hidden from JSON")
	default:
		f.JSON = jname
	}

	t := sf.Type
	if t.Kind() == reflect.Pointer {
		f.Nullable, t = true, t.Elem()
	}
	switch {
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		f.Kind, f.Nullable = "bytes", true
	case t.Kind() == reflect.Slice:
		f.Repeated, f.Nullable = true, true
		if f.Kind, f.Type, err = g.elemKind(t.Elem()); err != nil {
			return field{}, false, err
		}
	case t.Kind() == reflect.Map:
		f.Kind, f.Nullable = kindMap, true
		if f.Key, _, err = g.elemKind(t.Key()); err != nil {
			return field{}, false, err
		}
		if f.Key == kindMessage {
			return field{}, false, fmt.Errorf("map key %v is a message", t.Key())
		}
		if _, sp := specials[t.Elem()]; !sp && t.Elem().Kind() == reflect.Slice && t.Elem().Elem().Kind() != reflect.Uint8 {
			return field{}, false, fmt.Errorf("map value %v is a list (a wrapper message the generator does not know)", t.Elem())
		}
		if f.Value, f.ValueType, err = g.elemKind(t.Elem()); err != nil {
			return field{}, false, err
		}
	default:
		if f.Kind, f.Type, err = g.elemKind(t); err != nil {
			return field{}, false, err
		}
	}
	if f.Inline && f.Kind != kindMessage {
		return field{}, false, fmt.Errorf("inline field of kind %s", f.Kind)
	}
	return f, true, nil
}

// elemKind is the kind of a single value of type t (a field, a list item, a map key or
// value), and for a message its full name.
func (g *generator) elemKind(t reflect.Type) (string, string, error) {
	if _, ok := specials[t]; ok { // a named non-struct type with a wrapper message
		name, err := g.visit(t)
		return kindMessage, name, err
	}
	switch t.Kind() {
	case reflect.String:
		return "string", "", nil
	case reflect.Bool:
		return "bool", "", nil
	case reflect.Int32:
		return "int32", "", nil
	case reflect.Int64:
		return "int64", "", nil
	case reflect.Uint32:
		return "uint32", "", nil
	case reflect.Uint64:
		return "uint64", "", nil
	case reflect.Float64:
		return "double", "", nil
	case reflect.Float32:
		return "float", "", nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "bytes", "", nil
		}
	case reflect.Struct:
		name, err := g.visit(t)
		return kindMessage, name, err
	}
	return "", "", fmt.Errorf("type %v has no protobuf kind here", t)
}

// parseProtobufTag reads the number and name of a gogo struct tag such as
// "bytes,1,opt,name=metadata" or "varint,3,opt,name=replicas,casttype=int32".
func parseProtobufTag(tag string) (number int, name string, err error) {
	parts := strings.Split(tag, ",")
	if len(parts) < 3 {
		return 0, "", fmt.Errorf("protobuf tag %q is too short", tag)
	}
	number, err = strconv.Atoi(parts[1])
	if err != nil || number < 1 {
		return 0, "", fmt.Errorf("protobuf tag %q: bad field number", tag)
	}
	for _, p := range parts[2:] { // the label is missing from some tags ("bytes,2,name=spec")
		if v, ok := strings.CutPrefix(p, "name="); ok {
			name = v
		}
	}
	return number, name, nil
}

// checkClosed fails when a field names a message that no file describes.
func (g *generator) checkClosed() error {
	for pkg, msgs := range g.packages {
		for name, m := range msgs {
			for _, f := range m.Fields {
				for _, ref := range []string{f.Type, f.ValueType} {
					if ref == "" {
						continue
					}
					i := strings.LastIndexByte(ref, '.')
					if _, ok := g.packages[ref[:i]][ref[i+1:]]; !ok {
						return fmt.Errorf("%s.%s.%s names %s, which is not generated", pkg, name, f.JSON, ref)
					}
				}
			}
		}
	}
	return nil
}

// encodeFile writes one proto package's descriptor: one message per line, in name
// order, each as compact JSON without HTML escaping, so a regenerated file diffs one
// message per line.
func encodeFile(pkg string, msgs map[string]*message) ([]byte, error) {
	names := make([]string, 0, len(msgs))
	for n := range msgs {
		names = append(names, n)
	}
	sort.Strings(names)

	var buf bytes.Buffer
	fmt.Fprintf(&buf, `{"package":%s,"messages":{`, strconv.Quote(pkg))
	for i, n := range names {
		if i > 0 {
			buf.WriteByte(',')
		}
		var body bytes.Buffer
		enc := json.NewEncoder(&body)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(msgs[n]); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		buf.WriteByte('\n')
		buf.WriteString(strconv.Quote(n))
		buf.WriteByte(':')
		buf.Write(bytes.TrimSuffix(body.Bytes(), []byte("\n")))
	}
	buf.WriteString("\n}}\n")
	return buf.Bytes(), nil
}

package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dataDir is where make protos writes the descriptors, seen from this package's directory.
const dataDir = "../../../internal/builtinproto/descriptors"

func TestCh02_GenerateIsReproducible(t *testing.T) {
	first, err := generate()
	require.NoError(t, err)
	second, err := generate()
	require.NoError(t, err)
	require.Equal(t, len(first), len(second))
	for name, data := range first {
		assert.True(t, bytes.Equal(data, second[name]), "%s differs between two runs", name)
	}
}

// TestCh02_CommittedDescriptorsAreCurrent: the files the main module embeds are what the
// generator writes now, so nobody edits them by hand and a version bump in go.mod is
// followed by make protos.
func TestCh02_CommittedDescriptorsAreCurrent(t *testing.T) {
	files, err := generate()
	require.NoError(t, err)
	onDisk, err := filepath.Glob(filepath.Join(dataDir, "*"))
	require.NoError(t, err)
	var names []string
	for _, p := range onDisk {
		names = append(names, filepath.Base(p))
	}
	var want []string
	for n := range files {
		want = append(want, n)
	}
	sort.Strings(want)
	require.Equal(t, want, names, "the files in %s", dataDir)
	for name, data := range files {
		got, err := os.ReadFile(filepath.Join(dataDir, name))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got), "%s is stale: run make protos", name)
	}
}

// TestCh02_DescriptorsMatchGeneratedProto compares every message, reflected or special,
// with its declaration in the generated.proto file of its Go package: the same field
// names, numbers, types and labels, none missing and none extra. The struct tags this
// generator reads are what go-to-protobuf wrote those files from.
func TestCh02_DescriptorsMatchGeneratedProto(t *testing.T) {
	g, err := collect()
	require.NoError(t, err)
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Dir}}", "k8s.io/api", "k8s.io/apimachinery", "k8s.io/kube-aggregator", "k8s.io/apiextensions-apiserver").Output()
	require.NoError(t, err, "locating the k8s.io modules")
	modules := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, dir, _ := strings.Cut(line, " ")
		modules[path] = dir
	}

	protos := map[string]map[string][]string{} // Go package → message → field lines
	for full, typ := range g.types {
		pkgPath := typ.PkgPath()
		if _, ok := protos[pkgPath]; !ok {
			mod := "k8s.io/api"
			for _, m := range []string{"k8s.io/apimachinery", "k8s.io/kube-aggregator", "k8s.io/apiextensions-apiserver"} {
				if strings.HasPrefix(pkgPath, m+"/") {
					mod = m
				}
			}
			file := filepath.Join(modules[mod], strings.TrimPrefix(pkgPath, mod), "generated.proto")
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			protos[pkgPath] = parseProto(t, string(data), protoPackage(pkgPath))
		}
		name := typ.Name()
		want, ok := protos[pkgPath][name]
		if !assert.True(t, ok, "%s is not in %s's generated.proto", full, pkgPath) {
			continue
		}
		got := []string{} // an empty message (CustomResourceSubresourceStatus) has no fields
		for _, f := range g.packages[protoPackage(pkgPath)][name].Fields {
			got = append(got, describe(f))
		}
		sort.Strings(got)
		assert.Equal(t, want, got, "fields of %s", full)
	}
	t.Logf("%d messages match their generated.proto declarations", len(g.types))
}

// describe writes a field the way parseProto writes a generated.proto declaration.
func describe(f field) string {
	typ := f.Kind
	switch f.Kind {
	case kindMessage:
		typ = f.Type
	case kindMap:
		v := f.Value
		if v == kindMessage {
			v = f.ValueType
		}
		typ = "map<" + f.Key + "," + v + ">"
	}
	label := "optional"
	if f.Repeated {
		label = "repeated"
	} else if f.Kind == kindMap {
		label = ""
	}
	return fmt.Sprintf("%d %s %s %s", f.Number, f.Name, label, typ)
}

// parseProto reads the top-level messages of a generated.proto (go-to-protobuf writes no
// nested messages, enums or oneofs) as "number name label type" lines, sorted, with
// every message type spelled with its full name.
func parseProto(t *testing.T, text, pkg string) map[string][]string {
	t.Helper()
	scalars := map[string]bool{"string": true, "bytes": true, "bool": true, "int32": true,
		"int64": true, "uint32": true, "uint64": true, "double": true, "float": true}
	qualify := func(typ string) string {
		switch {
		case scalars[typ]:
			return typ
		case strings.HasPrefix(typ, "."):
			return typ[1:]
		default:
			return pkg + "." + typ
		}
	}
	msgs := map[string][]string{}
	var current string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "//") || line == "":
		case strings.HasPrefix(line, "message "):
			current = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(line, "message ")), " {")
			msgs[current] = []string{}
		case line == "}":
			sort.Strings(msgs[current])
			current = ""
		case current != "":
			decl, num, ok := strings.Cut(strings.TrimSuffix(line, ";"), " = ")
			require.True(t, ok, "unexpected line in %s: %q", current, line)
			var entry string
			if rest, isMap := strings.CutPrefix(decl, "map<"); isMap {
				kv, name, _ := strings.Cut(rest, "> ")
				k, v, _ := strings.Cut(kv, ", ")
				entry = fmt.Sprintf("%s %s  map<%s,%s>", num, name, qualify(k), qualify(v))
			} else {
				parts := strings.Fields(decl)
				require.Len(t, parts, 3, "unexpected field in %s: %q", current, line)
				entry = fmt.Sprintf("%s %s %s %s", num, parts[2], parts[0], qualify(parts[1]))
			}
			msgs[current] = append(msgs[current], entry)
		}
	}
	return msgs
}

// marshaler is what k8s.io/api's generated code gives every message type.
type marshaler interface{ Marshal() ([]byte, error) }

// TestCh02_NullableMatchesGeneratedMarshal runs the generated Marshal of every reflected
// message twice: on the zero value, whose encoding must hold exactly the fields the
// descriptor says are always written (nullable false), and on a value whose pointers,
// slices, maps and []byte are all set (one zero item each), whose encoding must hold
// every field. So each field number, and the always-written rule the codec follows, is
// checked against the code it must match byte for byte.
func TestCh02_NullableMatchesGeneratedMarshal(t *testing.T) {
	g, err := collect()
	require.NoError(t, err)
	for full, typ := range g.types {
		m := messageOf(g, full)
		if m.Special != "" {
			continue // hand-written Marshal methods; the codec tests check their bytes
		}
		var always, all []int
		for _, f := range m.Fields {
			all = append(all, f.Number)
			if !f.Nullable {
				always = append(always, f.Number)
			}
		}

		zero := reflect.New(typ)
		assert.Equal(t, always, topLevelFields(t, full, zero.Interface()), "%s: fields written for the zero value", full)

		set := reflect.New(typ)
		fillNullable(set.Elem())
		assert.Equal(t, all, topLevelFields(t, full, set.Interface()), "%s: fields written with every pointer, list and map set", full)
	}
}

func messageOf(g *generator, full string) *message {
	i := strings.LastIndexByte(full, '.')
	return g.packages[full[:i]][full[i+1:]]
}

// fillNullable sets every nil pointer, slice, map and []byte field of the struct v that
// the message holds to a non-nil value: a pointer to the zero value, an empty []byte, a
// list of one zero item, a map of one zero entry.
func fillNullable(v reflect.Value) {
	for i := range v.NumField() {
		sf := v.Type().Field(i)
		if _, ok := sf.Tag.Lookup("protobuf"); !ok {
			continue
		}
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Slice:
			n := 1
			if f.Type().Elem().Kind() == reflect.Uint8 {
				n = 0
			}
			f.Set(reflect.MakeSlice(f.Type(), n, n))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
			f.SetMapIndex(reflect.Zero(f.Type().Key()), reflect.Zero(f.Type().Elem()))
		}
	}
}

// topLevelFields marshals v with its generated code and returns the field numbers of
// its encoding, in order, each once.
func topLevelFields(t *testing.T, name string, v any) []int {
	t.Helper()
	mv, ok := v.(marshaler)
	require.True(t, ok, "%s has no generated Marshal", name)
	data, err := mv.Marshal()
	require.NoError(t, err, name)
	var nums []int
	for len(data) > 0 {
		key, n := binary.Uvarint(data)
		require.Positive(t, n, "%s: bad tag", name)
		data = data[n:]
		switch key & 7 {
		case 0:
			_, n = binary.Uvarint(data)
		case 1:
			n = 8
		case 2:
			l, m := binary.Uvarint(data)
			n = m + int(l)
		case 5:
			n = 4
		default:
			t.Fatalf("%s: wire type %d", name, key&7)
		}
		require.True(t, n > 0 && n <= len(data), "%s: truncated field %d", name, key>>3)
		data = data[n:]
		if num := int(key >> 3); len(nums) == 0 || nums[len(nums)-1] != num {
			nums = append(nums, num)
		}
	}
	return nums
}

// TestCh02_JSONKeysMatchEncodingJSON marshals the zero value of every reflected message
// with encoding/json and checks the keys against the descriptor: the json names, the
// inline structs whose fields sit in the parent object, and the rule the codec follows
// for a zero value: a field is left out when it is omitEmpty and not a non-nullable
// message (encoding/json never finds a struct empty), or when it is omitZero.
func TestCh02_JSONKeysMatchEncodingJSON(t *testing.T) {
	g, err := collect()
	require.NoError(t, err)
	var keysOf func(full string) []string
	keysOf = func(full string) []string {
		keys := []string{}
		for _, f := range messageOf(g, full).Fields {
			switch {
			case f.Inline:
				keys = append(keys, keysOf(f.Type)...)
			case f.OmitZero:
			case f.Kind == kindMessage && !f.Nullable && !f.Repeated:
				keys = append(keys, f.JSON)
			case !f.OmitEmpty:
				keys = append(keys, f.JSON)
			}
		}
		return keys
	}
	for full, typ := range g.types {
		if messageOf(g, full).Special != "" {
			continue // their JSON is their own: a string, a number or embedded JSON
		}
		data, err := json.Marshal(reflect.New(typ).Interface())
		require.NoError(t, err, full)
		var obj map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(data, &obj), "%s: %s", full, data)
		got := make([]string, 0, len(obj))
		for k := range obj {
			got = append(got, k)
		}
		want := keysOf(full)
		sort.Strings(got)
		sort.Strings(want)
		assert.Equal(t, want, got, "%s: keys of the zero value's JSON %s", full, data)
	}
}

func TestCh02_ProtoPackage(t *testing.T) {
	tests := []struct{ goPkg, want string }{
		{"k8s.io/api/core/v1", "k8s.io.api.core.v1"},
		{"k8s.io/apimachinery/pkg/apis/meta/v1", "k8s.io.apimachinery.pkg.apis.meta.v1"},
		{"k8s.io/apimachinery/pkg/util/intstr", "k8s.io.apimachinery.pkg.util.intstr"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, protoPackage(tt.goPkg))
	}
}

func TestCh02_ParseProtobufTag(t *testing.T) {
	tests := []struct {
		tag    string
		number int
		name   string
		err    bool
	}{
		{"bytes,1,opt,name=metadata", 1, "metadata", false},
		{"varint,3,opt,name=replicas,casttype=int32", 3, "replicas", false},
		{"bytes,2,rep,name=items", 2, "items", false},
		{"bytes,2,name=spec", 2, "spec", false},
		{"bytes,1,req", 1, "", false},
		{"bytes,x,opt,name=a", 0, "", true},
		{"bytes,0,opt,name=a", 0, "", true},
		{"bytes", 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.tag, func(t *testing.T) {
			number, name, err := parseProtobufTag(tt.tag)
			if tt.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.number, number)
			assert.Equal(t, tt.name, name)
		})
	}
}

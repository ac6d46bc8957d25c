package protobuf

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// A small hand-written package in the descriptor format, with one of each feature: always
// written scalars, pointers, lists, maps, an inline message and the special types.
const testDescriptor = `{"package":"k8s.io.api.test.v1","messages":{
"Widget":{"fields":[
 {"json":"metadata","number":1,"kind":"message","type":"k8s.io.api.test.v1.Meta","omitEmpty":true},
 {"json":"name","number":2,"kind":"string"},
 {"json":"note","number":3,"kind":"string","omitEmpty":true},
 {"json":"replicas","number":4,"kind":"int32","omitEmpty":true,"nullable":true},
 {"json":"count","number":5,"kind":"int64"},
 {"json":"ready","number":6,"kind":"bool","omitEmpty":true},
 {"json":"tags","number":7,"kind":"string","repeated":true,"omitEmpty":true,"nullable":true},
 {"json":"labels","number":8,"kind":"map","key":"string","value":"string","omitEmpty":true,"nullable":true},
 {"json":"data","number":9,"kind":"map","key":"string","value":"bytes","omitEmpty":true,"nullable":true},
 {"json":"limits","number":10,"kind":"map","key":"string","value":"message","valueType":"k8s.io.apimachinery.pkg.api.resource.Quantity","omitEmpty":true,"nullable":true},
 {"json":"","name":"source","number":11,"kind":"message","type":"k8s.io.api.test.v1.Source","inline":true},
 {"json":"port","number":12,"kind":"message","type":"k8s.io.apimachinery.pkg.util.intstr.IntOrString","omitEmpty":true},
 {"json":"since","number":13,"kind":"message","type":"k8s.io.apimachinery.pkg.apis.meta.v1.Time","omitEmpty":true,"nullable":true},
 {"json":"at","number":14,"kind":"message","type":"k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime","omitEmpty":true},
 {"json":"blob","number":15,"kind":"bytes","omitEmpty":true,"nullable":true},
 {"json":"ports","number":16,"kind":"int32","repeated":true,"omitEmpty":true,"nullable":true},
 {"json":"timeout","number":17,"kind":"message","type":"k8s.io.apimachinery.pkg.apis.meta.v1.Duration","omitEmpty":true,"nullable":true},
 {"json":"ratio","number":18,"kind":"double","omitEmpty":true}]},
"Meta":{"fields":[
 {"json":"name","number":1,"kind":"string","omitEmpty":true},
 {"json":"created","number":2,"kind":"message","type":"k8s.io.apimachinery.pkg.apis.meta.v1.Time","omitEmpty":true,"omitZero":true}]},
"Source":{"fields":[
 {"json":"path","number":1,"kind":"string","omitEmpty":true,"nullable":true},
 {"json":"mode","number":2,"kind":"string"}]}}}`

const testMeta = `{"package":"k8s.io.apimachinery.pkg.apis.meta.v1","messages":{
"Time":{"special":"Time","fields":[{"json":"seconds","number":1,"kind":"int64"},{"json":"nanos","number":2,"kind":"int32"}]},
"MicroTime":{"special":"MicroTime","fields":[{"json":"seconds","number":1,"kind":"int64"},{"json":"nanos","number":2,"kind":"int32"}]},
"Duration":{"special":"Duration","fields":[{"json":"duration","number":1,"kind":"int64"}]},
"Status":{"fields":[{"json":"status","number":2,"kind":"string","omitEmpty":true},{"json":"code","number":6,"kind":"int32","omitEmpty":true}]},
"WatchEvent":{"fields":[{"json":"type","number":1,"kind":"string"},{"json":"object","number":2,"kind":"message","type":"k8s.io.apimachinery.pkg.runtime.RawExtension"}]}}}`

const testOthers = `{"package":"k8s.io.apimachinery.pkg.api.resource","messages":{"Quantity":{"special":"Quantity","fields":[{"json":"string","number":1,"kind":"string"}]}}}`
const testIntstr = `{"package":"k8s.io.apimachinery.pkg.util.intstr","messages":{"IntOrString":{"special":"IntOrString","fields":[{"json":"type","number":1,"kind":"int64"},{"json":"intVal","number":2,"kind":"int32"},{"json":"strVal","number":3,"kind":"string"}]}}}`
const testRuntime = `{"package":"k8s.io.apimachinery.pkg.runtime","messages":{"RawExtension":{"special":"RawExtension","fields":[{"json":"raw","number":1,"kind":"bytes","nullable":true}]}}}`

var widgetGVK = api.GroupVersionKind{Group: "test", Version: "v1", Kind: "Widget"}

func testCodec(t testing.TB) *Codec {
	t.Helper()
	c, err := NewCodec(map[string][]byte{
		"test": []byte(testDescriptor), "meta": []byte(testMeta), "resource": []byte(testOthers),
		"intstr": []byte(testIntstr), "runtime": []byte(testRuntime),
	})
	require.NoError(t, err)
	return c
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "\n", "").Replace(s))
	require.NoError(t, err)
	return b
}

// TestCh02_ProtobufEncodeRules pins, field kind by field kind, what is written and how.
func TestCh02_ProtobufEncodeRules(t *testing.T) {
	c := testCodec(t)
	// every non-pointer field written even when zero: metadata (its name and zero Time),
	// name, note, count, ready, the inline source's mode, port (int 0), at (zero MicroTime)
	// and ratio
	const tail = "5a02 1200 6206 0800 1000 1a00 7200 9101 0000000000000000"
	tests := []struct {
		name string
		obj  map[string]any
		want string
	}{
		{"empty object", map[string]any{}, "0a04 0a00 1200 | 1200 1a00 2800 3000 |" + tail},
		{"scalars", map[string]any{"name": "a", "replicas": int64(-1), "count": int64(300), "ready": true},
			"0a04 0a00 1200 | 12 01 61 | 1a00 | 20 ffffffffffffffffff01 | 28 ac02 | 30 01 |" + tail},
		{"lists and sorted maps", map[string]any{"tags": []any{"x", "y"}, "labels": map[string]any{"b": "2", "a": "1"},
			"data": map[string]any{"k": "AQI=", "nil": nil}, "limits": map[string]any{"cpu": "250m"}},
			"0a04 0a00 1200 | 1200 1a00 2800 3000 | 3a01 78 3a01 79 | 4206 0a0161 120131 4206 0a0162 120132 |" +
				" 4a07 0a016b 12020102 4a05 0a036e696c | 520d 0a03637075 1206 0a04 3235306d |" + tail},
		{"inline, specials", map[string]any{"path": "/p", "mode": "K", "port": "http", "since": "1970-01-01T00:01:00Z",
			"at": "1970-01-01T00:00:01.000002Z", "timeout": "1m30s", "metadata": map[string]any{"created": "1970-01-01T00:00:02Z"}},
			"0a08 0a00 1204 0802 1000 | 1200 1a00 2800 3000 | 5a07 0a022f70 12014b | 620a 0801 1000 1a0468747470 |" +
				" 6a04 083c 1000 | 7205 0801 10d00f | 8a01 07 08 8088aca3cf02 | 9101 0000000000000000"},
		{"bytes, unpacked ints, double", map[string]any{"blob": "", "ports": []any{int64(80), int64(443)}, "ratio": 0.5},
			"0a04 0a00 1200 | 1200 1a00 2800 3000 5a02 1200 6206 0800 1000 1a00 7200 | 7a00 | 8001 50 8001 bb03 | 9101 000000000000e03f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Marshal(widgetGVK, tt.obj)
			require.NoError(t, err)
			assert.Equal(t, hex.EncodeToString(unhex(t, strings.ReplaceAll(tt.want, "|", ""))), hex.EncodeToString(got))
		})
	}
}

// TestCh02_ProtobufDecodeIsJSONOfGoObject pins the JSON rules of Decode: omitempty, null,
// structs always present, inline fields flattened, specials.
func TestCh02_ProtobufDecodeIsJSONOfGoObject(t *testing.T) {
	c := testCodec(t)
	got, err := c.Unmarshal(widgetGVK, nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"metadata": map[string]any{}, "name": "", "count": int64(0),
		"mode": "", "port": int64(0), "at": nil}, got, "the JSON of the zero Go object")

	full := map[string]any{"metadata": map[string]any{"name": "m", "created": "2026-03-14T15:09:26Z"},
		"name": "w", "note": "n", "replicas": int64(0), "count": int64(-5), "ready": true,
		"tags": []any{"a"}, "labels": map[string]any{"k": "v"}, "data": map[string]any{"b": "AAE=", "e": ""},
		"limits": map[string]any{"memory": "1Gi"}, "path": "", "mode": "x", "port": int64(8080),
		"since": "2026-03-14T15:09:26Z", "at": "2026-03-14T15:09:26.535897Z", "blob": "AQ==",
		"ports": []any{int64(1), int64(-2)}, "timeout": "1h0m0s", "ratio": 2.5}
	data, err := c.Marshal(widgetGVK, full)
	require.NoError(t, err)
	back, err := c.Unmarshal(widgetGVK, data)
	require.NoError(t, err)
	if diff := cmp.Diff(full, back); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
}

func TestCh02_ProtobufEnvelope(t *testing.T) {
	c := testCodec(t)
	got, err := c.Encode(widgetGVK, map[string]any{"name": "a"})
	require.NoError(t, err)
	raw, err := c.Marshal(widgetGVK, map[string]any{"name": "a"})
	require.NoError(t, err)
	want := append(unhex(t, "6b387300 0a11 0a07746573742f7631 1206576964676574 12"), byte(len(raw)))
	want = append(append(want, raw...), unhex(t, "1a00 2200")...)
	assert.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
	gvk, obj, err := c.Decode(got)
	require.NoError(t, err)
	assert.Equal(t, widgetGVK, gvk)
	assert.Equal(t, "test/v1", obj["apiVersion"])
	assert.Equal(t, "Widget", obj["kind"])
	assert.Equal(t, "a", obj["name"])

	status, err := c.Encode(api.GroupVersionKind{Version: "v1", Kind: "Status"}, map[string]any{"code": int64(404)})
	require.NoError(t, err, "Status is found among the meta kinds")
	_, obj, err = c.Decode(status)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"apiVersion": "v1", "kind": "Status", "code": int64(404)}, obj)

	_, err = c.Encode(api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Foo"}, map[string]any{})
	assert.ErrorIs(t, err, ErrUnknownKind)
	assert.False(t, c.Recognizes(api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Foo"}))
	assert.True(t, c.Recognizes(widgetGVK))
}

func TestCh02_ProtobufWatchEventRoundTrip(t *testing.T) {
	c := testCodec(t)
	frame, err := c.EncodeWatchEvent("ADDED", widgetGVK, map[string]any{"name": "w"})
	require.NoError(t, err)
	typ, gvk, obj, err := c.DecodeWatchEvent(frame)
	require.NoError(t, err)
	assert.Equal(t, "ADDED", typ)
	assert.Equal(t, widgetGVK, gvk)
	assert.Equal(t, "w", obj["name"])

	// the same event met as a message: its object decodes to the embedded tree
	ev, err := c.Unmarshal(api.GroupVersionKind{Version: "v1", Kind: "WatchEvent"}, frame)
	require.NoError(t, err)
	assert.Equal(t, "ADDED", ev["type"])
	assert.Equal(t, obj, ev["object"])
	again, err := c.Marshal(api.GroupVersionKind{Version: "v1", Kind: "WatchEvent"}, ev)
	require.NoError(t, err)
	assert.Equal(t, frame, again)
}

func TestCh02_ProtobufTreeTypeErrors(t *testing.T) {
	c := testCodec(t)
	for name, obj := range map[string]map[string]any{
		"string as int":   {"count": "3"},
		"int32 overflow":  {"replicas": int64(1) << 40},
		"list not array":  {"tags": "x"},
		"map not object":  {"labels": []any{}},
		"bad base64":      {"blob": "!!"},
		"bad time":        {"since": "yesterday"},
		"bad duration":    {"timeout": "soon"},
		"bool as string":  {"ready": "true"},
		"message as list": {"metadata": []any{}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := c.Encode(widgetGVK, obj)
			assert.Error(t, err)
		})
	}
}

func TestCh02_ProtobufBadDescriptors(t *testing.T) {
	for name, d := range map[string]string{
		"not JSON":        `{`,
		"no package":      `{"messages":{}}`,
		"unknown kind":    `{"package":"p","messages":{"M":{"fields":[{"json":"a","number":1,"kind":"sint32"}]}}}`,
		"unknown message": `{"package":"p","messages":{"M":{"fields":[{"json":"a","number":1,"kind":"message","type":"p.N"}]}}}`,
		"number twice":    `{"package":"p","messages":{"M":{"fields":[{"json":"a","number":1,"kind":"bool"},{"json":"b","number":1,"kind":"bool"}]}}}`,
		"number zero":     `{"package":"p","messages":{"M":{"fields":[{"json":"a","number":0,"kind":"bool"}]}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewCodec(map[string][]byte{"p": []byte(d)})
			assert.Error(t, err)
		})
	}
}

func ExampleCodec_Encode() {
	c, err := NewCodec(map[string][]byte{"p": []byte(`{"package":"k8s.io.api.core.v1","messages":{
		"Namespace":{"fields":[{"json":"metadata","number":1,"kind":"message","type":"k8s.io.api.core.v1.Meta","omitEmpty":true}]},
		"Meta":{"fields":[{"json":"name","number":1,"kind":"string","omitEmpty":true}]}}}`)})
	if err != nil {
		panic(err)
	}
	data, err := c.Encode(api.GroupVersionKind{Version: "v1", Kind: "Namespace"},
		map[string]any{"metadata": map[string]any{"name": "team-a"}})
	if err != nil {
		panic(err)
	}
	fmt.Print(hex.Dump(data))
	// Output:
	// 00000000  6b 38 73 00 0a 0f 0a 02  76 31 12 09 4e 61 6d 65  |k8s.....v1..Name|
	// 00000010  73 70 61 63 65 12 0a 0a  08 0a 06 74 65 61 6d 2d  |space......team-|
	// 00000020  61 1a 00 22 00                                    |a..".|
}

// TestCh02_ProtobufPackages checks protoPackage on the groups whose package is not their
// name without .k8s.io.
func TestCh02_ProtobufPackages(t *testing.T) {
	for group, want := range map[string]string{
		"":                             "k8s.io.api.core.v1",
		"apps":                         "k8s.io.api.apps.v1",
		"coordination.k8s.io":          "k8s.io.api.coordination.v1",
		"rbac.authorization.k8s.io":    "k8s.io.api.rbac.v1",
		"flowcontrol.apiserver.k8s.io": "k8s.io.api.flowcontrol.v1",
		"apiregistration.k8s.io":       "k8s.io.kube-aggregator.pkg.apis.apiregistration.v1",
		"meta.k8s.io":                  "k8s.io.apimachinery.pkg.apis.meta.v1",
		"apps.example.com":             "k8s.io.api.apps.example.com.v1",
	} {
		assert.Equal(t, want, protoPackage(group, "v1"), group)
	}
}

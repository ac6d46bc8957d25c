package main

import (
	"reflect"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	certificatesv1 "k8s.io/api/certificates/v1"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// special describes a type whose Go struct does not say how it is encoded: its protobuf
// comes from hand-written Marshal methods (Time, MicroTime, Quantity), or its JSON form is
// not the JSON of its fields (IntOrString is a number or a string, RawExtension and
// FieldsV1 are the embedded JSON, Duration is a string like "1m30s", Unknown is the
// envelope). The fields are those of the message in the package's generated.proto; json
// repeats the proto name, as there is no JSON object to name them after.
type special struct {
	name   string
	fields []field
}

// specials is keyed by Go type. TestCh02_DescriptorsMatchGeneratedProto checks every one
// of these against generated.proto like any reflected message.
var specials = map[reflect.Type]special{
	reflect.TypeFor[metav1.Time]():          {"Time", timestampFields},
	reflect.TypeFor[metav1.MicroTime]():     {"MicroTime", timestampFields},
	reflect.TypeFor[metav1.Duration]():      {"Duration", []field{scalar("duration", 1, "int64")}},
	reflect.TypeFor[metav1.FieldsV1]():      {"FieldsV1", []field{nullableBytes("Raw", 1)}},
	reflect.TypeFor[resource.Quantity]():    {"Quantity", []field{scalar("string", 1, "string")}},
	reflect.TypeFor[runtime.RawExtension](): {"RawExtension", []field{nullableBytes("raw", 1)}},
	reflect.TypeFor[intstr.IntOrString](): {"IntOrString", []field{
		scalar("type", 1, "int64"), scalar("intVal", 2, "int32"), scalar("strVal", 3, "string"),
	}},
	// ExtraValue is a named []string: generated.proto wraps it in a message of one repeated
	// string (its Marshal writes the items), and its JSON is the list.
	reflect.TypeFor[authenticationv1.ExtraValue](): {"StringList", stringList},
	reflect.TypeFor[authorizationv1.ExtraValue]():  {"StringList", stringList},
	reflect.TypeFor[certificatesv1.ExtraValue]():   {"StringList", stringList},
	// apiextensions' JSON is the embedded JSON (raw 1, hidden from encoding/json), and its
	// JSONSchemaPropsOr* are a schema or another JSON shape (MarshalJSON in marshal.go).
	reflect.TypeFor[apiextensionsv1.JSON](): {"JSON", []field{nullableBytes("raw", 1)}},
	reflect.TypeFor[apiextensionsv1.JSONSchemaPropsOrArray](): {"SchemaOrArray", []field{
		schemaField("schema", 1, false), schemaField("jSONSchemas", 2, true),
	}},
	reflect.TypeFor[apiextensionsv1.JSONSchemaPropsOrBool](): {"SchemaOrBool", []field{
		scalar("allows", 1, "bool"), schemaField("schema", 2, false),
	}},
	reflect.TypeFor[apiextensionsv1.JSONSchemaPropsOrStringArray](): {"SchemaOrStringArray", []field{
		schemaField("schema", 1, false),
		{JSON: "property", Name: "property", Number: 2, Kind: "string", Repeated: true, Nullable: true},
	}},
	reflect.TypeFor[runtime.Unknown](): {"Unknown", []field{
		{JSON: "typeMeta", Name: "typeMeta", Number: 1, Kind: kindMessage,
			Type: "k8s.io.apimachinery.pkg.runtime.TypeMeta"},
		nullableBytes("raw", 2),
		scalar("contentEncoding", 3, "string"),
		scalar("contentType", 4, "string"),
	}},
}

// timestampFields are the fields of Time and MicroTime: both marshal as a Timestamp.
// Their Marshal writes nothing at all for the zero time, and (as of v1.36) always 0 nanos.
var timestampFields = []field{scalar("seconds", 1, "int64"), scalar("nanos", 2, "int32")}

// scalar is a non-nullable scalar field of a special message.
func scalar(name string, number int, kind string) field {
	return field{JSON: name, Name: name, Number: number, Kind: kind}
}

// nullableBytes is a []byte field, written by the generated code only when non-nil.
func nullableBytes(name string, number int) field {
	return field{JSON: name, Name: name, Number: number, Kind: "bytes", Nullable: true}
}

// jsonSchemaProps is apiextensions' schema message, which the JSONSchemaPropsOr* hold.
const jsonSchemaProps = "k8s.io.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"

// schemaField is a JSONSchemaProps field of a JSONSchemaPropsOr* message: a pointer, or a
// list when repeated.
func schemaField(name string, number int, repeated bool) field {
	return field{JSON: name, Name: name, Number: number, Kind: kindMessage, Type: jsonSchemaProps,
		Repeated: repeated, Nullable: true}
}

// stringList is the one field of a named []string's wrapper message.
var stringList = []field{{JSON: "items", Name: "items", Number: 1, Kind: "string", Repeated: true, Nullable: true}}

package openapi

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The messages of gnostic's openapiv2/OpenAPIv2.proto that a Swagger 2.0 document reaches,
// with the keywords, required keywords and enums its compiler checks.

var (
	documentSpec, infoSpec, contactSpec, licenseSpec, externalDocsSpec, tagSpec *msgSpec
	pathsSpec, pathItemSpec, operationSpec, responsesSpec, responseSpec         *msgSpec
	responseValueSpec, jsonReferenceSpec, parametersItemSpec, parameterSpec     *msgSpec
	bodyParameterSpec, nonBodyParameterSpec, primitivesItemsSpec, headerSpec    *msgSpec
	headersSpec, examplesSpec, schemaSpec, schemaItemSpec, fileSchemaSpec       *msgSpec
	propertiesSpec, definitionsSpec, additionalPropertiesSpec, itemsItemSpec    *msgSpec
	typeItemSpec, xmlSpec, parameterDefinitionsSpec, responseDefinitionsSpec    *msgSpec
	securityRequirementSpec, securityDefinitionsSpec, securityItemSpec          *msgSpec
	apiKeySpec, basicAuthSpec                                                   *msgSpec
	headerParamSpec, formDataParamSpec, queryParamSpec, pathParamSpec           *msgSpec
)

var (
	responseCode *regexp.Regexp
	pathKey      *regexp.Regexp
	// specsOnce builds the specs on the first encoding: nothing of this runs at start-up.
	specsOnce sync.Once
)

var parameterTypes = []string{"string", "number", "boolean", "integer", "array"}

// primitiveFields are the validation keywords of PrimitivesItems, Header and the
// non-body parameters, numbered from first on in this order.
func primitiveFields(first int) []fieldSpec {
	return []fieldSpec{
		{"default", first, kAny, nil},
		{"maximum", first + 1, kDouble, nil},
		{"exclusiveMaximum", first + 2, kBool, nil},
		{"minimum", first + 3, kDouble, nil},
		{"exclusiveMinimum", first + 4, kBool, nil},
		{"maxLength", first + 5, kInt64, nil},
		{"minLength", first + 6, kInt64, nil},
		{"pattern", first + 7, kString, nil},
		{"maxItems", first + 8, kInt64, nil},
		{"minItems", first + 9, kInt64, nil},
		{"uniqueItems", first + 10, kBool, nil},
		{"enum", first + 11, kAnys, nil},
		{"multipleOf", first + 12, kDouble, nil},
	}
}

var primitiveKeys = []string{"collectionFormat", "default", "enum", "exclusiveMaximum", "exclusiveMinimum",
	"format", "items", "maxItems", "maxLength", "maximum", "minItems", "minLength", "minimum",
	"multipleOf", "pattern", "type", "uniqueItems"}

// subSchema is a non-body parameter: Header and Path have no allowEmptyValue (their fields
// from 5 on are one lower than Query's and FormData's).
func subSchema(in string, allowEmpty bool, types, formats []string, required []string) *msgSpec {
	s := &msgSpec{name: in + "ParameterSubSchema", required: required,
		allowed: append([]string{"description", "in", "name", "required"}, primitiveKeys...),
		enums:   map[string][]string{"in": {in}, "type": types, "collectionFormat": formats}}
	s.fields = []fieldSpec{{"required", 1, kBool, nil}, {"in", 2, kString, nil}, {"description", 3, kString, nil}, {"name", 4, kString, nil}}
	n := 5
	if allowEmpty {
		s.allowed = append(s.allowed, "allowEmptyValue")
		s.fields = append(s.fields, fieldSpec{"allowEmptyValue", 5, kBool, nil})
		n = 6
	}
	s.fields = append(s.fields,
		fieldSpec{"type", n, kString, nil}, fieldSpec{"format", n + 1, kString, nil},
		fieldSpec{"items", n + 2, kMessage, primitivesItemsSpec}, fieldSpec{"collectionFormat", n + 3, kString, nil})
	s.fields = append(s.fields, primitiveFields(n+4)...)
	s.vendor = n + 17
	return s
}

// named is a message of one repeated field (number 1) of name/value pairs: every member,
// or only those matching keys.
func named(name string, value *msgSpec) *msgSpec {
	return &msgSpec{name: name, encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		b := []byte{}
		if n.Kind != Object {
			return b, nil
		}
		for i, k := range n.Keys {
			pair, err := e.pair(k, value, n.Values[i], path+"."+k)
			if err != nil {
				return nil, err
			}
			b = appendLen(b, 1, pair)
		}
		return b, nil
	}}
}

// pair is a NamedX message: name (1) and value (2).
func (e *encoder) pair(name string, value *msgSpec, v *Node, path string) ([]byte, error) {
	var b []byte
	if name != "" {
		b = appendString(b, 1, name)
	}
	m, err := e.message(value, v, path)
	if err != nil {
		return nil, err
	}
	return appendLen(b, 2, m), nil
}

// oneOf is a message whose single field is chosen by choose: the field number and the spec
// of the value written there.
func oneOf(name string, choose func(n *Node) (int, *msgSpec, error)) *msgSpec {
	return &msgSpec{name: name, encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		num, spec, err := choose(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		m, err := e.message(spec, n, path)
		if err != nil {
			return nil, err
		}
		return appendLen(nil, num, m), nil
	}}
}

func textOf(n *Node, key string) string {
	if v := n.Get(key); v != nil {
		return v.Text
	}
	return ""
}

// buildSpecs links the message specs once.
func buildSpecs() {
	responseCode = regexp.MustCompile(`^([0-9]{3})$|^(default)$`)
	pathKey = regexp.MustCompile(`^/`)
	xmlSpec = &msgSpec{name: "Xml", allowed: []string{"attribute", "name", "namespace", "prefix", "wrapped"}, vendor: 6,
		fields: []fieldSpec{{"name", 1, kString, nil}, {"namespace", 2, kString, nil}, {"prefix", 3, kString, nil}, {"attribute", 4, kBool, nil}, {"wrapped", 5, kBool, nil}}}
	externalDocsSpec = &msgSpec{name: "ExternalDocs", required: []string{"url"}, allowed: []string{"description", "url"}, vendor: 3,
		fields: []fieldSpec{{"description", 1, kString, nil}, {"url", 2, kString, nil}}}
	contactSpec = &msgSpec{name: "Contact", allowed: []string{"email", "name", "url"}, vendor: 4,
		fields: []fieldSpec{{"name", 1, kString, nil}, {"url", 2, kString, nil}, {"email", 3, kString, nil}}}
	licenseSpec = &msgSpec{name: "License", required: []string{"name"}, allowed: []string{"name", "url"}, vendor: 3,
		fields: []fieldSpec{{"name", 1, kString, nil}, {"url", 2, kString, nil}}}
	infoSpec = &msgSpec{name: "Info", required: []string{"title", "version"},
		allowed: []string{"contact", "description", "license", "termsOfService", "title", "version"}, vendor: 7,
		fields: []fieldSpec{{"title", 1, kString, nil}, {"version", 2, kString, nil}, {"description", 3, kString, nil},
			{"termsOfService", 4, kString, nil}, {"contact", 5, kMessage, contactSpec}, {"license", 6, kMessage, licenseSpec}}}
	tagSpec = &msgSpec{name: "Tag", required: []string{"name"}, allowed: []string{"description", "externalDocs", "name"}, vendor: 4,
		fields: []fieldSpec{{"name", 1, kString, nil}, {"description", 2, kString, nil}, {"externalDocs", 3, kMessage, externalDocsSpec}}}
	jsonReferenceSpec = &msgSpec{name: "JsonReference", required: []string{"$ref"}, allowed: []string{"$ref", "description"},
		fields: []fieldSpec{{"$ref", 1, kString, nil}, {"description", 2, kString, nil}}}

	primitivesItemsSpec = &msgSpec{name: "PrimitivesItems", allowed: primitiveKeys,
		enums: map[string][]string{"type": parameterTypes, "collectionFormat": {"csv", "ssv", "tsv", "pipes"}}}
	primitivesItemsSpec.fields = append([]fieldSpec{{"type", 1, kString, nil}, {"format", 2, kString, nil},
		{"items", 3, kMessage, primitivesItemsSpec}, {"collectionFormat", 4, kString, nil}}, primitiveFields(5)...)
	primitivesItemsSpec.vendor = 18
	headerSpec = &msgSpec{name: "Header", required: []string{"type"}, allowed: append([]string{"description"}, primitiveKeys...),
		enums: map[string][]string{"type": {"string", "number", "integer", "boolean", "array"}, "collectionFormat": {"csv", "ssv", "tsv", "pipes"}}}
	headerSpec.fields = append(append([]fieldSpec{{"type", 1, kString, nil}, {"format", 2, kString, nil},
		{"items", 3, kMessage, primitivesItemsSpec}, {"collectionFormat", 4, kString, nil}}, primitiveFields(5)...),
		fieldSpec{"description", 18, kString, nil})
	headerSpec.vendor = 19
	headersSpec = named("Headers", headerSpec)
	examplesSpec = &msgSpec{name: "Examples", encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		b := []byte{}
		for i, k := range n.Keys {
			a, err := e.namedAny(k, n.Values[i])
			if err != nil {
				return nil, err
			}
			b = appendLen(b, 1, a)
		}
		return b, nil
	}}

	schemaSpec = &msgSpec{name: "Schema", allowed: []string{"$ref", "additionalProperties", "allOf", "default", "description",
		"discriminator", "enum", "example", "exclusiveMaximum", "exclusiveMinimum", "externalDocs", "format", "items",
		"maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum",
		"multipleOf", "pattern", "properties", "readOnly", "required", "title", "type", "uniqueItems", "xml"}, vendor: 31}
	propertiesSpec = named("Properties", schemaSpec)
	definitionsSpec = named("Definitions", schemaSpec)
	additionalPropertiesSpec = &msgSpec{name: "AdditionalPropertiesItem", encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		if n.Kind == Bool {
			b := appendTag(nil, 2, 0)
			if n.Text == "true" {
				return append(b, 1), nil
			}
			return append(b, 0), nil
		}
		m, err := e.message(schemaSpec, n, path)
		if err != nil {
			return nil, err
		}
		return appendLen(nil, 1, m), nil
	}}
	itemsItemSpec = &msgSpec{name: "ItemsItem", encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		if n.Kind != Object {
			return nil, fmt.Errorf("%s: has unexpected value for item array", path)
		}
		m, err := e.message(schemaSpec, n, path)
		if err != nil {
			return nil, err
		}
		return appendLen(nil, 1, m), nil
	}}
	typeItemSpec = &msgSpec{name: "TypeItem", encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		switch n.Kind {
		case Array:
			b := []byte{}
			for _, item := range n.Values {
				if item.Kind == Object || item.Kind == Array {
					return nil, fmt.Errorf("%s: has unexpected value for string array element", path)
				}
				b = appendString(b, 1, item.Text)
			}
			return b, nil
		case Object:
			return nil, fmt.Errorf("%s: has unexpected value for string array", path)
		}
		return appendString(nil, 1, n.Text), nil
	}}
	schemaSpec.fields = []fieldSpec{
		{"$ref", 1, kString, nil}, {"format", 2, kString, nil}, {"title", 3, kString, nil}, {"description", 4, kString, nil},
		{"default", 5, kAny, nil}, {"multipleOf", 6, kDouble, nil}, {"maximum", 7, kDouble, nil},
		{"exclusiveMaximum", 8, kBool, nil}, {"minimum", 9, kDouble, nil}, {"exclusiveMinimum", 10, kBool, nil},
		{"maxLength", 11, kInt64, nil}, {"minLength", 12, kInt64, nil}, {"pattern", 13, kString, nil},
		{"maxItems", 14, kInt64, nil}, {"minItems", 15, kInt64, nil}, {"uniqueItems", 16, kBool, nil},
		{"maxProperties", 17, kInt64, nil}, {"minProperties", 18, kInt64, nil}, {"required", 19, kStrings, nil},
		{"enum", 20, kAnys, nil}, {"additionalProperties", 21, kMessage, additionalPropertiesSpec},
		{"type", 22, kMessage, typeItemSpec}, {"items", 23, kMessage, itemsItemSpec}, {"allOf", 24, kList, schemaSpec},
		{"properties", 25, kMessage, propertiesSpec}, {"discriminator", 26, kString, nil}, {"readOnly", 27, kBool, nil},
		{"xml", 28, kMessage, xmlSpec}, {"externalDocs", 29, kMessage, externalDocsSpec}, {"example", 30, kAny, nil},
	}
	fileSchemaSpec = &msgSpec{name: "FileSchema", required: []string{"type"},
		allowed: []string{"default", "description", "example", "externalDocs", "format", "readOnly", "required", "title", "type"},
		enums:   map[string][]string{"type": {"file"}}, vendor: 10,
		fields: []fieldSpec{{"format", 1, kString, nil}, {"title", 2, kString, nil}, {"description", 3, kString, nil},
			{"default", 4, kAny, nil}, {"required", 5, kStrings, nil}, {"type", 6, kString, nil}, {"readOnly", 7, kBool, nil},
			{"externalDocs", 8, kMessage, externalDocsSpec}, {"example", 9, kAny, nil}}}
	schemaItemSpec = oneOf("SchemaItem", func(n *Node) (int, *msgSpec, error) {
		if textOf(n, "type") == "file" {
			return 2, fileSchemaSpec, nil
		}
		return 1, schemaSpec, nil
	})

	headerParamSpec = subSchema("header", false, parameterTypes, []string{"csv", "ssv", "tsv", "pipes"}, nil)
	formDataParamSpec = subSchema("formData", true, append(parameterTypes[:len(parameterTypes):len(parameterTypes)], "file"),
		[]string{"csv", "ssv", "tsv", "pipes", "multi"}, nil)
	queryParamSpec = subSchema("query", true, parameterTypes, []string{"csv", "ssv", "tsv", "pipes", "multi"}, nil)
	pathParamSpec = subSchema("path", false, parameterTypes, []string{"csv", "ssv", "tsv", "pipes"}, []string{"required"})
	nonBodyParameterSpec = oneOf("NonBodyParameter", func(n *Node) (int, *msgSpec, error) {
		switch textOf(n, "in") {
		case "header":
			return 1, headerParamSpec, nil
		case "formData":
			return 2, formDataParamSpec, nil
		case "query":
			return 3, queryParamSpec, nil
		case "path":
			return 4, pathParamSpec, nil
		}
		return 0, nil, fmt.Errorf("contains an invalid NonBodyParameter")
	})
	bodyParameterSpec = &msgSpec{name: "BodyParameter", required: []string{"in", "name", "schema"},
		allowed: []string{"description", "in", "name", "required", "schema"}, enums: map[string][]string{"in": {"body"}}, vendor: 6,
		fields: []fieldSpec{{"description", 1, kString, nil}, {"name", 2, kString, nil}, {"in", 3, kString, nil},
			{"required", 4, kBool, nil}, {"schema", 5, kMessage, schemaSpec}}}
	parameterSpec = oneOf("Parameter", func(n *Node) (int, *msgSpec, error) {
		if textOf(n, "in") == "body" {
			return 1, bodyParameterSpec, nil
		}
		return 2, nonBodyParameterSpec, nil
	})
	parametersItemSpec = oneOf("ParametersItem", func(n *Node) (int, *msgSpec, error) {
		if n.Get("$ref") != nil && n.Get("in") == nil {
			return 2, jsonReferenceSpec, nil
		}
		return 1, parameterSpec, nil
	})

	responseSpec = &msgSpec{name: "Response", required: []string{"description"}, allowed: []string{"description", "examples", "headers", "schema"}, vendor: 5,
		fields: []fieldSpec{{"description", 1, kString, nil}, {"schema", 2, kMessage, schemaItemSpec},
			{"headers", 3, kMessage, headersSpec}, {"examples", 4, kMessage, examplesSpec}}}
	responseValueSpec = oneOf("ResponseValue", func(n *Node) (int, *msgSpec, error) {
		if n.Get("$ref") != nil {
			return 2, jsonReferenceSpec, nil
		}
		return 1, responseSpec, nil
	})
	responsesSpec = &msgSpec{name: "Responses", encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		return e.keyedPairs(n, path, responseCode, 1, responseValueSpec, 2)
	}}
	operationSpec = &msgSpec{name: "Operation", required: []string{"responses"}, allowed: []string{"consumes", "deprecated",
		"description", "externalDocs", "operationId", "parameters", "produces", "responses", "schemes", "security", "summary", "tags"},
		vendor: 13}
	securityRequirementSpec = &msgSpec{name: "SecurityRequirement", encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		b := []byte{}
		for i, k := range n.Keys {
			v := n.Values[i]
			if v.Kind != Array {
				return nil, fmt.Errorf("%s.%s: has unexpected value for StringArray", path, k)
			}
			var arr []byte
			for _, item := range v.Values {
				arr = appendString(arr, 1, item.Text)
			}
			var pair []byte
			if k != "" {
				pair = appendString(pair, 1, k)
			}
			b = appendLen(b, 1, appendLen(pair, 2, arr))
		}
		return b, nil
	}}
	operationSpec.fields = []fieldSpec{{"tags", 1, kStrings, nil}, {"summary", 2, kString, nil}, {"description", 3, kString, nil},
		{"externalDocs", 4, kMessage, externalDocsSpec}, {"operationId", 5, kString, nil}, {"produces", 6, kStrings, nil},
		{"consumes", 7, kStrings, nil}, {"parameters", 8, kList, parametersItemSpec}, {"responses", 9, kMessage, responsesSpec},
		{"schemes", 10, kStrings, nil}, {"deprecated", 11, kBool, nil}, {"security", 12, kList, securityRequirementSpec}}
	pathItemSpec = &msgSpec{name: "PathItem", allowed: []string{"$ref", "delete", "get", "head", "options", "parameters", "patch", "post", "put"}, vendor: 10,
		fields: []fieldSpec{{"$ref", 1, kString, nil}, {"get", 2, kMessage, operationSpec}, {"put", 3, kMessage, operationSpec},
			{"post", 4, kMessage, operationSpec}, {"delete", 5, kMessage, operationSpec}, {"options", 6, kMessage, operationSpec},
			{"head", 7, kMessage, operationSpec}, {"patch", 8, kMessage, operationSpec}, {"parameters", 9, kList, parametersItemSpec}}}
	pathsSpec = &msgSpec{name: "Paths", encode: func(e *encoder, n *Node, path string) ([]byte, error) {
		return e.keyedPairs(n, path, pathKey, 2, pathItemSpec, 1)
	}}

	parameterDefinitionsSpec = named("ParameterDefinitions", parameterSpec)
	responseDefinitionsSpec = named("ResponseDefinitions", responseSpec)
	apiKeySpec = &msgSpec{name: "ApiKeySecurity", required: []string{"in", "name", "type"}, allowed: []string{"description", "in", "name", "type"},
		enums: map[string][]string{"type": {"apiKey"}, "in": {"header", "query"}}, vendor: 5,
		fields: []fieldSpec{{"type", 1, kString, nil}, {"name", 2, kString, nil}, {"in", 3, kString, nil}, {"description", 4, kString, nil}}}
	basicAuthSpec = &msgSpec{name: "BasicAuthenticationSecurity", required: []string{"type"}, allowed: []string{"description", "type"},
		enums: map[string][]string{"type": {"basic"}}, vendor: 3,
		fields: []fieldSpec{{"type", 1, kString, nil}, {"description", 2, kString, nil}}}
	securityItemSpec = oneOf("SecurityDefinitionsItem", func(n *Node) (int, *msgSpec, error) {
		switch textOf(n, "type") {
		case "basic":
			return 1, basicAuthSpec, nil
		case "apiKey":
			return 2, apiKeySpec, nil
		}
		return 0, nil, fmt.Errorf("contains an invalid SecurityDefinitionsItem (OAuth2 is not supported here)")
	})
	securityDefinitionsSpec = named("SecurityDefinitions", securityItemSpec)

	documentSpec = &msgSpec{name: "Document", required: []string{"info", "paths", "swagger"},
		allowed: []string{"basePath", "consumes", "definitions", "externalDocs", "host", "info", "parameters", "paths",
			"produces", "responses", "schemes", "security", "securityDefinitions", "swagger", "tags"},
		enums: map[string][]string{"swagger": {"2.0"}}, vendor: 16,
		fields: []fieldSpec{{"swagger", 1, kString, nil}, {"info", 2, kMessage, infoSpec}, {"host", 3, kString, nil},
			{"basePath", 4, kString, nil}, {"schemes", 5, kStrings, nil}, {"consumes", 6, kStrings, nil},
			{"produces", 7, kStrings, nil}, {"paths", 8, kMessage, pathsSpec}, {"definitions", 9, kMessage, definitionsSpec},
			{"parameters", 10, kMessage, parameterDefinitionsSpec}, {"responses", 11, kMessage, responseDefinitionsSpec},
			{"security", 12, kList, securityRequirementSpec}, {"securityDefinitions", 13, kMessage, securityDefinitionsSpec},
			{"tags", 14, kList, tagSpec}, {"externalDocs", 15, kMessage, externalDocsSpec}}}
}

// keyedPairs writes the members of a map whose keys match pattern as pairs of field num
// (value spec), and its x- members as NamedAny of field vendor: Paths and Responses. Any
// other member fails, as in gnostic. Fields are written in number order.
func (e *encoder) keyedPairs(n *Node, path string, pattern *regexp.Regexp, num int, value *msgSpec, vendor int) ([]byte, error) {
	if n.Kind != Object {
		return []byte{}, nil
	}
	var pairs, ext []byte
	for i, k := range n.Keys {
		switch {
		case strings.HasPrefix(k, "x-"):
			a, err := e.namedAny(k, n.Values[i])
			if err != nil {
				return nil, err
			}
			ext = appendLen(ext, vendor, a)
		case pattern.MatchString(k):
			p, err := e.pair(k, value, n.Values[i], path+"."+k)
			if err != nil {
				return nil, err
			}
			pairs = appendLen(pairs, num, p)
		default:
			return nil, fmt.Errorf("%s has invalid property: %s", path, k)
		}
	}
	if num < vendor {
		return append(append([]byte{}, pairs...), ext...), nil
	}
	return append(append([]byte{}, ext...), pairs...), nil
}

package decode

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// legacySchemeName is the name the real server's scheme reports in "no kind is registered"
// errors; we print it so that decode errors read like the real ones.
const legacySchemeName = "pkg/api/legacyscheme/scheme.go:30"

// Body decodes the body of a POST or PUT (or a patched object) for an endpoint serving
// expected. It mirrors the decode step of createHandler and UpdateResource in k8s.io/apiserver
// pkg/endpoints/handlers (create.go, update.go, rest.go transformDecodeError), JSON only:
//
//   - kind and apiVersion may be missing; they default to expected's (docs/behaviour/wire.md C1);
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
func Body(scheme *api.Scheme, data []byte, expected api.GroupVersionKind, fieldValidation string) (api.Object, []string, error) {
	actual, err := checkKind(data, expected, func(gvk api.GroupVersionKind) bool {
		return scheme != nil && scheme.Recognizes(gvk)
	})
	if err != nil {
		return nil, nil, err
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
	if typ != nil || fieldValidation != api.FieldValidationIgnore {
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
	if fieldValidation == api.FieldValidationIgnore {
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
	if fieldValidation == api.FieldValidationStrict {
		return nil, nil, cannotHandle(actual, expected, "strict decoding error: "+strings.Join(texts, ", "))
	}
	return obj, texts, nil
}

// checkKind is the first step of every body decode: data must be valid JSON (which also
// bounds its nesting), and its kind and apiVersion, defaulted from expected's, must name
// expected (E1–E5). known says which kinds the server has, for the text of E4.
func checkKind(data []byte, expected api.GroupVersionKind, known func(api.GroupVersionKind) bool) (api.GroupVersionKind, error) {
	var tm struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}
	if err := json.Unmarshal(data, &tm); err != nil {
		return api.GroupVersionKind{}, api.NewBadRequest(fmt.Sprintf(
			"the object provided is unrecognized (must be of type %s): couldn't get version/kind; json parse error: %v (%s)",
			expected.Kind, err, summarizeData(data, 30)))
	}
	actual := defaultGVK(tm.APIVersion, tm.Kind, expected)
	return actual, matchKind(actual, expected, known)
}

// matchKind is the second half of checkKind: the body's kind, defaulted, must be the
// endpoint's (E4) and in its group-version (E5).
func matchKind(actual, expected api.GroupVersionKind, known func(api.GroupVersionKind) bool) error {
	if actual.Kind != expected.Kind {
		return cannotHandle(actual, expected, conversionDetail(known(actual), actual, expected))
	}
	if actual.Group != expected.Group || actual.Version != expected.Version {
		return api.NewBadRequest(fmt.Sprintf(
			"the API version in the data (%s) does not match the expected API version (%s)",
			actual.APIVersion(), expected.APIVersion()))
	}
	return nil
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
func conversionDetail(known bool, actual, expected api.GroupVersionKind) string {
	if known {
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

// Unrecognized is the 400 of a body no decoder could read as an object (transformDecodeError
// in apiserver handlers/rest.go when the kind is unknown): "the object provided is
// unrecognized (must be of type Pod): <err> (<the start of the body>)". The protobuf path
// uses it for a body that is not an enveloped protobuf message.
func Unrecognized(kind string, err error, body []byte) error {
	return api.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", kind, err, summarizeData(body, 30)))
}

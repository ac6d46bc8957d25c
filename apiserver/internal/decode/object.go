package decode

import (
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Object decodes the body of a POST or PUT for an endpoint serving expected, a kind with
// an OpenAPI schema sch, into the whole object as generic JSON. It mirrors what
// kube-apiserver does for a built-in kind (the JSON serializer's strict decode into the Go
// type in k8s.io/apimachinery runtime/serializer/json, then the required-field checks of
// the kind's validation), without losing the members a Go struct would drop:
//
//   - E1–E5 exactly as Body (the same code);
//   - a value the Go type cannot hold is 400 with encoding/json's text (E3), e.g.
//     `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal
//     string into Go struct field DeploymentSpec.spec.replicas of type int32`; so is a bad
//     Quantity, IntOrString, date-time or base64 string, with the text of its decoder;
//   - members the schema does not know, and duplicate members, follow fieldValidation as in
//     Body (E6, E7); unknown members are removed from the object, except where the schema
//     keeps unknown fields (x-kubernetes-preserve-unknown-fields, free-form objects);
//   - JSON null drops a member, as decoding into a Go struct leaves it unset;
//   - a required member that is missing is 422 Invalid with one FieldValueRequired cause
//     per member ("spec.containers[0].name: Required value"); the warnings found so far
//     are returned with it, since the real server has already recorded them.
//
// Every other member is kept as sent; integers decode as int64, other numbers as float64.
// Strings share one copy of the body. The object's kind and apiVersion are set to
// expected's. A nil sch accepts any members, so that only duplicates are found. Presence
// is not checked under the top-level status, as the real strategies do not. Every error
// is an *api.Status.
func Object(data []byte, sch *schema.Schema, expected api.GroupVersionKind, fieldValidation string) (*api.Unstructured, []string, error) {
	return object(data, sch, expected, fieldValidation, true)
}

// ObjectForStorage is Object without the required-member check. The server uses it: the real
// server checks presence in the kind's validation, after admission (a missing namespace is
// 404) and after the resourceVersion precondition (a stale update is 409), so the storage
// layer reports missing members itself, in that order (schema.Schema.Validate).
func ObjectForStorage(data []byte, sch *schema.Schema, expected api.GroupVersionKind, fieldValidation string) (*api.Unstructured, []string, error) {
	return object(data, sch, expected, fieldValidation, false)
}

func object(data []byte, sch *schema.Schema, expected api.GroupVersionKind, fieldValidation string, checkRequired bool) (*api.Unstructured, []string, error) {
	known := func(gvk api.GroupVersionKind) bool {
		_, ok := schema.ForKind(gvk)
		return ok
	}
	d := objectDecoder{data: data, text: string(data), strict: fieldValidation != api.FieldValidationIgnore,
		path: make([]pathSegment, 0, 16), fields: make([]string, 0, 16)}
	obj := d.root(sch)
	// The reader checked the JSON on its way; when it is in doubt (bad JSON, a decoder's
	// own error that ended the walk early, a kind that is not a plain string) the shared
	// checkKind reads the body again for the real server's E1–E5.
	kind, okKind := obj["kind"].(string)
	apiVersion, okVersion := obj["apiVersion"].(string)
	_, stopped := d.err.(*schema.StopError)
	simple := !d.invalid && !d.notObject && !d.kindCase && !stopped &&
		(okKind || obj["kind"] == nil) && (okVersion || obj["apiVersion"] == nil)
	var actual api.GroupVersionKind
	if simple {
		actual = defaultGVK(apiVersion, kind, expected)
		if err := matchKind(actual, expected, known); err != nil {
			return nil, nil, err
		}
	} else {
		var err error
		if actual, err = checkKind(data, expected, known); err != nil {
			return nil, nil, err
		}
		if d.invalid || d.notObject {
			// Only a reader stricter than encoding/json gets here; say so rather than guess.
			return nil, nil, cannotHandle(actual, expected, "the body could not be read as a JSON object")
		}
	}
	if d.err != nil {
		return nil, nil, cannotHandle(actual, expected, d.err.Error())
	}
	if len(d.problems) > 0 && fieldValidation == api.FieldValidationStrict {
		return nil, nil, cannotHandle(actual, expected, "strict decoding error: "+strings.Join(d.problems, ", "))
	}
	u := &api.Unstructured{Object: obj}
	u.SetGroupVersionKind(expected)
	if checkRequired && len(d.required) > 0 {
		causes := make([]api.StatusCause, len(d.required))
		for i, path := range d.required {
			causes[i] = validation.Required(path, "")
		}
		return nil, d.problems, api.NewInvalid(api.GroupKind{Group: expected.Group, Kind: expected.Kind}, u.GetName(), causes)
	}
	return u, d.problems, nil
}

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAPI_NewNotFound(t *testing.T) {
	tests := []struct {
		gr      GroupResource
		name    string
		message string
		body    string
	}{
		{gr: GroupResource{Resource: "pods"}, name: "x", message: `pods "x" not found`,
			body: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}`},
		{gr: GroupResource{Group: "apps", Resource: "deployments"}, name: "web", message: `deployments.apps "web" not found`,
			body: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"web\" not found","reason":"NotFound","details":{"name":"web","group":"apps","kind":"deployments"},"code":404}`},
	}
	for _, tc := range tests {
		t.Run(tc.message, func(t *testing.T) {
			err := NewNotFound(tc.gr, tc.name)
			assert.EqualError(t, err, tc.message)
			assert.True(t, IsNotFound(err))
			assert.True(t, IsNotFound(fmt.Errorf("wrapped: %w", err)))
			b, jerr := json.Marshal(err)
			require.NoError(t, jerr)
			assert.JSONEq(t, tc.body, string(b))
		})
	}
	assert.False(t, IsNotFound(errors.New("pods \"x\" not found")), "only a Status counts")
	assert.False(t, IsNotFound(nil))
	assert.Equal(t, StatusReasonUnknown, ReasonForError(errors.New("x")))
}

// TestCh01_StatusConstructors checks each constructor against the real apimachinery
// texts, codes, reasons and details (docs/behaviour/wire.md §6 S1–S3, §10).
func TestCh01_StatusConstructors(t *testing.T) {
	pods := GroupResource{Resource: "pods"}
	deploys := GroupResource{Group: "apps", Resource: "deployments"}
	tests := []struct {
		name string
		err  *Status
		body string
	}{
		{"C4/AlreadyExists", NewAlreadyExists(pods, "x"),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" already exists","reason":"AlreadyExists","details":{"name":"x","kind":"pods"},"code":409}`},
		{"E20/Conflict", NewConflict(pods, "x", errors.New("the object has been modified; please apply your changes to the latest version and try again")),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods \"x\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"x","kind":"pods"},"code":409}`},
		{"E47/ConflictGroup", NewConflict(deploys, "web", errors.New("Precondition failed: UID in precondition: a, UID in object meta: b")),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on deployments.apps \"web\": Precondition failed: UID in precondition: a, UID in object meta: b","reason":"Conflict","details":{"name":"web","group":"apps","kind":"deployments"},"code":409}`},
		{"Gone", NewGone("gone away"),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"gone away","reason":"Gone","code":410}`},
		{"W12/Expired", NewResourceExpired("too old resource version: 5 (1000)"),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (1000)","reason":"Expired","code":410}`},
		{"E39/BadRequest", NewBadRequest("specifying resource version is not allowed when using continue"),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"specifying resource version is not allowed when using continue","reason":"BadRequest","code":400}`},
		{"Unauthorized", NewUnauthorized(""),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"not authorized","reason":"Unauthorized","code":401}`},
		{"E15/Invalid", NewInvalid(GroupKind{Kind: "ConfigMap"}, "", []StatusCause{{Type: CauseTypeFieldValueRequired, Field: "metadata.name", Message: "Required value: name or generateName is required"}}),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required","reason":"Invalid","details":{"kind":"ConfigMap","causes":[{"reason":"FieldValueRequired","message":"Required value: name or generateName is required","field":"metadata.name"}]},"code":422}`},
		{"NS3/Forbidden", NewForbidden(GroupResource{Resource: "namespaces"}, "default", errors.New("this namespace may not be deleted")),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"namespaces \"default\" is forbidden: this namespace may not be deleted","reason":"Forbidden","details":{"name":"default","kind":"namespaces"},"code":403}`},
		{"ForbiddenNoName", NewForbidden(pods, "", errors.New("why")),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: why","reason":"Forbidden","details":{"kind":"pods"},"code":403}`},
		{"ForbiddenNoResource", NewForbidden(GroupResource{}, "", errors.New("why")),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: why","reason":"Forbidden","details":{},"code":403}`},
		{"MethodNotSupported", NewMethodNotSupported(pods, "watch"),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"watch is not supported on resources of kind \"pods\"","reason":"MethodNotAllowed","details":{"kind":"pods"},"code":405}`},
		{"E46/MethodNotAllowed", NewMethodNotAllowed(),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}`},
		{"E8/TooLarge", NewRequestEntityTooLargeError("limit is 3145728"),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Request entity too large: limit is 3145728","reason":"RequestEntityTooLarge","code":413}`},
		{"E21/UnsupportedMediaType", NewUnsupportedMediaType([]string{"application/json", "application/yaml"}),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json, application/yaml","reason":"UnsupportedMediaType","code":415}`},
		{"N3/NotAcceptable", NewNotAcceptable([]string{"application/json"}),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"only the following media types are accepted: application/json","reason":"NotAcceptable","code":406}`},
		{"TooManyRequests", NewTooManyRequests("slow down", 3),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"slow down","reason":"TooManyRequests","details":{"retryAfterSeconds":3},"code":429}`},
		{"ServiceUnavailable", NewServiceUnavailable("down"),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"down","reason":"ServiceUnavailable","code":503}`},
		{"InternalError", NewInternalError(errors.New("boom")),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: boom","reason":"InternalError","details":{"causes":[{"message":"boom"}]},"code":500}`},
		{"ServerTimeout", NewServerTimeout(pods, "list", 2),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The list operation against pods could not be completed at this time, please try again.","reason":"ServerTimeout","details":{"name":"list","kind":"pods","retryAfterSeconds":2},"code":500}`},
		{"Timeout", NewTimeoutError("request did not complete", 0),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: request did not complete","reason":"Timeout","details":{},"code":504}`},
		{"L4/TooLargeResourceVersion", NewTooLargeResourceVersionError(20, 10, 1),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 20, current: 10","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}`},
		{"E24/JSONPatchFailed", NewGenericServerResponse(422, "", GroupResource{}, "", "test failed", 0, false),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}`},
		{"S6/GenericNotFound", NewGenericServerResponse(404, "GET", pods, "x", "", 0, true),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource (get pods x)","reason":"NotFound","details":{"name":"x","kind":"pods","causes":[{"reason":"UnexpectedServerResponse"}]},"code":404}`},
		{"S6/GenericPostConflict", NewGenericServerResponse(409, "POST", pods, "", "", 0, false),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server reported a conflict (post pods)","reason":"AlreadyExists","details":{"kind":"pods"},"code":409}`},
		{"S6/Generic500", NewGenericServerResponse(502, "GET", GroupResource{}, "", "bad gateway", 0, false),
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"an error on the server (\"bad gateway\") has prevented the request from succeeding","reason":"InternalError","details":{},"code":502}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.err)
			require.NoError(t, err)
			assert.JSONEq(t, tc.body, string(b))
			assert.Equal(t, tc.err.Message, tc.err.Error(), "a Status is an error whose text is its message")
		})
	}
}

// TestCh01_NewInvalidAggregates checks the message of several causes: distinct errors in
// brackets joined by ", ", duplicates once, as field.ErrorList.ToAggregate prints them.
func TestCh01_NewInvalidAggregates(t *testing.T) {
	causes := []StatusCause{
		{Type: CauseTypeForbidden, Field: "resourceVersionMatch", Message: "Forbidden: a"},
		{Type: CauseTypeForbidden, Field: "resourceVersionMatch", Message: "Forbidden: a"},
		{Type: CauseTypeFieldValueNotSupported, Field: "resourceVersionMatch", Message: `Unsupported value: "x"`},
	}
	err := NewInvalid(GroupKind{Group: "meta.k8s.io", Kind: "ListOptions"}, "", causes)
	assert.Equal(t, `ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: a, resourceVersionMatch: Unsupported value: "x"]`, err.Message)
	assert.Equal(t, "meta.k8s.io", err.Details.Group)
	assert.Len(t, err.Details.Causes, 3, "every cause is kept")
	causes[0].Message = "changed"
	assert.Equal(t, "Forbidden: a", err.Details.Causes[0].Message, "the causes are copied")

	none := NewInvalid(GroupKind{Kind: "Pod"}, "p", nil)
	assert.Equal(t, `Pod "p" is invalid`, none.Message)
	assert.Equal(t, "Deployment.apps", GroupKind{Group: "apps", Kind: "Deployment"}.String())
}

// TestCh01_ErrorPredicates checks every predicate against every constructor: the reason
// decides, and the code only when the reason is not a known one, as upstream.
func TestCh01_ErrorPredicates(t *testing.T) {
	pods := GroupResource{Resource: "pods"}
	preds := map[string]func(error) bool{
		"NotFound": IsNotFound, "AlreadyExists": IsAlreadyExists, "Conflict": IsConflict,
		"Gone": IsGone, "Expired": IsResourceExpired, "BadRequest": IsBadRequest,
		"Invalid": IsInvalid, "Forbidden": IsForbidden, "MethodNotSupported": IsMethodNotSupported,
		"TooManyRequests": IsTooManyRequests, "InternalError": IsInternalError,
		"ServerTimeout": IsServerTimeout, "Timeout": IsTimeout,
		"TooLarge": IsRequestEntityTooLargeError, "UnsupportedMediaType": IsUnsupportedMediaType,
		"NotAcceptable": IsNotAcceptable, "ServiceUnavailable": IsServiceUnavailable,
		"Unauthorized": IsUnauthorized, "TooLargeRV": IsTooLargeResourceVersion,
	}
	tests := []struct {
		err  error
		want []string
	}{
		{NewNotFound(pods, "x"), []string{"NotFound"}},
		{NewAlreadyExists(pods, "x"), []string{"AlreadyExists"}},
		{NewConflict(pods, "x", errors.New("c")), []string{"Conflict"}},
		{NewGone("g"), []string{"Gone"}},
		{NewResourceExpired("e"), []string{"Expired"}},
		{NewBadRequest("b"), []string{"BadRequest"}},
		{NewInvalid(GroupKind{Kind: "Pod"}, "x", nil), []string{"Invalid"}},
		{NewForbidden(pods, "x", errors.New("f")), []string{"Forbidden"}},
		{NewMethodNotSupported(pods, "watch"), []string{"MethodNotSupported"}},
		{NewTooManyRequests("t", 1), []string{"TooManyRequests"}},
		{NewInternalError(errors.New("i")), []string{"InternalError"}},
		{NewServerTimeout(pods, "get", 1), []string{"ServerTimeout"}},
		{NewTimeoutError("t", 1), []string{"Timeout"}},
		{NewTooLargeResourceVersionError(2, 1, 1), []string{"Timeout", "TooLargeRV"}},
		{NewRequestEntityTooLargeError("l"), []string{"TooLarge"}},
		{NewUnsupportedMediaType(nil), []string{"UnsupportedMediaType"}},
		{NewNotAcceptable(nil), []string{"NotAcceptable"}},
		{NewServiceUnavailable("s"), []string{"ServiceUnavailable"}},
		{NewUnauthorized("u"), []string{"Unauthorized"}},
		// An unknown reason falls back to the code.
		{&Status{Code: 409, Reason: "Custom"}, []string{"Conflict"}},
		{&Status{Code: 500}, []string{"InternalError"}},
		// 429 and 413 count by code whatever the reason.
		{&Status{Code: 429, Reason: StatusReasonBadRequest}, []string{"BadRequest", "TooManyRequests"}},
		{&Status{Code: 413, Reason: StatusReasonBadRequest}, []string{"BadRequest", "TooLarge"}},
		{errors.New("plain"), nil},
		{nil, nil},
	}
	for i, tc := range tests {
		for name, pred := range preds {
			want := false
			for _, w := range tc.want {
				want = want || w == name
			}
			assert.Equal(t, want, pred(tc.err), "case %d (%v), Is%s", i, tc.err, name)
			if tc.err != nil {
				assert.Equal(t, want, pred(fmt.Errorf("wrapped: %w", tc.err)), "wrapped case %d, Is%s", i, name)
			}
		}
	}
	assert.Equal(t, int32(404), CodeForError(fmt.Errorf("w: %w", NewNotFound(pods, "x"))))
	assert.Equal(t, int32(0), CodeForError(errors.New("x")))
	assert.True(t, HasStatusCause(NewTooLargeResourceVersionError(2, 1, 1), CauseTypeResourceVersionTooLarge))
	assert.False(t, HasStatusCause(NewBadRequest("x"), CauseTypeResourceVersionTooLarge))
	assert.False(t, IsTooLargeResourceVersion(&Status{Code: 400, Details: &StatusDetails{Causes: []StatusCause{{Type: CauseTypeResourceVersionTooLarge}}}}),
		"the cause counts only on a Timeout")
}

func TestCh01_SuggestsClientDelay(t *testing.T) {
	tests := []struct {
		err     error
		seconds int
		ok      bool
	}{
		{NewTooManyRequests("x", 5), 5, true},
		{NewServerTimeout(GroupResource{Resource: "pods"}, "get", 0), 0, true},
		{NewTimeoutError("x", 1), 1, true},
		{NewTimeoutError("x", 0), 0, false},
		{NewBadRequest("x"), 0, false},
		{errors.New("x"), 0, false},
		{fmt.Errorf("w: %w", NewTooManyRequests("x", 2)), 2, true},
	}
	for i, tc := range tests {
		s, ok := SuggestsClientDelay(tc.err)
		assert.Equal(t, tc.seconds, s, "case %d", i)
		assert.Equal(t, tc.ok, ok, "case %d", i)
	}
}

func TestCh01_FromObjectAndErrorToAPIStatus(t *testing.T) {
	st := NewNotFound(GroupResource{Resource: "pods"}, "x")
	assert.Same(t, st, FromObject(st))

	u := &Unstructured{Object: map[string]any{
		"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": "m", "reason": "Expired",
		"code": int64(410), "details": map[string]any{"name": "n", "retryAfterSeconds": int64(2),
			"causes": []any{map[string]any{"reason": "FieldValueInvalid", "message": "bad", "field": "f"}}},
	}}
	err := FromObject(u)
	assert.True(t, IsResourceExpired(err))
	var got *Status
	require.ErrorAs(t, err, &got)
	assert.Equal(t, int32(410), got.Code)
	assert.Equal(t, "n", got.Details.Name)
	assert.Equal(t, int32(2), got.Details.RetryAfterSeconds)
	assert.Equal(t, []StatusCause{{Type: CauseTypeFieldValueInvalid, Message: "bad", Field: "f"}}, got.Details.Causes)

	perr := FromObject(&Pod{})
	assert.ErrorContains(t, perr, "unexpected object: ")
	assert.Equal(t, StatusReasonUnknown, ReasonForError(perr), "a Pod is not a Status")
	assert.False(t, IsNotFound(FromObject(&Unstructured{Object: map[string]any{"kind": "Status", "apiVersion": "v2"}})))

	plain := ErrorToAPIStatus(errors.New("resourceVersion should not be set on objects to be created"))
	b, jerr := json.Marshal(plain)
	require.NoError(t, jerr)
	assert.JSONEq(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion should not be set on objects to be created","code":500}`, string(b), "E19: a non-Status error is a 500 with reason \"\"")
	bare := ErrorToAPIStatus(fmt.Errorf("w: %w", &Status{Message: "m"}))
	assert.Equal(t, int32(500), bare.Code)
	assert.Equal(t, StatusFailure, bare.Status)
	assert.Equal(t, "Status", bare.Kind)
	assert.Equal(t, int32(200), ErrorToAPIStatus(&Status{Status: StatusSuccess}).Code)
}

func TestCh01_NilErrorsDoNotPanic(t *testing.T) {
	assert.Equal(t, "Operation cannot be fulfilled on pods \"x\": <nil>", NewConflict(GroupResource{Resource: "pods"}, "x", nil).Message)
	assert.Equal(t, "Internal error occurred: <nil>", NewInternalError(nil).Message)
	assert.Equal(t, "forbidden: <nil>", NewForbidden(GroupResource{}, "", nil).Message)
	var nilStatus *Status
	assert.Error(t, FromObject(nilStatus))
}

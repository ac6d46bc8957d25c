package api

import (
	"fmt"
	"net/http"
	"strings"
)

// NewNotFound mirrors apierrors.NewNotFound: the 404 Status a server (or a lister) returns
// for a missing object, e.g. `pods "x" not found`.
func NewNotFound(gr GroupResource, name string) *Status {
	return &Status{
		TypeMeta: TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   StatusFailure,
		Code:     http.StatusNotFound,
		Reason:   StatusReasonNotFound,
		Details:  &StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name},
		Message:  gr.String() + ` "` + name + `" not found`,
	}
}

// failure builds the common shape of every error Status: kind Status, apiVersion v1 and
// status Failure, so a constructor only states what differs.
func failure(code int, reason StatusReason, message string, details *StatusDetails) *Status {
	return &Status{
		TypeMeta: TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   StatusFailure,
		Code:     int32(code),
		Reason:   reason,
		Message:  message,
		Details:  details,
	}
}

// errText is err's text, or "<nil>" as fmt's %v would print a nil error.
func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// NewAlreadyExists mirrors apierrors.NewAlreadyExists: 409 AlreadyExists for a create whose
// name is taken, e.g. `pods "x" already exists` (docs/behaviour/wire.md C4).
func NewAlreadyExists(gr GroupResource, name string) *Status {
	return failure(http.StatusConflict, StatusReasonAlreadyExists,
		fmt.Sprintf("%s %q already exists", gr.String(), name),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewConflict mirrors apierrors.NewConflict: 409 Conflict for a write whose resourceVersion
// or precondition no longer holds (docs/behaviour/wire.md P2, E20, E47).
func NewConflict(gr GroupResource, name string, err error) *Status {
	return failure(http.StatusConflict, StatusReasonConflict,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", gr.String(), name, errText(err)),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewGone mirrors apierrors.NewGone: 410 with reason Gone, which servers sent before 1.18.
// Current servers use NewResourceExpired; clients accept both.
func NewGone(message string) *Status {
	return failure(http.StatusGone, StatusReasonGone, message, nil)
}

// NewResourceExpired mirrors apierrors.NewResourceExpired: 410 Expired for a resourceVersion
// or continue token older than the retained history (docs/behaviour/wire.md L5, L12, W12).
func NewResourceExpired(message string) *Status {
	return failure(http.StatusGone, StatusReasonExpired, message, nil)
}

// NewBadRequest mirrors apierrors.NewBadRequest: 400 BadRequest with a free-text message.
func NewBadRequest(message string) *Status {
	return failure(http.StatusBadRequest, StatusReasonBadRequest, message, nil)
}

// NewUnauthorized mirrors apierrors.NewUnauthorized: 401, "not authorized" when reason is empty.
func NewUnauthorized(reason string) *Status {
	if reason == "" {
		reason = "not authorized"
	}
	return failure(http.StatusUnauthorized, StatusReasonUnauthorized, reason, nil)
}

// NewInvalid mirrors apierrors.NewInvalid: 422 Invalid naming the object by kind, with one
// cause per field error. Each cause's Message is the error body without the field ("Required
// value: ..."); the Status message joins "field: body" texts the way apimachinery aggregates
// field errors: one distinct error alone, several as "[a, b]" (docs/behaviour/wire.md S3, E10–E16).
func NewInvalid(gk GroupKind, name string, causes []StatusCause) *Status {
	var texts []string
	seen := map[string]bool{}
	size := 0
	for _, c := range causes {
		t := c.Field + ": " + truncateText(c.Message, MaxCauseMessageBytes)
		if !seen[t] {
			seen[t] = true
			texts = append(texts, t)
			if size += len(t); size > MaxStatusBytes {
				// The rest cannot be shown (joinCapped counts them): stop spelling them.
				texts = append(texts, make([]string, len(causes)-len(seen))...)
				break
			}
		}
	}
	msg := fmt.Sprintf("%s %q is invalid", gk.String(), name)
	switch len(texts) {
	case 0:
	case 1:
		msg += ": " + texts[0]
	default:
		msg += ": " + joinCapped(texts)
	}
	return failure(http.StatusUnprocessableEntity, StatusReasonInvalid, msg,
		&StatusDetails{Group: gk.Group, Kind: gk.Kind, Name: name, Causes: capCauses(causes)})
}

// NewForbidden mirrors apierrors.NewForbidden: 403 with the message shapes
// `forbidden: why`, `pods is forbidden: why` and `pods "x" is forbidden: why`.
func NewForbidden(gr GroupResource, name string, err error) *Status {
	var msg string
	switch {
	case gr == GroupResource{}:
		msg = "forbidden: " + errText(err)
	case name == "":
		msg = fmt.Sprintf("%s is forbidden: %s", gr.String(), errText(err))
	default:
		msg = fmt.Sprintf("%s %q is forbidden: %s", gr.String(), name, errText(err))
	}
	return failure(http.StatusForbidden, StatusReasonForbidden, msg,
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewMethodNotSupported mirrors apierrors.NewMethodNotSupported: 405 MethodNotAllowed, e.g.
// `create is not supported on resources of kind "pods"`. The handler's message for a method
// a path does not serve at all is MethodNotAllowedMessage instead (docs/behaviour/wire.md U3, E46).
func NewMethodNotSupported(gr GroupResource, action string) *Status {
	return failure(http.StatusMethodNotAllowed, StatusReasonMethodNotAllowed,
		fmt.Sprintf("%s is not supported on resources of kind %q", action, gr.String()),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource})
}

// MethodNotAllowedMessage mirrors the text of the 405 that apiserver's handlers send for a
// method a path does not serve (docs/behaviour/wire.md U3, E46); it is also the 405 message of
// apierrors.NewGenericServerResponse.
const MethodNotAllowedMessage = "the server does not allow this method on the requested resource"

// NewMethodNotAllowed builds the 405 Status the real server's handlers send for a method a
// path does not serve (POST /api/v1/pods); it has no apierrors constructor upstream, so it
// mirrors the Status that responsewriters.ErrorNegotiated writes for it.
func NewMethodNotAllowed() *Status {
	// Empty details, not none: the real server's Status carries "details":{} here.
	return failure(http.StatusMethodNotAllowed, StatusReasonMethodNotAllowed, MethodNotAllowedMessage, &StatusDetails{})
}

// NewRequestEntityTooLargeError mirrors apierrors.NewRequestEntityTooLargeError: 413 with the
// message "Request entity too large: " + message (docs/behaviour/wire.md E8, E48).
func NewRequestEntityTooLargeError(message string) *Status {
	return failure(http.StatusRequestEntityTooLarge, StatusReasonRequestEntityTooLarge,
		"Request entity too large: "+message, nil)
}

// NewUnsupportedMediaType mirrors negotiation.NewUnsupportedMediaTypeError in apiserver
// pkg/endpoints/handlers/negotiation/errors.go: 415 listing what the endpoint accepts
// (docs/behaviour/wire.md N2, E21, E22). apimachinery has no constructor for it.
func NewUnsupportedMediaType(accepted []string) *Status {
	return failure(http.StatusUnsupportedMediaType, StatusReasonUnsupportedMediaType,
		"the body of the request was in an unknown format - accepted media types include: "+strings.Join(accepted, ", "), nil)
}

// NewNotAcceptable mirrors negotiation.NewNotAcceptableError: 406 listing the media types the
// server can produce (docs/behaviour/wire.md N3).
func NewNotAcceptable(accepted []string) *Status {
	return failure(http.StatusNotAcceptable, StatusReasonNotAcceptable,
		"only the following media types are accepted: "+strings.Join(accepted, ", "), nil)
}

// NewTooManyRequests mirrors apierrors.NewTooManyRequests: 429 with details.retryAfterSeconds,
// which the server also sends as a Retry-After header.
func NewTooManyRequests(message string, retryAfterSeconds int) *Status {
	return failure(http.StatusTooManyRequests, StatusReasonTooManyRequests, message,
		&StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// NewServiceUnavailable mirrors apierrors.NewServiceUnavailable: 503.
func NewServiceUnavailable(reason string) *Status {
	return failure(http.StatusServiceUnavailable, StatusReasonServiceUnavailable, reason, nil)
}

// NewInternalError mirrors apierrors.NewInternalError: 500 "Internal error occurred: ..." with
// the error text repeated as a cause.
func NewInternalError(err error) *Status {
	return failure(http.StatusInternalServerError, StatusReasonInternalError,
		"Internal error occurred: "+errText(err),
		&StatusDetails{Causes: []StatusCause{{Message: errText(err)}}})
}

// NewServerTimeout mirrors apierrors.NewServerTimeout: 500 ServerTimeout, with the operation
// in details.name as upstream does.
func NewServerTimeout(gr GroupResource, operation string, retryAfterSeconds int) *Status {
	return failure(http.StatusInternalServerError, StatusReasonServerTimeout,
		fmt.Sprintf("The %s operation against %s could not be completed at this time, please try again.", operation, gr.String()),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: operation, RetryAfterSeconds: int32(retryAfterSeconds)})
}

// NewTimeoutError mirrors apierrors.NewTimeoutError: 504 Timeout, "Timeout: " + message.
func NewTimeoutError(message string, retryAfterSeconds int) *Status {
	return failure(http.StatusGatewayTimeout, StatusReasonTimeout, "Timeout: "+message,
		&StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// TooLargeResourceVersionCauseMessage mirrors the cause text apiserver's storage package
// attaches to a too-large resourceVersion error.
const TooLargeResourceVersionCauseMessage = "Too large resource version"

// NewTooLargeResourceVersionError mirrors storage.NewTooLargeResourceVersionError in
// k8s.io/apiserver pkg/storage/errors.go: 504 Timeout "Timeout: Too large resource version:
// N, current: M" with a ResourceVersionTooLarge cause (docs/behaviour/wire.md L4, W9). The reflector
// recognises the cause and re-lists from resourceVersion "".
func NewTooLargeResourceVersionError(minimumResourceVersion, currentRevision uint64, retryAfterSeconds int) *Status {
	s := NewTimeoutError(fmt.Sprintf("Too large resource version: %d, current: %d", minimumResourceVersion, currentRevision), retryAfterSeconds)
	s.Details.Causes = []StatusCause{{Type: CauseTypeResourceVersionTooLarge, Message: TooLargeResourceVersionCauseMessage}}
	return s
}

// NewGenericServerResponse mirrors apierrors.NewGenericServerResponse: the Status for a
// response that carried no Status of its own (docs/behaviour/wire.md S6), and the one the real patch
// handler builds for a failed JSON-patch operation (422, X5, E24). The reason and message
// follow the code; for 403, 406 and 415 the server's message is kept. When
// isUnexpectedResponse, serverMessage also becomes a cause of type UnexpectedServerResponse.
func NewGenericServerResponse(code int, verb string, gr GroupResource, name, serverMessage string, retryAfterSeconds int, isUnexpectedResponse bool) *Status {
	reason := StatusReasonUnknown
	msg := fmt.Sprintf("the server responded with the status code %d but did not return more information", code)
	switch code {
	case http.StatusConflict:
		reason = StatusReasonConflict
		if verb == http.MethodPost {
			reason = StatusReasonAlreadyExists
		}
		msg = "the server reported a conflict"
	case http.StatusNotFound:
		reason, msg = StatusReasonNotFound, "the server could not find the requested resource"
	case http.StatusBadRequest:
		reason, msg = StatusReasonBadRequest, "the server rejected our request for an unknown reason"
	case http.StatusUnauthorized:
		reason, msg = StatusReasonUnauthorized, "the server has asked for the client to provide credentials"
	case http.StatusForbidden:
		reason, msg = StatusReasonForbidden, serverMessage
	case http.StatusNotAcceptable:
		reason = StatusReasonNotAcceptable
		if serverMessage == "" || serverMessage == "unknown" {
			msg = "the server was unable to respond with a content type that the client supports"
		} else {
			msg = serverMessage
		}
	case http.StatusUnsupportedMediaType:
		reason, msg = StatusReasonUnsupportedMediaType, serverMessage
	case http.StatusMethodNotAllowed:
		reason, msg = StatusReasonMethodNotAllowed, MethodNotAllowedMessage
	case http.StatusUnprocessableEntity:
		reason, msg = StatusReasonInvalid, "the server rejected our request due to an error in our request"
	case http.StatusServiceUnavailable:
		reason, msg = StatusReasonServiceUnavailable, "the server is currently unable to handle the request"
	case http.StatusGatewayTimeout:
		reason, msg = StatusReasonTimeout, "the server was unable to return a response in the time allotted, but may still be processing the request"
	case http.StatusTooManyRequests:
		reason, msg = StatusReasonTooManyRequests, "the server has received too many requests and has asked us to try again later"
	default:
		if code >= 500 {
			reason = StatusReasonInternalError
			msg = fmt.Sprintf("an error on the server (%q) has prevented the request from succeeding", serverMessage)
		}
	}
	switch {
	case gr != GroupResource{} && name != "":
		msg = fmt.Sprintf("%s (%s %s %s)", msg, strings.ToLower(verb), gr.String(), name)
	case gr != GroupResource{}:
		msg = fmt.Sprintf("%s (%s %s)", msg, strings.ToLower(verb), gr.String())
	}
	var causes []StatusCause
	if isUnexpectedResponse {
		causes = []StatusCause{{Type: CauseTypeUnexpectedServerResponse, Message: serverMessage}}
	}
	// Upstream always sets details, so an empty one travels as "details":{}.
	return failure(code, reason, msg, &StatusDetails{
		Group: gr.Group, Kind: gr.Resource, Name: name, Causes: causes, RetryAfterSeconds: int32(retryAfterSeconds),
	})
}

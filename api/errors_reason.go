package api

import (
	"errors"
	"fmt"
	"net/http"
)

// Reading errors back: from any error to its Status, its reason and code, and the Is…
// predicates of apierrors, which look for a *Status anywhere in an error's chain.

// ErrorToAPIStatus mirrors responsewriters.ErrorToAPIStatus in apiserver
// pkg/endpoints/handlers/responsewriters/status.go. A *Status in err's chain comes back as a
// copy with kind Status and apiVersion v1, and with status and code filled in when missing.
// Any other error becomes a 500 with reason "" and the error's text: what a real server
// sends for errors its storage did not turn into a Status (docs/behaviour/wire.md S2, E19).
func ErrorToAPIStatus(err error) *Status {
	if s, ok := statusOf(err); ok {
		out := *s
		out.Kind, out.APIVersion = "Status", "v1"
		if out.Status == "" {
			out.Status = StatusFailure
		}
		if out.Code == 0 {
			out.Code = http.StatusInternalServerError
			if out.Status == StatusSuccess {
				out.Code = http.StatusOK
			}
		}
		return &out
	}
	return failure(http.StatusInternalServerError, StatusReasonUnknown, errText(err), nil)
}

// FromObject mirrors apierrors.FromObject: a *Status (or an Unstructured of kind Status) as an
// error; any other object gives an "unexpected object" error.
func FromObject(obj Object) error {
	switch t := obj.(type) {
	case *Status:
		if t != nil {
			return t
		}
	case *Unstructured:
		if t != nil && t.GetKind() == "Status" {
			if av := t.GetAPIVersion(); av == "v1" || av == "meta.k8s.io/v1" {
				return statusFromUnstructured(t)
			}
		}
	}
	return fmt.Errorf("unexpected object: %v", obj)
}

// statusFromUnstructured reads the Status members out of an Unstructured. The Object map is
// JSON-shaped, so the fields are read one by one rather than through a decode round trip.
func statusFromUnstructured(u *Unstructured) *Status {
	s := &Status{TypeMeta: TypeMeta{Kind: "Status", APIVersion: u.GetAPIVersion()}}
	s.Status, _, _ = NestedString(u.Object, "status")
	s.Message, _, _ = NestedString(u.Object, "message")
	r, _, _ := NestedString(u.Object, "reason")
	s.Reason = StatusReason(r)
	if c, ok := nestedInt64(u.Object, "code"); ok {
		s.Code = int32(c)
	}
	if d, ok, _ := NestedMap(u.Object, "details"); ok {
		det := &StatusDetails{}
		det.Name, _, _ = NestedString(d, "name")
		det.Group, _, _ = NestedString(d, "group")
		det.Kind, _, _ = NestedString(d, "kind")
		det.UID, _, _ = NestedString(d, "uid")
		if ra, ok := nestedInt64(d, "retryAfterSeconds"); ok {
			det.RetryAfterSeconds = int32(ra)
		}
		if cs, ok := d["causes"].([]any); ok {
			for _, c := range cs {
				cm, ok := c.(map[string]any)
				if !ok {
					continue
				}
				var sc StatusCause
				t, _, _ := NestedString(cm, "reason")
				sc.Type = CauseType(t)
				sc.Message, _, _ = NestedString(cm, "message")
				sc.Field, _, _ = NestedString(cm, "field")
				det.Causes = append(det.Causes, sc)
			}
		}
		s.Details = det
	}
	return s
}

// statusOf finds a *Status anywhere in err's chain.
func statusOf(err error) (*Status, bool) {
	var s *Status
	if errors.As(err, &s) && s != nil {
		return s, true
	}
	return nil, false
}

// ReasonForError mirrors apierrors.ReasonForError: the reason of a *Status anywhere in err's
// chain, or StatusReasonUnknown.
func ReasonForError(err error) StatusReason {
	var s *Status
	if errors.As(err, &s) {
		return s.Reason
	}
	return StatusReasonUnknown
}

// CodeForError is the HTTP code of a *Status anywhere in err's chain, or 0. It mirrors the
// code half of reasonAndCodeForError in apimachinery pkg/api/errors.
func CodeForError(err error) int32 {
	if s, ok := statusOf(err); ok {
		return s.Code
	}
	return 0
}

// knownReasons are the reasons whose predicates never fall back to the code, as upstream:
// a Status with one of these reasons is only what its reason says.
var knownReasons = map[StatusReason]bool{
	StatusReasonUnauthorized: true, StatusReasonForbidden: true, StatusReasonNotFound: true,
	StatusReasonAlreadyExists: true, StatusReasonConflict: true, StatusReasonGone: true,
	StatusReasonInvalid: true, StatusReasonServerTimeout: true, StatusReasonTimeout: true,
	StatusReasonTooManyRequests: true, StatusReasonBadRequest: true, StatusReasonMethodNotAllowed: true,
	StatusReasonNotAcceptable: true, StatusReasonRequestEntityTooLarge: true,
	StatusReasonUnsupportedMediaType: true, StatusReasonInternalError: true, StatusReasonExpired: true,
	StatusReasonServiceUnavailable: true,
}

// reasonOrCode is the rule of most upstream predicates: the reason matches, or the reason is
// not a known one and the code matches.
func reasonOrCode(err error, reason StatusReason, code int32) bool {
	s, ok := statusOf(err)
	if !ok {
		return false
	}
	return s.Reason == reason || (!knownReasons[s.Reason] && s.Code == code)
}

// IsNotFound mirrors apierrors.IsNotFound.
func IsNotFound(err error) bool { return ReasonForError(err) == StatusReasonNotFound }

// IsAlreadyExists mirrors apierrors.IsAlreadyExists (reason only).
func IsAlreadyExists(err error) bool { return ReasonForError(err) == StatusReasonAlreadyExists }

// IsConflict mirrors apierrors.IsConflict.
func IsConflict(err error) bool {
	return reasonOrCode(err, StatusReasonConflict, http.StatusConflict)
}

// IsInvalid mirrors apierrors.IsInvalid.
func IsInvalid(err error) bool {
	return reasonOrCode(err, StatusReasonInvalid, http.StatusUnprocessableEntity)
}

// IsGone mirrors apierrors.IsGone: reason Gone (pre-1.18 servers), not Expired.
func IsGone(err error) bool { return reasonOrCode(err, StatusReasonGone, http.StatusGone) }

// IsResourceExpired mirrors apierrors.IsResourceExpired (reason Expired only).
func IsResourceExpired(err error) bool { return ReasonForError(err) == StatusReasonExpired }

// IsNotAcceptable mirrors apierrors.IsNotAcceptable.
func IsNotAcceptable(err error) bool {
	return reasonOrCode(err, StatusReasonNotAcceptable, http.StatusNotAcceptable)
}

// IsUnsupportedMediaType mirrors apierrors.IsUnsupportedMediaType.
func IsUnsupportedMediaType(err error) bool {
	return reasonOrCode(err, StatusReasonUnsupportedMediaType, http.StatusUnsupportedMediaType)
}

// IsMethodNotSupported mirrors apierrors.IsMethodNotSupported.
func IsMethodNotSupported(err error) bool {
	return reasonOrCode(err, StatusReasonMethodNotAllowed, http.StatusMethodNotAllowed)
}

// IsServiceUnavailable mirrors apierrors.IsServiceUnavailable.
func IsServiceUnavailable(err error) bool {
	return reasonOrCode(err, StatusReasonServiceUnavailable, http.StatusServiceUnavailable)
}

// IsBadRequest mirrors apierrors.IsBadRequest.
func IsBadRequest(err error) bool {
	return reasonOrCode(err, StatusReasonBadRequest, http.StatusBadRequest)
}

// IsUnauthorized mirrors apierrors.IsUnauthorized.
func IsUnauthorized(err error) bool {
	return reasonOrCode(err, StatusReasonUnauthorized, http.StatusUnauthorized)
}

// IsForbidden mirrors apierrors.IsForbidden.
func IsForbidden(err error) bool {
	return reasonOrCode(err, StatusReasonForbidden, http.StatusForbidden)
}

// IsTimeout mirrors apierrors.IsTimeout (504 Timeout).
func IsTimeout(err error) bool {
	return reasonOrCode(err, StatusReasonTimeout, http.StatusGatewayTimeout)
}

// IsServerTimeout mirrors apierrors.IsServerTimeout: reason only, since no HTTP code means
// "retryable timeout".
func IsServerTimeout(err error) bool { return ReasonForError(err) == StatusReasonServerTimeout }

// IsInternalError mirrors apierrors.IsInternalError.
func IsInternalError(err error) bool {
	return reasonOrCode(err, StatusReasonInternalError, http.StatusInternalServerError)
}

// IsTooManyRequests mirrors apierrors.IsTooManyRequests: the reason, or code 429 whatever the
// reason (upstream keeps that older rule for compatibility).
func IsTooManyRequests(err error) bool {
	s, ok := statusOf(err)
	return ok && (s.Reason == StatusReasonTooManyRequests || s.Code == http.StatusTooManyRequests)
}

// IsRequestEntityTooLargeError mirrors apierrors.IsRequestEntityTooLargeError: the reason, or
// code 413 whatever the reason.
func IsRequestEntityTooLargeError(err error) bool {
	s, ok := statusOf(err)
	return ok && (s.Reason == StatusReasonRequestEntityTooLarge || s.Code == http.StatusRequestEntityTooLarge)
}

// HasStatusCause mirrors apierrors.HasStatusCause: whether err is a Status with a cause of
// type t.
func HasStatusCause(err error, t CauseType) bool {
	s, ok := statusOf(err)
	if !ok || s.Details == nil {
		return false
	}
	for _, c := range s.Details.Causes {
		if c.Type == t {
			return true
		}
	}
	return false
}

// IsTooLargeResourceVersion mirrors storage.IsTooLargeResourceVersion in k8s.io/apiserver: a
// Timeout carrying a ResourceVersionTooLarge cause (docs/behaviour/wire.md L4, W9).
func IsTooLargeResourceVersion(err error) bool {
	return IsTimeout(err) && HasStatusCause(err, CauseTypeResourceVersionTooLarge)
}

// SuggestsClientDelay mirrors apierrors.SuggestsClientDelay: the seconds a client should wait
// before retrying, from details.retryAfterSeconds; a ServerTimeout always suggests a delay.
func SuggestsClientDelay(err error) (int, bool) {
	s, ok := statusOf(err)
	if !ok || s.Details == nil {
		return 0, false
	}
	if s.Reason == StatusReasonServerTimeout || s.Details.RetryAfterSeconds > 0 {
		return int(s.Details.RetryAfterSeconds), true
	}
	return 0, false
}

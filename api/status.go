package api

// Status mirrors metav1.Status in apimachinery: the body of every non-2xx response and the
// object of every ERROR watch event (docs/behaviour/wire.md §6). A *Status is also an error, so a client
// can return the server's answer unchanged.
type Status struct {
	TypeMeta `json:",inline"`
	// ListMeta is a struct, so omitempty never drops it: a Status always carries
	// "metadata":{}, exactly as the real server sends it.
	ListMeta `json:"metadata,omitempty"`

	Status  string         `json:"status,omitempty"`
	Message string         `json:"message,omitempty"`
	Reason  StatusReason   `json:"reason,omitempty"`
	Details *StatusDetails `json:"details,omitempty"`
	Code    int32          `json:"code,omitempty"`
}

// Error mirrors StatusError.Error in apimachinery pkg/api/errors: the message is the error
// text. Upstream wraps Status in StatusError; here Status is the error itself.
func (s *Status) Error() string { return s.Message }

const (
	// StatusSuccess mirrors metav1.StatusSuccess.
	StatusSuccess = "Success"
	// StatusFailure mirrors metav1.StatusFailure.
	StatusFailure = "Failure"
)

// StatusDetails mirrors metav1.StatusDetails. Kind holds the resource (plural) for NotFound,
// AlreadyExists and Conflict, but the Kind for Invalid (docs/behaviour/wire.md S1).
type StatusDetails struct {
	Name              string        `json:"name,omitempty"`
	Group             string        `json:"group,omitempty"`
	Kind              string        `json:"kind,omitempty"`
	UID               string        `json:"uid,omitempty"`
	Causes            []StatusCause `json:"causes,omitempty"`
	RetryAfterSeconds int32         `json:"retryAfterSeconds,omitempty"`
}

// StatusCause mirrors metav1.StatusCause. The Go name is Type but the JSON name is "reason",
// as upstream.
type StatusCause struct {
	Type    CauseType `json:"reason,omitempty"`
	Message string    `json:"message,omitempty"`
	Field   string    `json:"field,omitempty"`
}

// StatusReason mirrors metav1.StatusReason: the machine-readable reason clients test with
// apierrors.IsXxx.
type StatusReason string

// The reasons of docs/behaviour/wire.md §6 S2, with the HTTP code each goes with.
const (
	// StatusReasonUnknown mirrors metav1.StatusReasonUnknown (500 for errors that are not a Status).
	StatusReasonUnknown StatusReason = ""
	// StatusReasonBadRequest mirrors metav1.StatusReasonBadRequest (400).
	StatusReasonBadRequest StatusReason = "BadRequest"
	// StatusReasonUnauthorized mirrors metav1.StatusReasonUnauthorized (401).
	StatusReasonUnauthorized StatusReason = "Unauthorized"
	// StatusReasonForbidden mirrors metav1.StatusReasonForbidden (403).
	StatusReasonForbidden StatusReason = "Forbidden"
	// StatusReasonNotFound mirrors metav1.StatusReasonNotFound (404).
	StatusReasonNotFound StatusReason = "NotFound"
	// StatusReasonMethodNotAllowed mirrors metav1.StatusReasonMethodNotAllowed (405).
	StatusReasonMethodNotAllowed StatusReason = "MethodNotAllowed"
	// StatusReasonNotAcceptable mirrors metav1.StatusReasonNotAcceptable (406).
	StatusReasonNotAcceptable StatusReason = "NotAcceptable"
	// StatusReasonAlreadyExists mirrors metav1.StatusReasonAlreadyExists (409 on create).
	StatusReasonAlreadyExists StatusReason = "AlreadyExists"
	// StatusReasonConflict mirrors metav1.StatusReasonConflict (409 on update or precondition).
	StatusReasonConflict StatusReason = "Conflict"
	// StatusReasonGone mirrors metav1.StatusReasonGone (410 from servers before 1.18).
	StatusReasonGone StatusReason = "Gone"
	// StatusReasonExpired mirrors metav1.StatusReasonExpired (410: too old resourceVersion or
	// continue token).
	StatusReasonExpired StatusReason = "Expired"
	// StatusReasonRequestEntityTooLarge mirrors metav1.StatusReasonRequestEntityTooLarge (413).
	StatusReasonRequestEntityTooLarge StatusReason = "RequestEntityTooLarge"
	// StatusReasonUnsupportedMediaType mirrors metav1.StatusReasonUnsupportedMediaType (415).
	StatusReasonUnsupportedMediaType StatusReason = "UnsupportedMediaType"
	// StatusReasonInvalid mirrors metav1.StatusReasonInvalid (422, with one cause per field).
	StatusReasonInvalid StatusReason = "Invalid"
	// StatusReasonTooManyRequests mirrors metav1.StatusReasonTooManyRequests (429).
	StatusReasonTooManyRequests StatusReason = "TooManyRequests"
	// StatusReasonInternalError mirrors metav1.StatusReasonInternalError (500).
	StatusReasonInternalError StatusReason = "InternalError"
	// StatusReasonServerTimeout mirrors metav1.StatusReasonServerTimeout (500).
	StatusReasonServerTimeout StatusReason = "ServerTimeout"
	// StatusReasonServiceUnavailable mirrors metav1.StatusReasonServiceUnavailable (503).
	StatusReasonServiceUnavailable StatusReason = "ServiceUnavailable"
	// StatusReasonTimeout mirrors metav1.StatusReasonTimeout (504).
	StatusReasonTimeout StatusReason = "Timeout"
)

// CauseType mirrors metav1.CauseType: why one field (or the request) failed.
type CauseType string

// The cause types of docs/behaviour/wire.md §6 S4.
const (
	// CauseTypeFieldValueNotFound mirrors metav1.CauseTypeFieldValueNotFound.
	CauseTypeFieldValueNotFound CauseType = "FieldValueNotFound"
	// CauseTypeFieldValueRequired mirrors metav1.CauseTypeFieldValueRequired.
	CauseTypeFieldValueRequired CauseType = "FieldValueRequired"
	// CauseTypeFieldValueDuplicate mirrors metav1.CauseTypeFieldValueDuplicate.
	CauseTypeFieldValueDuplicate CauseType = "FieldValueDuplicate"
	// CauseTypeFieldValueInvalid mirrors metav1.CauseTypeFieldValueInvalid.
	CauseTypeFieldValueInvalid CauseType = "FieldValueInvalid"
	// CauseTypeFieldValueNotSupported mirrors metav1.CauseTypeFieldValueNotSupported.
	CauseTypeFieldValueNotSupported CauseType = "FieldValueNotSupported"
	// CauseTypeForbidden mirrors metav1.CauseTypeForbidden.
	CauseTypeForbidden CauseType = "FieldValueForbidden"
	// CauseTypeTooLong mirrors metav1.CauseTypeTooLong.
	CauseTypeTooLong CauseType = "FieldValueTooLong"
	// CauseTypeTooMany mirrors metav1.CauseTypeTooMany.
	CauseTypeTooMany CauseType = "FieldValueTooMany"
	// CauseTypeInternal mirrors metav1.CauseTypeInternal.
	CauseTypeInternal CauseType = "InternalError"
	// CauseTypeTypeInvalid mirrors metav1.CauseTypeTypeInvalid.
	CauseTypeTypeInvalid CauseType = "FieldValueTypeInvalid"
	// CauseTypeUnexpectedServerResponse mirrors metav1.CauseTypeUnexpectedServerResponse.
	CauseTypeUnexpectedServerResponse CauseType = "UnexpectedServerResponse"
	// CauseTypeFieldManagerConflict mirrors metav1.CauseTypeFieldManagerConflict.
	CauseTypeFieldManagerConflict CauseType = "FieldManagerConflict"
	// CauseTypeResourceVersionTooLarge mirrors metav1.CauseTypeResourceVersionTooLarge: the
	// reflector resets to resourceVersion "" when it sees it (docs/behaviour/wire.md W9).
	CauseTypeResourceVersionTooLarge CauseType = "ResourceVersionTooLarge"
	// NamespaceTerminatingCause mirrors core/v1 NamespaceTerminatingCause (403 on create in a
	// terminating namespace).
	NamespaceTerminatingCause CauseType = "NamespaceTerminating"
)

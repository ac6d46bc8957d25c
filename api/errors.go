package api

import (
	"errors"
	"net/http"
)

// GroupResource mirrors schema.GroupResource: a resource name ("pods") and its group ("" for
// the core group). Errors and listers name resources this way.
type GroupResource struct {
	Group    string
	Resource string
}

// String mirrors GroupResource.String: "pods" for the core group, "deployments.apps" otherwise.
func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

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

// ReasonForError mirrors apierrors.ReasonForError: the reason of a *Status anywhere in err's
// chain, or StatusReasonUnknown.
func ReasonForError(err error) StatusReason {
	var s *Status
	if errors.As(err, &s) {
		return s.Reason
	}
	return StatusReasonUnknown
}

// IsNotFound mirrors apierrors.IsNotFound.
func IsNotFound(err error) bool { return ReasonForError(err) == StatusReasonNotFound }

package api

// Values of ListOptions.ResourceVersionMatch; they mirror metav1.ResourceVersionMatch.
const (
	// ResourceVersionMatchNotOlderThan asks for data at least as new as ResourceVersion.
	ResourceVersionMatchNotOlderThan = "NotOlderThan"
	// ResourceVersionMatchExact asks for data at exactly ResourceVersion.
	ResourceVersionMatchExact = "Exact"
)

// InitialEventsAnnotationKey marks the BOOKMARK that ends the initial events of a watch-list;
// it mirrors metav1.InitialEventsAnnotationKey.
const InitialEventsAnnotationKey = "k8s.io/initial-events-end"

// ListOptions mirrors metav1.ListOptions: the query of a LIST or WATCH request. The server
// parses it from the URL, and the client side (rest, reflector) builds it. Field names
// match the query parameters: labelSelector, fieldSelector, watch, allowWatchBookmarks,
// resourceVersion, resourceVersionMatch, timeoutSeconds, limit, continue, sendInitialEvents.
type ListOptions struct {
	LabelSelector        string `json:"labelSelector,omitempty"`
	FieldSelector        string `json:"fieldSelector,omitempty"`
	Watch                bool   `json:"watch,omitempty"`
	AllowWatchBookmarks  bool   `json:"allowWatchBookmarks,omitempty"`
	ResourceVersion      string `json:"resourceVersion,omitempty"`
	ResourceVersionMatch string `json:"resourceVersionMatch,omitempty"`
	TimeoutSeconds       *int64 `json:"timeoutSeconds,omitempty"`
	Limit                int64  `json:"limit,omitempty"`
	Continue             string `json:"continue,omitempty"`
	SendInitialEvents    *bool  `json:"sendInitialEvents,omitempty"`
}

// Preconditions mirrors metav1.Preconditions: a delete or update fails with 409 Conflict
// unless the stored object still has this UID and resourceVersion.
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// DeleteOptions mirrors metav1.DeleteOptions, the optional body of a DELETE.
type DeleteOptions struct {
	TypeMeta           `json:",inline"`
	GracePeriodSeconds *int64         `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *Preconditions `json:"preconditions,omitempty"`
	PropagationPolicy  *string        `json:"propagationPolicy,omitempty"`
	// OrphanDependents is the deprecated spelling of propagationPolicy Orphan (true) or
	// Background (false); a server refuses both set at once.
	OrphanDependents *bool    `json:"orphanDependents,omitempty"`
	DryRun           []string `json:"dryRun,omitempty"`
}

// DryRunAll is the one value of the dryRun option of a write (CreateOptions, UpdateOptions,
// PatchOptions, DeleteOptions) that a server accepts: run every stage, store nothing. It
// mirrors metav1.DryRunAll.
const DryRunAll = "All"

// The values of the fieldValidation option of a create, update or patch: what the server does
// with unknown or duplicate fields in the body. They mirror metav1.FieldValidationIgnore,
// FieldValidationWarn and FieldValidationStrict; an absent fieldValidation means Warn.
const (
	// FieldValidationIgnore drops unknown and duplicate fields silently.
	FieldValidationIgnore = "Ignore"
	// FieldValidationWarn drops them and reports each in a Warning header.
	FieldValidationWarn = "Warn"
	// FieldValidationStrict fails the request with 400 BadRequest naming them.
	FieldValidationStrict = "Strict"
)

// GetOptions mirrors metav1.GetOptions: the query of a GET on one object. ResourceVersion ""
// reads the latest state, "0" any cached state (docs/behaviour/wire.md L6).
type GetOptions struct {
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// CreateOptions mirrors metav1.CreateOptions: the query of a POST (docs/behaviour/wire.md C1).
type CreateOptions struct {
	DryRun          []string `json:"dryRun,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// UpdateOptions mirrors metav1.UpdateOptions: the query of a PUT (docs/behaviour/wire.md P6).
type UpdateOptions struct {
	DryRun          []string `json:"dryRun,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// PatchOptions mirrors metav1.PatchOptions: the query of a PATCH (docs/behaviour/wire.md X1, X2). Force
// matters only to server-side apply.
type PatchOptions struct {
	DryRun          []string `json:"dryRun,omitempty"`
	Force           *bool    `json:"force,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// The propagation policies of a delete; they mirror metav1.DeletePropagationOrphan,
// DeletePropagationBackground and DeletePropagationForeground.
const (
	DeletePropagationOrphan     = "Orphan"
	DeletePropagationBackground = "Background"
	DeletePropagationForeground = "Foreground"
)

// The finalizers the server adds for the garbage collector; they mirror
// metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

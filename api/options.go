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
// parses it from the URL, and the client side (listwatch, reflector) builds it. Field names
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
	DryRun             []string       `json:"dryRun,omitempty"`
}

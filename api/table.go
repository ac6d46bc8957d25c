package api

import "encoding/json"

// This file holds the meta.k8s.io/v1 kinds of server-side printing and metadata-only
// requests (docs/behaviour/wire.md N4, §7.4). kubectl asks for a Table and prints its rows verbatim.

// Table mirrors metav1.Table in apimachinery.
type Table struct {
	TypeMeta `json:",inline"`
	// ListMeta carries the list resourceVersion and paging fields: kubectl's -w starts from it.
	ListMeta `json:"metadata,omitempty"`

	// ColumnDefinitions has no omitempty: watch events after the first send
	// "columnDefinitions":null (docs/behaviour/wire.md W21).
	ColumnDefinitions []TableColumnDefinition `json:"columnDefinitions"`
	Rows              []TableRow              `json:"rows"`
}

// TableColumnDefinition mirrors metav1.TableColumnDefinition. Every member is always sent,
// even when empty.
type TableColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	// Priority 0 columns are shown by default; higher ones only with -o wide.
	Priority int32 `json:"priority"`
}

// TableRow mirrors metav1.TableRow. Object stays raw JSON (upstream: runtime.RawExtension),
// usually a PartialObjectMetadata; decode it with Scheme.Decode when needed.
type TableRow struct {
	// Cells hold one JSON value per column: string, number, bool or null.
	Cells      []any               `json:"cells"`
	Conditions []TableRowCondition `json:"conditions,omitempty"`
	Object     json.RawMessage     `json:"object,omitempty"`
}

// TableRowCondition mirrors metav1.TableRowCondition.
type TableRowCondition struct {
	Type    RowConditionType `json:"type"`
	Status  ConditionStatus  `json:"status"`
	Reason  string           `json:"reason,omitempty"`
	Message string           `json:"message,omitempty"`
}

// RowConditionType mirrors metav1.RowConditionType.
type RowConditionType string

// RowCompleted mirrors metav1.RowCompleted: the row's object has finished, e.g. a pod whose
// containers all exited.
const RowCompleted RowConditionType = "Completed"

// PartialObjectMetadata mirrors metav1.PartialObjectMetadata: an object reduced to its
// metadata, as the metadata client and Table rows carry it.
type PartialObjectMetadata struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
}

// PartialObjectMetadataList mirrors metav1.PartialObjectMetadataList.
type PartialObjectMetadataList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`

	Items []PartialObjectMetadata `json:"items"`
}

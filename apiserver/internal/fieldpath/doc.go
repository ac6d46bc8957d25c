// Package fieldpath holds the vocabulary of field ownership: path elements, paths, sets of
// paths, and the FieldsV1 encoding kube-apiserver stores in metadata.managedFields. It mirrors
// sigs.k8s.io/structured-merge-diff/v6 fieldpath (element.go, path.go, set.go, serialize.go,
// serialize-pe.go) and its value ordering (value/value.go Compare and Equals).
//
// Values (a set item's value, a map-list item's key values) are JSON values as the
// unstructured decoder gives them: nil, bool, int64, float64, string, []any, map[string]any.
// Integers and floats compare by numeric value, as structured-merge-diff compares them, so a
// key decoded from FieldsV1 (where every number is a float64) matches the int64 of an object.
//
// The contract:
//
//  1. Path elements order as upstream: field names, then keys, then values, then indexes;
//     within a kind by name, by key fields in order, by value order, by index.
//  2. A Set holds members (paths that end here) and children (paths that go on); the set
//     operations keep both sorted, so iteration and encoding need no sorting.
//  3. ToJSON writes FieldsV1 byte for byte as upstream: "." first for a member that also has
//     children, members and children merged in element order, values and keys through
//     encoding/json (HTML-escaped, map keys sorted). FromJSON reads it back, skipping keys of
//     an unknown element type as upstream does and failing on malformed ones, never panicking.
package fieldpath

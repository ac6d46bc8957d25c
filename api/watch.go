package api

import "encoding/json"

// WatchEvent mirrors metav1.WatchEvent: one newline-delimited JSON frame of a watch stream,
// {"type":"ADDED","object":{...}} (docs/behaviour/wire.md §4). It is the wire form only; decoded events
// are watch.Event in package api/watch. Object stays raw because its kind is known only
// after peeking inside it (see Scheme.Decode).
type WatchEvent struct {
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

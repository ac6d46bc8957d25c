package api

// Preserving what a typed view does not model when the object came in protobuf. The typed
// protobuf decoder (api/protobuf) keeps the object's whole message; its encoder puts the
// fields the Go struct has no field for back, level by level, by the rules of preserve.go.
// Encoded as JSON, the kept message is turned into JSON first, on demand.

// ProtobufToJSON turns the kept protobuf message of one kind into the object's JSON, for
// MarshalJSON. One is made per kind and shared by its objects, so reflect.DeepEqual finds
// two objects that keep equal messages equal. It has no counterpart in client-go, whose
// types are complete.
type ProtobufToJSON struct{ convert func([]byte) ([]byte, error) }

// NewProtobufToJSON wraps convert, which reads one message of a kind into its JSON. Ours
// alone, as ProtobufToJSON.
func NewProtobufToJSON(convert func([]byte) ([]byte, error)) *ProtobufToJSON {
	return &ProtobufToJSON{convert: convert}
}

// UnmodeledProtobuf returns an Unmodeled holding msg, the protobuf message (without
// envelope) a typed object was decoded from; toJSON turns it into JSON when the object is
// encoded as JSON. msg is shared and must never be changed. Ours alone, as
// ProtobufToJSON.
func UnmodeledProtobuf(msg []byte, toJSON *ProtobufToJSON) Unmodeled {
	return Unmodeled{pb: msg, toJSON: toJSON}
}

// Protobuf returns the kept protobuf message and true, or nil and false when the object was
// not decoded from protobuf. Like UnmodeledProtobuf it is ours alone.
func (u Unmodeled) Protobuf() ([]byte, bool) { return u.pb, u.pb != nil }

// IsJSON reports whether the object keeps the JSON it was decoded from. Ours alone, as
// ProtobufToJSON.
func (u Unmodeled) IsJSON() bool { return len(u.data) > 0 }

// json returns the JSON to merge the unmodeled members from: the kept JSON, or the kept
// protobuf message turned into JSON; nil when neither can be had.
func (u Unmodeled) json() []byte {
	if len(u.data) > 0 || u.pb == nil || u.toJSON == nil || u.toJSON.convert == nil {
		return u.data
	}
	out, err := u.toJSON.convert(u.pb)
	if err != nil {
		return nil
	}
	return out
}

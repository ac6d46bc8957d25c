package apiserver

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// The Kubernetes protobuf encoding (api/protobuf, descriptors from internal/builtinproto): what
// kube-apiserver speaks for every kind compiled into it, and what kubectl's generators and
// client-go's default rest.Config send. A body in protobuf is read into the same JSON tree the
// JSON decoder would have read, and goes on through the same decode, default, validate and
// store steps; a response in protobuf encodes the stored tree. Custom resources, Tables and
// patches stay JSON, as on the real server.

// protobufServable reports whether res has a protobuf encoding: a built-in kind whose
// message the descriptors hold.
func protobufServable(res *resource) bool {
	return res.Builtin && iprotobuf.Codec().Recognizes(res.Info.GVK())
}

// isProtobufType reports whether a Content-Type names the Kubernetes protobuf encoding.
func isProtobufType(ct string) bool {
	if ct == negotiation.ProtobufType { // what clients send: nothing to parse
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == negotiation.ProtobufType
}

// protobufBodyToJSON reads a protobuf request body as the kind kind (or DeleteOptions) and
// returns the JSON the same object would have been sent as. A body of another kind is the
// JSON decoder's 400.
func protobufBodyToJSON(body []byte, want api.GroupVersionKind) ([]byte, error) {
	tree, err := protobufBodyTree(body, want)
	if err != nil {
		return nil, err
	}
	return treeJSON(tree, len(body))
}

// protobufBodyTree reads a protobuf request body as the kind want into its JSON tree.
func protobufBodyTree(body []byte, want api.GroupVersionKind) (map[string]any, error) {
	gvk, tree, err := iprotobuf.Codec().Decode(body)
	if err != nil {
		return nil, decode.Unrecognized(want.Kind, err, body)
	}
	if gvk.Kind != want.Kind || (want.Version != "" && gvk.APIVersion() != want.APIVersion()) {
		return nil, api.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s", gvk.Kind, gvk.APIVersion(), want.Kind))
	}
	return tree, nil
}

// treeJSON is the JSON of a body's tree, sizeHint the body's length.
func treeJSON(tree map[string]any, sizeHint int) ([]byte, error) {
	// appendJSON writes json.Marshal's bytes without its reflection over interface values.
	data, err := appendJSON(make([]byte, 0, 2*sizeHint), tree)
	if err != nil {
		return nil, api.NewBadRequest(err.Error())
	}
	return data, nil
}

// writeObject answers with one stored object in the negotiated encoding.
func writeObject(w http.ResponseWriter, info requestInfo, code int, rec *record) {
	if info.out.Protobuf {
		msg, err := rec.Encoded(fmtProtobufMessage)
		if err != nil {
			writeError(w, api.NewInternalError(err))
			return
		}
		writeRawType(w, code, negotiation.ProtobufType, envelope(rec.Obj.GroupVersionKind(), msg))
		return
	}
	writeRaw(w, code, encodeObject(rec))
}

// encodeListProtobuf encodes a page as the kind's List message: its ListMeta (field 1),
// then each item's message (field 2), taken from the item's cached encoding, inside the
// envelope. So a LIST of 10k pods encodes no pod twice.
func (s *endpoints) encodeListProtobuf(res *resource, lr listResult) ([]byte, error) {
	meta := map[string]any{"resourceVersion": strconv.FormatUint(lr.RV, 10)}
	if lr.Continue != "" {
		meta["continue"] = lr.Continue
	}
	if lr.Remaining != nil {
		meta["remainingItemCount"] = *lr.Remaining
	}
	gvk := api.GroupVersionKind{Group: res.Info.Group, Version: res.Info.Version, Kind: res.Info.ListKindName()}
	codec := iprotobuf.Codec()
	head, err := codec.Marshal(gvk, map[string]any{"metadata": meta})
	if err != nil {
		return nil, err
	}
	items := make([][]byte, len(lr.Items))
	size := len(head)
	for i, r := range lr.Items {
		if items[i], err = r.Encoded(fmtProtobufMessage); err != nil {
			return nil, err
		}
		size += len(items[i]) + 2*binary.MaxVarintLen64
	}
	raw := make([]byte, 0, size)
	raw = append(raw, head...)
	for _, item := range items {
		raw = appendBytesField(raw, 2, item)
	}
	return envelope(gvk, raw), nil
}

// envelope wraps a message as the protobuf serializer does: the magic "k8s\x00", then a
// runtime.Unknown with typeMeta (1: apiVersion, kind), raw (2) and the empty contentEncoding
// (3) and contentType (4) the generated code always writes.
func envelope(gvk api.GroupVersionKind, raw []byte) []byte {
	return appendEnvelope(make([]byte, 0, envelopeLen(gvk, len(raw))), gvk, raw)
}

// appendEnvelope appends envelope(gvk, raw) to b.
func appendEnvelope(b []byte, gvk api.GroupVersionKind, raw []byte) []byte {
	return appendEnvelopeTail(appendEnvelopeHead(b, gvk), raw)
}

// appendEnvelopeHead appends the envelope up to its raw field: the magic and the typeMeta.
func appendEnvelopeHead(b []byte, gvk api.GroupVersionKind) []byte {
	apiVersion := gvk.APIVersion()
	b = append(b, "k8s\x00"...)
	b = append(b, 0x0a) // Unknown.typeMeta
	b = binary.AppendUvarint(b, uint64(typeMetaLen(apiVersion, gvk.Kind)))
	b = appendBytesField(b, 1, []byte(apiVersion))
	return appendBytesField(b, 2, []byte(gvk.Kind))
}

// appendEnvelopeTail appends the rest of the envelope after its head: raw, and the empty
// contentEncoding and contentType.
func appendEnvelopeTail(b []byte, raw []byte) []byte {
	b = appendBytesField(b, 2, raw) // Unknown.raw
	return append(b, 0x1a, 0x00, 0x22, 0x00)
}

// envelopeLen is len(envelope(gvk, raw)) for a raw of n bytes.
func envelopeLen(gvk api.GroupVersionKind, n int) int {
	tm := typeMetaLen(gvk.APIVersion(), gvk.Kind)
	return 4 + 1 + uvarintLen(tm) + tm + 1 + uvarintLen(n) + n + 4
}

func typeMetaLen(apiVersion, kind string) int {
	return 1 + uvarintLen(len(apiVersion)) + len(apiVersion) + 1 + uvarintLen(len(kind)) + len(kind)
}

// protobufErrors marks a response whose errors go in protobuf: the request negotiated it.
type protobufErrors struct {
	http.ResponseWriter
}

// Unwrap lets http.ResponseController reach the connection (flushes, deadlines).
func (p protobufErrors) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// Flush flushes the connection, so a watch can stream through the wrapper.
func (p protobufErrors) Flush() {
	if f, ok := p.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// writeProtobufStatus writes a Status in protobuf; ok is false when w did not negotiate it.
func writeProtobufStatus(w http.ResponseWriter, code int, st *api.Status) bool {
	if _, ok := w.(protobufErrors); !ok {
		return false
	}
	data, err := json.Marshal(st)
	if err != nil {
		return false
	}
	var tree map[string]any
	if json.Unmarshal(data, &tree) != nil {
		return false
	}
	convertFloats(tree)
	b, err := iprotobuf.Codec().Encode(api.GroupVersionKind{Version: "v1", Kind: "Status"}, tree)
	if err != nil {
		return false
	}
	writeRawType(w, code, negotiation.ProtobufType, b)
	return true
}

// convertFloats turns the whole float64 numbers of a tree decoded by encoding/json into
// int64, as the stored trees hold them.
func convertFloats(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if f, ok := e.(float64); ok && f == float64(int64(f)) {
				t[k] = int64(f)
			} else {
				convertFloats(e)
			}
		}
	case []any:
		for i, e := range t {
			if f, ok := e.(float64); ok && f == float64(int64(f)) {
				t[i] = int64(f)
			} else {
				convertFloats(e)
			}
		}
	}
}

// writeStatusBody answers with a Status that is the result, not an error (a DELETE's
// Success), in the negotiated encoding.
func writeStatusBody(w http.ResponseWriter, code int, st *api.Status) {
	if writeProtobufStatus(w, code, st) {
		return
	}
	writeJSON(w, code, st)
}

// appendProtobufFrame appends one event of a protobuf watch to b: a 4-byte big-endian
// length, then a meta/v1 WatchEvent (type = 1, object = 2: a RawExtension whose raw, field
// 1, holds the object's enveloped encoding). A stored object's encoding is made once and
// shared by every watcher, as its JSON is; the frame around it is a few bytes.
func (h *httpSink) appendProtobufFrame(b []byte, typ watch.EventType, rec *record, obj api.Object) []byte {
	var head, objBytes []byte // the envelope's head and the message, or the whole envelope
	var err error
	objLen := 0
	if rec != nil {
		if head, err = rec.Encoded(fmtProtobufHead); err == nil {
			objBytes, err = rec.Encoded(fmtProtobufMessage)
		}
		// The envelope: its head, then raw (tag, length, message), then 4 bytes of empty
		// contentEncoding and contentType.
		objLen = len(head) + 1 + uvarintLen(len(objBytes)) + len(objBytes) + 4
	} else {
		objBytes, err = encodeGoObject(obj)
		objLen = len(objBytes)
	}
	if err != nil {
		// An object the descriptors cannot encode: say so in the stream, as an ERROR event.
		st := api.NewInternalError(err)
		typ, rec = watch.Error, nil
		objBytes, _ = encodeGoObject(st)
		objLen = len(objBytes)
	}
	rawLen := 1 + uvarintLen(objLen) + objLen
	eventLen := 1 + uvarintLen(len(typ)) + len(typ) + 1 + uvarintLen(rawLen) + rawLen
	b = binary.BigEndian.AppendUint32(b, uint32(eventLen))
	b = append(b, 0x0a) // WatchEvent.type
	b = binary.AppendUvarint(b, uint64(len(typ)))
	b = append(b, typ...)
	b = append(b, 0x12) // WatchEvent.object, a RawExtension
	b = binary.AppendUvarint(b, uint64(rawLen))
	b = append(b, 0x0a) // RawExtension.raw
	b = binary.AppendUvarint(b, uint64(objLen))
	if rec != nil {
		return appendEnvelopeTail(append(b, head...), objBytes)
	}
	return append(b, objBytes...)
}

// uvarintLen is the length of x as a protobuf varint.
func uvarintLen(x int) int {
	n := 1
	for u := uint64(x); u >= 0x80; u >>= 7 {
		n++
	}
	return n
}

// appendBytesField appends a length-delimited field (wire type 2).
func appendBytesField(b []byte, num int, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// encodeGoObject encodes an object that is not stored (a bookmark, a Status) through its JSON.
func encodeGoObject(obj api.Object) ([]byte, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var tree map[string]any
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, err
	}
	convertFloats(tree)
	gvk := obj.GetObjectKind().GroupVersionKind()
	if _, ok := obj.(*api.Status); ok {
		gvk = api.GroupVersionKind{Version: "v1", Kind: "Status"}
	}
	return iprotobuf.Codec().Encode(gvk, tree)
}

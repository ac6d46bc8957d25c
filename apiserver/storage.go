package apiserver

import (
	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/apiserver/storage"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// The glue between the endpoints and the storage layer (package storage): a served
// resource is a ResourceInfo over one storage.Collection, and stored records are encoded
// through storedCodec, which the storage caches per record.

type (
	record = storage.Record
	event  = storage.Event
)

// The formats storedCodec knows, cached on every record: one JSON and one protobuf encoding
// per stored version. The protobuf envelope of a GET or a watch event is written around the
// cached message (appendEnvelope), so it is not a second copy.
const (
	fmtJSON            storage.Format = iota // the object's JSON, kind and apiVersion included (N6)
	fmtProtobufMessage                       // the protobuf message without the envelope
	// fmtProtobufHead is the envelope's bytes before the message: "k8s\x00" and the
	// typeMeta, a few dozen bytes. A watch frame is written from it and the message, so
	// no watcher reads the object's apiVersion and kind out of its map again.
	fmtProtobufHead
)

// storedCodec encodes stored objects for the wire.
type storedCodec struct{}

func (storedCodec) Encode(obj *api.Unstructured, f storage.Format) ([]byte, error) {
	switch f {
	case fmtProtobufMessage:
		return iprotobuf.Codec().Marshal(obj.GroupVersionKind(), obj.Object)
	case fmtProtobufHead:
		return appendEnvelopeHead(nil, obj.GroupVersionKind()), nil
	}
	return encodeStored(obj.Object)
}

// jsonOf returns a record's JSON. Stored objects come from JSON or from typed structs, so it
// cannot fail; an encodable placeholder keeps a stream valid if it ever does.
func jsonOf(r *record) []byte {
	b, err := r.Encoded(fmtJSON)
	if err != nil {
		return []byte(`{}`)
	}
	return b
}

// resource is one served resource, as the registry keeps it.
type resource = registry.Resource

func objectKey(namespace, name string) string { return storage.ObjectKey(namespace, name) }

// Compact drops the history up to and including rv, as an etcd compaction does: watches and
// Exact lists from an older RV, and continue tokens made before it, then get 410 Expired.
// rv beyond the current revision compacts everything.
func (s *Server) Compact(rv uint64) { s.store.Compact(rv) }

// CompactAll drops the whole history: only the current revision can be watched from.
func (s *Server) CompactAll() { s.store.Compact(s.store.ResourceVersion()) }

// ResourceVersion returns the current global revision.
func (s *Server) ResourceVersion() uint64 { return s.store.ResourceVersion() }

// OldestResourceVersion returns the oldest RV a watch may start from without 410: every
// event after it is retained.
func (s *Server) OldestResourceVersion() uint64 { return s.store.OldestResourceVersion() }

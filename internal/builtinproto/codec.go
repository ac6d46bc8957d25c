package builtinproto

import (
	"io"
	"sync"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
)

// ContentType is the protobuf media type: application/vnd.kubernetes.protobuf.
const ContentType = pb.ContentType

var (
	defaultOnce  sync.Once
	defaultCodec *pb.Codec
	defaultErr   error
)

// DescriptorFiles returns every embedded descriptor, keyed by proto package: the argument
// api/protobuf.NewCodec takes.
func DescriptorFiles() map[string][]byte {
	files := map[string][]byte{}
	for _, p := range Packages() {
		if data, ok := Descriptor(p); ok {
			files[p] = data
		}
	}
	return files
}

// Codec returns the codec of the embedded descriptors, built once on first use and shared:
// a *Codec is safe for concurrent use. The embedded files are checked by tests, so an error
// here means a broken build.
func Codec() *pb.Codec {
	defaultOnce.Do(func() {
		defaultCodec, defaultErr = pb.NewCodec(DescriptorFiles())
	})
	if defaultErr != nil {
		panic("internal/builtinproto: embedded descriptors do not compile: " + defaultErr.Error())
	}
	return defaultCodec
}

// Decode mirrors Serializer.Decode of runtime/serializer/protobuf: it reads an enveloped
// object into the JSON tree encoding/json writes for the same Go object (see
// api/protobuf.Codec.Decode).
func Decode(data []byte) (api.GroupVersionKind, map[string]any, error) {
	return Codec().Decode(data)
}

// Encode mirrors Serializer.Encode of runtime/serializer/protobuf: the bytes k8s.io/api's
// generated Marshal writes for the object, inside the envelope (see
// api/protobuf.Codec.Encode).
func Encode(gvk api.GroupVersionKind, obj map[string]any) ([]byte, error) {
	return Codec().Encode(gvk, obj)
}

// EncodeWatchEvent writes one protobuf watch frame's content (see
// api/protobuf.Codec.EncodeWatchEvent).
func EncodeWatchEvent(eventType string, gvk api.GroupVersionKind, obj map[string]any) ([]byte, error) {
	return Codec().EncodeWatchEvent(eventType, gvk, obj)
}

// DecodeWatchEvent reads one protobuf watch frame's content (see
// api/protobuf.Codec.DecodeWatchEvent).
func DecodeWatchEvent(frame []byte) (string, api.GroupVersionKind, map[string]any, error) {
	return Codec().DecodeWatchEvent(frame)
}

// Recognizes reports whether a kind has a message descriptor: built-in kinds do, custom
// resources and Tables do not.
func Recognizes(gvk api.GroupVersionKind) bool { return Codec().Recognizes(gvk) }

// NewLengthDelimitedFrameWriter mirrors framer.NewLengthDelimitedFrameWriter.
func NewLengthDelimitedFrameWriter(w io.Writer) io.Writer {
	return pb.NewLengthDelimitedFrameWriter(w)
}

// NewLengthDelimitedFrameReader mirrors framer.NewLengthDelimitedFrameReader, with frames
// limited to maxFrameSize bytes (pb.DefaultMaxFrameSize when it is 0 or less).
func NewLengthDelimitedFrameReader(r io.ReadCloser, maxFrameSize int) *pb.LengthDelimitedFrameReader {
	if maxFrameSize <= 0 {
		maxFrameSize = pb.DefaultMaxFrameSize
	}
	return pb.NewLengthDelimitedFrameReaderSize(r, maxFrameSize)
}

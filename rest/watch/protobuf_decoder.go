package watch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/builtinproto"
)

// NewProtobufDecoder is NewDecoder for a watch in the Kubernetes protobuf encoding
// (Content-Type application/vnd.kubernetes.protobuf;stream=watch): it mirrors NewDecoder in
// client-go rest/watch/decoder.go stacked on the length-delimited framer of apimachinery
// util/framer instead of the JSON one. Each frame is a meta/v1 WatchEvent; its object is
// decoded through the same Scheme as a JSON watch's, so the events are the same Go objects.
func NewProtobufDecoder(body io.ReadCloser, opts DecoderOptions) Decoder {
	s := opts.Scheme
	if s == nil {
		s = api.DefaultScheme
	}
	max := opts.MaxFrameBytes
	if max <= 0 {
		max = DefaultMaxFrameBytes
	}
	return &protobufWatchDecoder{body: body, frames: pb.NewLengthDelimitedFrameReaderSize(body, max), scheme: s}
}

type protobufWatchDecoder struct {
	body   io.ReadCloser
	frames *pb.LengthDelimitedFrameReader
	scheme *api.Scheme
}

// Decode reads the next frame, with the JSON decoder's rules for types and objects.
func (d *protobufWatchDecoder) Decode() (watch.EventType, api.Object, error) {
	frame, err := d.frames.ReadFrame()
	if err != nil {
		return "", nil, err
	}
	if t, obj, ok, err := d.decodeTyped(frame); ok {
		return t, obj, err
	}
	typ, _, tree, err := builtinproto.Codec().DecodeWatchEvent(frame)
	if err != nil {
		return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event: %w", err)}
	}
	raw, err := json.Marshal(tree)
	if err != nil {
		return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event: %w", err)}
	}
	return decodeEvent(d.scheme, watch.EventType(typ), raw)
}

// decodeTyped reads an event whose object is an enveloped kind the Scheme has a Go type
// for straight into that type, with no JSON between (ok true); any other event (an ERROR's
// Status, a custom resource, a JSON object, a Go type the typed path does not serve) is
// left to the tree path (ok false).
func (d *protobufWatchDecoder) decodeTyped(frame []byte) (watch.EventType, api.Object, bool, error) {
	typ, raw, err := pb.WatchEventObject(frame)
	if err != nil || !pb.IsEnveloped(raw) {
		return "", nil, false, nil
	}
	t := watch.EventType(typ)
	if t == watch.Error {
		return "", nil, false, nil
	}
	if err := checkEventType(t); err != nil {
		return "", nil, true, err
	}
	gvk, err := pb.PeekKind(raw)
	if err != nil || !d.scheme.Recognizes(gvk) {
		return "", nil, false, nil
	}
	obj, err := d.scheme.New(gvk)
	if err != nil {
		return "", nil, false, nil
	}
	if _, err := builtinproto.Codec().DecodeInto(raw, obj); err != nil {
		if errors.Is(err, pb.ErrNotTyped) {
			return "", nil, false, nil
		}
		return "", nil, true, &streamDecodeError{fmt.Errorf("unable to decode watch event: %w", err)}
	}
	return t, obj, true, nil
}

// Close closes the body, which unblocks a Decode waiting for bytes.
func (d *protobufWatchDecoder) Close() { _ = d.body.Close() }

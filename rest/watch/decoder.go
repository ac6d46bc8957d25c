package watch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/rest/internal/wire"
)

// Decoder mirrors watch.Decoder in apimachinery pkg/watch/streamwatcher.go: the source of a
// StreamWatcher. Decode blocks for the next event; Close unblocks it.
type Decoder interface {
	Decode() (watch.EventType, api.Object, error)
	Close()
}

// DecoderOptions configures NewDecoder. Nothing in client-go mirrors it as a whole: it
// gathers what client-go takes from the client's NegotiatedSerializer (the Scheme) and from
// the streaming decoder (its 16 MiB maxBytes).
type DecoderOptions struct {
	// Scheme decodes event objects; nil means api.DefaultScheme. Unknown kinds become
	// *api.Unstructured.
	Scheme *api.Scheme
	// MaxFrameBytes bounds one event; 0 means DefaultMaxFrameBytes.
	MaxFrameBytes int
}

// NewDecoder mirrors NewDecoder in client-go rest/watch/decoder.go, stacked on the JSON
// framer of apimachinery util/framer: it reads the newline-delimited {"type":…,"object":…}
// frames of a watch body and decodes each object through the Scheme.
func NewDecoder(body io.ReadCloser, opts DecoderOptions) Decoder {
	s := opts.Scheme
	if s == nil {
		s = api.DefaultScheme
	}
	return &jsonWatchDecoder{body: body, frames: newJSONFrameReader(body, opts.MaxFrameBytes), scheme: s}
}

// streamDecodeError marks an error in the stream's content (as opposed to a failed read):
// it always reaches the consumer as an ERROR event.
type streamDecodeError struct{ err error }

func (e *streamDecodeError) Error() string { return e.err.Error() }
func (e *streamDecodeError) Unwrap() error { return e.err }

// wireEventType decodes the "type" member without allocating for the five known types.
type wireEventType struct{ t watch.EventType }

var knownEventTypes = []watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error}

func (w *wireEventType) UnmarshalJSON(data []byte) error {
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		inner := data[1 : len(data)-1]
		for _, t := range knownEventTypes {
			if string(inner) == string(t) { // no allocation: the compiler compares in place
				w.t = t
				return nil
			}
		}
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("event type must be a string, got %s", wire.Quote(data))
	}
	w.t = watch.EventType(s)
	return nil
}

// wireEvent is api.WatchEvent with a type that decodes without allocating. One is reused
// for every frame: json.RawMessage reuses its capacity.
type wireEvent struct {
	Type   wireEventType   `json:"type"`
	Object json.RawMessage `json:"object"`
}

type jsonWatchDecoder struct {
	body   io.ReadCloser
	frames *jsonFrameReader
	scheme *api.Scheme
	event  wireEvent
}

// Decode mirrors Decoder.Decode in client-go rest/watch/decoder.go: the event type must be
// one of the five known ones and the object must carry a kind (N6). An ERROR event's object
// is always an *api.Status (LW-5).
func (d *jsonWatchDecoder) Decode() (watch.EventType, api.Object, error) {
	frame, err := d.frames.next()
	if err != nil {
		return "", nil, err
	}
	d.event.Type = wireEventType{}
	d.event.Object = d.event.Object[:0]
	if err := json.Unmarshal(frame, &d.event); err != nil {
		return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event %s: %w", wire.Quote(frame), err)}
	}
	t := d.event.Type.t
	if t == "" {
		return "", nil, &streamDecodeError{fmt.Errorf("watch event has no type: %s", wire.Quote(frame))}
	}
	raw := d.event.Object
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		if err := checkEventType(t); err != nil {
			return "", nil, err
		}
		return "", nil, &streamDecodeError{fmt.Errorf("%s watch event has no object", t)}
	}
	return decodeEvent(d.scheme, t, raw)
}

// checkEventType accepts the five event types a watch may carry.
func checkEventType(t watch.EventType) error {
	switch t {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error:
		return nil
	case "":
		return &streamDecodeError{fmt.Errorf("watch event has no type")}
	}
	return &streamDecodeError{fmt.Errorf("got invalid watch event type: %v", t)}
}

// decodeEvent decodes one event's object, in JSON, whatever the stream's encoding: an ERROR
// event's is always an *api.Status (LW-5), any other goes through the Scheme.
func decodeEvent(s *api.Scheme, t watch.EventType, raw []byte) (watch.EventType, api.Object, error) {
	if err := checkEventType(t); err != nil {
		return "", nil, err
	}
	if t == watch.Error {
		st, err := wire.DecodeStatus(raw)
		if err != nil {
			return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event: %w", err)}
		}
		return t, st, nil
	}
	obj, err := s.Decode(raw)
	if err != nil {
		return "", nil, &streamDecodeError{fmt.Errorf("unable to decode watch event: %w", err)}
	}
	return t, obj, nil
}

// Close closes the body, which unblocks a Decode waiting for bytes.
func (d *jsonWatchDecoder) Close() { _ = d.body.Close() }

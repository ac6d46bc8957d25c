package protobuf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// EncodeWatchEvent writes one watch event as the apiserver's protobuf watch does: a bare
// meta/v1 WatchEvent message (the stream serializer adds no envelope) whose object's raw
// bytes are the enveloped encoding of the object, as Encode writes it. Frame the result
// with a LengthDelimitedFrameWriter.
func (c *Codec) EncodeWatchEvent(eventType string, gvk api.GroupVersionKind, obj map[string]any) ([]byte, error) {
	return c.AppendWatchEvent(nil, eventType, gvk, obj)
}

// AppendWatchEvent is EncodeWatchEvent appending to dst.
func (c *Codec) AppendWatchEvent(dst []byte, eventType string, gvk api.GroupVersionKind, obj map[string]any) ([]byte, error) {
	b := appendStringField(dst, 1, eventType)
	b, ext := beginNested(b, 2)
	b, raw := beginNested(b, 1)
	b, err := c.AppendEncode(b, gvk, obj)
	if err != nil {
		return dst, err
	}
	b = endNested(b, raw)
	return endNested(b, ext), nil
}

// DecodeWatchEvent reads one frame written by EncodeWatchEvent, as client-go's watch
// decoder does: the WatchEvent, then its object's enveloped bytes.
func (c *Codec) DecodeWatchEvent(frame []byte) (eventType string, gvk api.GroupVersionKind, obj map[string]any, err error) {
	r := reader{b: frame}
	var raw []byte
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return "", gvk, nil, err
		}
		if num > 2 {
			if err := r.skip(wt); err != nil {
				return "", gvk, nil, err
			}
			continue
		}
		if wt != wireBytes {
			return "", gvk, nil, fmt.Errorf("protobuf: WatchEvent: wrong wire type %d for field %d", wt, num)
		}
		v, err := r.bytes()
		if err != nil {
			return "", gvk, nil, err
		}
		if num == 1 {
			eventType = string(v)
			continue
		}
		if raw, err = rawOf(v); err != nil {
			return "", gvk, nil, err
		}
	}
	if raw == nil {
		return eventType, gvk, nil, errors.New("protobuf: WatchEvent without an object")
	}
	d := newDecoder(c, frame)
	if bytes.HasPrefix(raw, magic) {
		gvk, obj, err = d.envelope(raw)
		return eventType, gvk, obj, err
	}
	// an object embedded as JSON, which a JSON-encoded object in a protobuf stream would be
	v, err := parseJSON(raw)
	if err != nil {
		return "", gvk, nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "", gvk, nil, errors.New("protobuf: WatchEvent object is not a JSON object")
	}
	av, _ := obj["apiVersion"].(string)
	gvk.Kind, _ = obj["kind"].(string)
	gvk.Version = av
	if i := strings.LastIndexByte(av, '/'); i >= 0 {
		gvk.Group, gvk.Version = av[:i], av[i+1:]
	}
	return eventType, gvk, obj, nil
}

// rawOf reads field 1 (raw) of a RawExtension; nil when absent.
func rawOf(data []byte) ([]byte, error) {
	r := reader{b: data}
	var raw []byte
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return nil, err
		}
		if num != 1 {
			if err := r.skip(wt); err != nil {
				return nil, err
			}
			continue
		}
		if wt != wireBytes {
			return nil, fmt.Errorf("protobuf: RawExtension: wrong wire type %d", wt)
		}
		if raw, err = r.bytes(); err != nil {
			return nil, err
		}
		if raw == nil {
			raw = []byte{}
		}
	}
	return raw, nil
}

// watchEvent writes a WatchEvent tree ({"type", "object"}) met inside Encode: its object is
// embedded enveloped when it names a kind this codec knows, as JSON otherwise.
func (e *encoder) watchEvent(b []byte, obj map[string]any) ([]byte, error) {
	t, _ := obj["type"].(string)
	b = appendStringField(b, 1, t)
	b, ext := beginNested(b, 2)
	o := obj["object"]
	if o == nil {
		return endNested(b, ext), nil
	}
	if om, ok := o.(map[string]any); ok {
		if gvk, ok := gvkOf(om); ok && e.c.Recognizes(gvk) {
			var raw int
			b, raw = beginNested(b, 1)
			var err error
			if b, err = e.c.appendEncode(b, gvk, om, e.depth+1); err != nil {
				return b, err
			}
			b = endNested(b, raw)
			return endNested(b, ext), nil
		}
	}
	j, err := json.Marshal(o)
	if err != nil {
		return b, err
	}
	b = appendBytesField(b, 1, j)
	return endNested(b, ext), nil
}

// watchEvent reads a WatchEvent met inside Decode.
func (d *decoder) watchEvent(data []byte, out map[string]any) error {
	r := reader{b: data}
	out["type"], out["object"] = "", nil
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return err
		}
		if num > 2 {
			if err := r.skip(wt); err != nil {
				return err
			}
			continue
		}
		if wt != wireBytes {
			return fmt.Errorf("protobuf: WatchEvent: wrong wire type %d for field %d", wt, num)
		}
		v, err := r.bytes()
		if err != nil {
			return err
		}
		if num == 1 {
			out["type"] = d.str(v)
			continue
		}
		raw, err := rawOf(v)
		if err != nil {
			return err
		}
		switch {
		case raw == nil:
			out["object"] = nil
		case bytes.HasPrefix(raw, magic):
			_, o, err := d.envelope(raw)
			if err != nil {
				return err
			}
			out["object"] = o
		default:
			o, err := parseJSON(raw)
			if err != nil {
				return err
			}
			out["object"] = o
		}
	}
	return nil
}

func gvkOf(obj map[string]any) (api.GroupVersionKind, bool) {
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	if av == "" || k == "" {
		return api.GroupVersionKind{}, false
	}
	gvk := api.GroupVersionKind{Version: av, Kind: k}
	if i := strings.LastIndexByte(av, '/'); i >= 0 {
		gvk.Group, gvk.Version = av[:i], av[i+1:]
	}
	return gvk, true
}

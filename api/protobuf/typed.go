package protobuf

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// DecodeInto reads enveloped data, as Decode does, into obj: a pointer to a Go struct
// whose fields mirror the kind's message by their json names (api.Pod, api.PodList, …).
// obj is reset first; its TypeMeta is set from the envelope, and a struct with an
// api.Unmodeled field keeps its message for the fields it does not model. It mirrors
// Serializer.Decode into a typed object, with the generated Unmarshal; ErrNotTyped says
// the tree path (Decode) must serve this Go type.
func (c *Codec) DecodeInto(data []byte, obj any) (api.GroupVersionKind, error) {
	u, gvk, err := readEnvelope(data)
	if err != nil {
		return gvk, err
	}
	return gvk, c.UnmarshalInto(gvk, u.raw, obj)
}

// UnmarshalInto reads a message written by Marshal into obj, as DecodeInto does without the
// envelope; kind and apiVersion are set from gvk.
func (c *Codec) UnmarshalInto(gvk api.GroupVersionKind, data []byte, obj any) error {
	m, err := c.messageFor(gvk)
	if err != nil {
		return err
	}
	t, ptr, err := typedTarget(obj)
	if err != nil {
		return err
	}
	p, err := c.planFor(t, m)
	if err != nil {
		return err
	}
	reflect.ValueOf(obj).Elem().SetZero()
	d := newTDecoder(data)
	if err := d.message(p, d.src, ptr); err != nil {
		reflect.ValueOf(obj).Elem().SetZero()
		return err
	}
	if p.hasTypeMeta {
		tm := (*api.TypeMeta)(addr(ptr, p.typeMeta))
		tm.APIVersion, tm.Kind = gvk.APIVersion(), gvk.Kind
	}
	return nil
}

// SupportsTyped reports whether the typed path serves obj's Go type for gvk: Recognizes
// for a Go type, as RecognizingDecoder.RecognizesData is for data.
func (c *Codec) SupportsTyped(gvk api.GroupVersionKind, obj any) bool {
	m, err := c.messageFor(gvk)
	if err != nil {
		return false
	}
	t, _, err := typedTarget(obj)
	if err != nil {
		return false
	}
	_, err = c.planFor(t, m)
	return err == nil
}

// EncodeTyped writes obj, a pointer to a Go struct as DecodeInto takes, with the bytes
// Encode writes for the same object: it mirrors Serializer.Encode with the generated
// Marshal of k8s.io/api.
func (c *Codec) EncodeTyped(gvk api.GroupVersionKind, obj any) ([]byte, error) {
	return c.AppendEncodeTyped(nil, gvk, obj)
}

// AppendEncodeTyped is EncodeTyped appending to dst, so a caller can reuse a buffer.
func (c *Codec) AppendEncodeTyped(dst []byte, gvk api.GroupVersionKind, obj any) ([]byte, error) {
	b := append(dst, magic...)
	b, tm := beginNested(b, 1)
	b = appendStringField(b, 1, gvk.APIVersion())
	b = appendStringField(b, 2, gvk.Kind)
	b = endNested(b, tm)
	// The length of raw gets five bytes (any length under 32 GiB) and gives back what it
	// does not use: moving the content down keeps within the buffer, where moving it up
	// past one reserved byte would outgrow a buffer sized by the last encoding.
	b = append(b, 0x12, 0, 0, 0, 0, 0)
	start := len(b)
	b, err := c.appendMessageTyped(b, gvk, obj)
	if err != nil {
		return dst, err
	}
	n := len(b) - start
	sz := sizeVarint(uint64(n))
	b = slices.Delete(b, start-5+sz, start)
	putVarint(b[start-5:start-5+sz], uint64(n))
	return append(b, 0x1a, 0x00, 0x22, 0x00), nil
}

// MarshalTyped writes obj's message alone, as Marshal does for the tree: the generated
// Marshal method, and RawSerializer.Encode.
func (c *Codec) MarshalTyped(gvk api.GroupVersionKind, obj any) ([]byte, error) {
	return c.appendMessageTyped(nil, gvk, obj)
}

func (c *Codec) appendMessageTyped(b []byte, gvk api.GroupVersionKind, obj any) ([]byte, error) {
	m, err := c.messageFor(gvk)
	if err != nil {
		return b, err
	}
	t, ptr, err := typedTarget(obj)
	if err != nil {
		return b, err
	}
	p, err := c.planFor(t, m)
	if err != nil {
		return b, err
	}
	var e tencoder
	return e.message(b, p, ptr, nil)
}

// PeekKind reads the kind an enveloped object names, without decoding the object: the
// runtime.Unknown read that opens Serializer.Decode.
func PeekKind(data []byte) (api.GroupVersionKind, error) {
	_, gvk, err := readEnvelope(data)
	return gvk, err
}

// WatchEventObject splits one watch frame (see DecodeWatchEvent) into its type and its
// object's bytes: enveloped protobuf (IsEnveloped), or JSON. The object aliases frame. It
// mirrors the first half of client-go's watch Decoder.Decode: the metav1.WatchEvent
// unmarshalled, its RawExtension's bytes taken.
func WatchEventObject(frame []byte) (eventType string, object []byte, err error) {
	r := reader{b: frame}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return "", nil, err
		}
		if num > 2 {
			if err := r.skip(wt); err != nil {
				return "", nil, err
			}
			continue
		}
		if wt != wireBytes {
			return "", nil, fmt.Errorf("protobuf: WatchEvent: wrong wire type %d for field %d", wt, num)
		}
		v, err := r.bytes()
		if err != nil {
			return "", nil, err
		}
		if num == 1 {
			eventType = string(v)
			continue
		}
		if object, err = rawOf(v); err != nil {
			return "", nil, err
		}
	}
	if object == nil {
		return eventType, nil, errors.New("protobuf: WatchEvent without an object")
	}
	return eventType, object, nil
}

// IsEnveloped reports whether data starts with the protobuf envelope's prefix, the check
// of Serializer.RecognizesData.
func IsEnveloped(data []byte) bool { return bytes.HasPrefix(data, magic) }

// readEnvelope reads the envelope and the kind it names.
func readEnvelope(data []byte) (unknown, api.GroupVersionKind, error) {
	u, err := readUnknown(data)
	if err != nil {
		return u, api.GroupVersionKind{}, err
	}
	if u.contentEncoding != "" {
		return u, api.GroupVersionKind{}, fmt.Errorf("protobuf: unsupported content encoding %q", u.contentEncoding)
	}
	if u.kind == "" || u.apiVersion == "" {
		return u, api.GroupVersionKind{}, errors.New("protobuf: envelope without kind or apiVersion")
	}
	group, version := "", u.apiVersion
	if i := strings.LastIndexByte(u.apiVersion, '/'); i >= 0 {
		group, version = u.apiVersion[:i], u.apiVersion[i+1:]
	}
	return u, api.GroupVersionKind{Group: group, Version: version, Kind: u.kind}, nil
}

// unmarshalMessage reads a message of m into its JSON tree (Unmarshal by message).
func (c *Codec) unmarshalMessage(m *message, data []byte) (map[string]any, error) {
	d := newDecoder(c, data)
	v, err := d.value(m, data, nil)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("protobuf: %s is not an object kind", m.name)
	}
	return obj, nil
}

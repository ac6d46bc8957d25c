package protobuf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
)

// ContentType is the media type of the protobuf encoding, as the apiserver names it.
const ContentType = "application/vnd.kubernetes.protobuf"

// magic opens every enveloped message: "k8s" and a zero byte.
var magic = []byte{0x6b, 0x38, 0x73, 0x00}

const (
	metaPackage    = "k8s.io.apimachinery.pkg.apis.meta.v1"
	metaWatchEvent = metaPackage + ".WatchEvent"
)

var (
	// ErrBadMagic is returned for data that does not start with the protobuf envelope's
	// four-byte prefix.
	ErrBadMagic = errors.New("protobuf: data does not start with the k8s\\x00 prefix")
	// ErrUnknownKind is returned for a group, version and kind with no message descriptor:
	// custom resources and kinds the descriptors do not cover.
	ErrUnknownKind = errors.New("protobuf: no message for this kind")
)

// Codec encodes and decodes the JSON trees of built-in kinds as Kubernetes protobuf, driven
// by message descriptors. It is safe for concurrent use. It plays the part of
// runtime/serializer/protobuf's Serializer together with k8s.io/api's generated code.
type Codec struct {
	messages map[string]*message
	typed    typedPlans // the typed path's plans, built on first use (typed_plan.go)
	// byGVK caches messageFor's finds: every request asks it several times, and building
	// the package name allocates. Only finds are kept, so a body naming made-up kinds
	// cannot grow it past the number of messages.
	byGVK sync.Map // api.GroupVersionKind → *message
}

// NewCodec builds a codec from descriptor files (file name → JSON descriptor, the format
// tools/cmd/proto-gen writes). Every message a field refers to must be among them.
func NewCodec(descriptorFiles map[string][]byte) (*Codec, error) {
	msgs, err := compile(descriptorFiles)
	if err != nil {
		return nil, err
	}
	return &Codec{messages: msgs}, nil
}

// messageFor finds the message of a kind: in the proto package of its group and version,
// else among the meta/v1 kinds every group version serves (Status, DeleteOptions,
// WatchEvent, …).
func (c *Codec) messageFor(gvk api.GroupVersionKind) (*message, error) {
	if m, ok := c.byGVK.Load(gvk); ok {
		return m.(*message), nil
	}
	m, ok := c.messages[protoPackage(gvk.Group, gvk.Version)+"."+gvk.Kind]
	if !ok && gvk.Version == "v1" {
		m, ok = c.messages[metaPackage+"."+gvk.Kind]
	}
	if ok {
		c.byGVK.Store(gvk, m)
		return m, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnknownKind, gvk.APIVersion()+", Kind="+gvk.Kind)
}

// Recognizes reports whether the codec has a message for the kind. Mirrors
// RecognizingDecoder.RecognizesData in spirit: the server answers 415 for what it does not
// recognise.
func (c *Codec) Recognizes(gvk api.GroupVersionKind) bool {
	_, err := c.messageFor(gvk)
	return err == nil
}

// protoPackage maps an API group and version to the proto package of its types:
// "" v1 → k8s.io.api.core.v1, apps v1 → k8s.io.api.apps.v1, coordination.k8s.io v1 →
// k8s.io.api.coordination.v1, meta.k8s.io v1 → the apimachinery meta package. k8s.io/api
// keeps a group under the directory of its first label (rbac.authorization.k8s.io → rbac,
// flowcontrol.apiserver.k8s.io → flowcontrol); apiregistration.k8s.io is kube-aggregator's and
// apiextensions.k8s.io apiextensions-apiserver's.
// A group outside k8s.io keeps its whole name, so it cannot take a built-in package.
func protoPackage(group, version string) string {
	switch group {
	case "":
		return "k8s.io.api.core." + version
	case "meta.k8s.io":
		return "k8s.io.apimachinery.pkg.apis.meta." + version
	case "apiextensions.k8s.io":
		return "k8s.io.apiextensions-apiserver.pkg.apis.apiextensions." + version
	case "apiregistration.k8s.io":
		return "k8s.io.kube-aggregator.pkg.apis.apiregistration." + version
	case "rbac.authorization.k8s.io": // k8s.io/api/rbac
		return "k8s.io.api.rbac." + version
	}
	if first, _, dotted := strings.Cut(group, "."); !dotted || strings.HasSuffix(group, ".k8s.io") {
		return "k8s.io.api." + first + "." + version
	}
	return "k8s.io.api." + group + "." + version
}

// Encode writes obj as the protobuf serializer does: the prefix, then a runtime.Unknown
// whose typeMeta names gvk and whose raw is the object's message. Its bytes equal those of
// Serializer.Encode in k8s.io/apimachinery runtime/serializer/protobuf for the same object.
func (c *Codec) Encode(gvk api.GroupVersionKind, obj map[string]any) ([]byte, error) {
	return c.AppendEncode(nil, gvk, obj)
}

// AppendEncode is Encode appending to dst, so a caller can reuse a buffer.
func (c *Codec) AppendEncode(dst []byte, gvk api.GroupVersionKind, obj map[string]any) ([]byte, error) {
	return c.appendEncode(dst, gvk, obj, 0)
}

func (c *Codec) appendEncode(dst []byte, gvk api.GroupVersionKind, obj map[string]any, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, errors.New("protobuf: nested too deeply")
	}
	m, err := c.messageFor(gvk)
	if err != nil {
		return dst, err
	}
	b := append(dst, magic...)
	b, tm := beginNested(b, 1)
	b = appendStringField(b, 1, gvk.APIVersion())
	b = appendStringField(b, 2, gvk.Kind)
	b = endNested(b, tm)
	b, raw := beginNested(b, 2)
	e := encoder{c: c, depth: depth}
	if b, err = e.value(b, m, obj); err != nil {
		return dst, err
	}
	b = endNested(b, raw)
	// contentEncoding and contentType are written even when empty, as the generated code does
	return append(b, 0x1a, 0x00, 0x22, 0x00), nil
}

// Marshal writes obj's message alone, without prefix or envelope: the bytes of the
// generated Marshal method, and of RawSerializer.Encode.
func (c *Codec) Marshal(gvk api.GroupVersionKind, obj map[string]any) ([]byte, error) {
	m, err := c.messageFor(gvk)
	if err != nil {
		return nil, err
	}
	e := encoder{c: c}
	return e.value(nil, m, obj)
}

// Unmarshal reads a message written by Marshal into its JSON tree; it sets no kind or
// apiVersion, as the message does not carry them.
func (c *Codec) Unmarshal(gvk api.GroupVersionKind, data []byte) (map[string]any, error) {
	m, err := c.messageFor(gvk)
	if err != nil {
		return nil, err
	}
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

// Decode reads enveloped data, as Serializer.Decode does: it checks the prefix, reads the
// runtime.Unknown, finds the message of its kind and decodes raw into the JSON tree that
// encoding/json would write for the same Go object, with kind and apiVersion set from the
// envelope.
func (c *Codec) Decode(data []byte) (api.GroupVersionKind, map[string]any, error) {
	return newDecoder(c, data).envelope(data)
}

// unknown is the runtime.Unknown envelope.
type unknown struct {
	apiVersion, kind string
	raw              []byte
	contentEncoding  string
}

func readUnknown(data []byte) (unknown, error) {
	var u unknown
	if !bytes.HasPrefix(data, magic) {
		return u, ErrBadMagic
	}
	r := reader{b: data[len(magic):]}
	for !r.done() {
		num, wt, err := r.tag()
		if err != nil {
			return u, err
		}
		if num > 4 {
			if err := r.skip(wt); err != nil {
				return u, err
			}
			continue
		}
		if wt != wireBytes {
			return u, fmt.Errorf("protobuf: runtime.Unknown: wrong wire type %d for field %d", wt, num)
		}
		v, err := r.bytes()
		if err != nil {
			return u, err
		}
		switch num {
		case 1:
			if err := readTypeMeta(v, &u); err != nil {
				return u, err
			}
		case 2:
			u.raw = v
		case 3:
			u.contentEncoding = string(v)
		}
	}
	return u, nil
}

func readTypeMeta(data []byte, u *unknown) error {
	r := reader{b: data}
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
			return fmt.Errorf("protobuf: runtime.TypeMeta: wrong wire type %d for field %d", wt, num)
		}
		v, err := r.bytes()
		if err != nil {
			return err
		}
		if num == 1 {
			u.apiVersion = string(v)
		} else {
			u.kind = string(v)
		}
	}
	return nil
}

func (d *decoder) envelope(data []byte) (api.GroupVersionKind, map[string]any, error) {
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > maxDepth {
		return api.GroupVersionKind{}, nil, errors.New("protobuf: nested too deeply")
	}
	u, err := readUnknown(data)
	if err != nil {
		return api.GroupVersionKind{}, nil, err
	}
	if u.contentEncoding != "" {
		return api.GroupVersionKind{}, nil, fmt.Errorf("protobuf: unsupported content encoding %q", u.contentEncoding)
	}
	if u.kind == "" || u.apiVersion == "" {
		return api.GroupVersionKind{}, nil, errors.New("protobuf: envelope without kind or apiVersion")
	}
	gv := u.apiVersion
	group, version := "", gv
	if i := strings.LastIndexByte(gv, '/'); i >= 0 {
		group, version = gv[:i], gv[i+1:]
	}
	gvk := api.GroupVersionKind{Group: group, Version: version, Kind: u.kind}
	m, err := d.c.messageFor(gvk)
	if err != nil {
		return gvk, nil, err
	}
	v, err := d.value(m, u.raw, nil)
	if err != nil {
		return gvk, nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return gvk, nil, fmt.Errorf("protobuf: %s is not an object kind", m.name)
	}
	obj["apiVersion"] = u.apiVersion
	obj["kind"] = u.kind
	return gvk, obj, nil
}

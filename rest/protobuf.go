package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
	"github.com/informer-lab/informer-lab/internal/builtinproto"
)

// The Kubernetes protobuf encoding on the client side (Config.ContentType): bodies of the
// kinds the descriptors know are sent in protobuf, and a protobuf answer is read into the
// same JSON the server would have sent, so Result and the Scheme work unchanged. client-go
// picks a serializer from its NegotiatedSerializer the same way.

const (
	contentTypeJSON     = "application/json"
	contentTypeProtobuf = builtinproto.ContentType
	acceptProtobuf      = contentTypeProtobuf + ", " + contentTypeJSON
)

// contentTypeIsProtobuf reads Config.ContentType.
func contentTypeIsProtobuf(ct string) (bool, error) {
	switch mediaType(ct) {
	case "", contentTypeJSON:
		if ct != "" && mediaType(ct) == "" {
			return false, fmt.Errorf("rest: Config.ContentType %q is not a media type", ct)
		}
		return false, nil
	case contentTypeProtobuf:
		return true, nil
	}
	return false, fmt.Errorf("rest: Config.ContentType %q: want application/json or %s", ct, contentTypeProtobuf)
}

// isProtobuf reports whether a Content-Type is the protobuf encoding (a watch adds
// ";stream=watch").
func isProtobuf(contentType string) bool { return mediaType(contentType) == contentTypeProtobuf }

// encodeProtobuf turns the JSON of an object into its protobuf encoding; ok is false when
// the kind has no protobuf message (a custom resource), which then goes as JSON.
func encodeProtobuf(data []byte) ([]byte, bool, error) {
	u := &api.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		return nil, false, err
	}
	gvk := u.GroupVersionKind()
	codec := builtinproto.Codec()
	if !codec.Recognizes(gvk) {
		return nil, false, nil
	}
	out, err := codec.Encode(gvk, u.Object)
	return out, err == nil, err
}

// encodeProtobufTyped writes a typed object straight into protobuf, with no JSON between;
// ok is false when the typed path cannot (no Go type registered, a Go type it does not
// serve, an object that keeps the JSON it was read from), and the JSON route then serves.
func encodeProtobufTyped(s *api.Scheme, obj api.Object) ([]byte, bool) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" {
		var err error
		if gvk, err = s.ObjectKind(obj); err != nil {
			return nil, false
		}
	}
	if _, isStatus := obj.(*api.Status); isStatus || !builtinproto.Codec().Recognizes(gvk) {
		return nil, false
	}
	out, err := builtinproto.Codec().EncodeTyped(gvk, obj)
	return out, err == nil
}

// protobufToJSON reads an enveloped protobuf body as the JSON of the same object.
func protobufToJSON(body []byte) ([]byte, error) {
	gvk, tree, err := builtinproto.Codec().Decode(body)
	if err != nil {
		return nil, err
	}
	tree["kind"], tree["apiVersion"] = gvk.Kind, gvk.APIVersion()
	return json.Marshal(tree)
}

// keepProtobuf reports whether a protobuf answer is kept as it came rather than read into
// JSON on arrival: a successful one whose kind is not Status (a Status may be an error that
// the JSON path reports).
func keepProtobuf(code int, body []byte) bool {
	if code < http.StatusOK || code > http.StatusPartialContent {
		return false
	}
	gvk, err := pb.PeekKind(body)
	return err == nil && gvk.Kind != "Status"
}

// jsonBody returns the body as JSON, reading a kept protobuf answer into JSON.
func (r Result) jsonBody() ([]byte, error) {
	if r.pb == nil {
		return r.body, nil
	}
	data, err := protobufToJSON(r.pb)
	if err != nil {
		return nil, fmt.Errorf("decoding the protobuf response: %w", err)
	}
	return data, nil
}

// getProtobuf decodes a kept protobuf answer of a kind the Scheme has a Go type for straight
// into that type; done is false when the JSON path must serve it.
func (r Result) getProtobuf() (api.Object, bool, error) {
	if r.pb == nil {
		return nil, false, nil
	}
	gvk, err := pb.PeekKind(r.pb)
	if err != nil || !r.scheme.Recognizes(gvk) {
		return nil, false, nil
	}
	obj, err := r.scheme.New(gvk)
	if err != nil {
		return nil, false, nil
	}
	if _, err := builtinproto.Codec().DecodeInto(r.pb, obj); err != nil {
		if errors.Is(err, pb.ErrNotTyped) {
			return nil, false, nil
		}
		return nil, true, err
	}
	return obj, true, nil
}

// intoProtobuf decodes a kept protobuf answer into obj, a typed object of the answer's kind
// (the Scheme's DecodeInto rules); done is false when the JSON path must serve it.
func (r Result) intoProtobuf(obj api.Object) (bool, error) {
	if r.pb == nil {
		return false, nil
	}
	switch obj.(type) {
	case *api.Unstructured, *api.UnstructuredList:
		return false, nil
	}
	found, err := pb.PeekKind(r.pb)
	if err != nil {
		return false, nil
	}
	want, err := r.scheme.ObjectKind(obj)
	if err != nil || want != found {
		return false, nil // the JSON path reports the mismatch in its own words
	}
	if _, err := builtinproto.Codec().DecodeInto(r.pb, obj); err != nil {
		if errors.Is(err, pb.ErrNotTyped) {
			return false, nil
		}
		return true, err
	}
	return true, nil
}

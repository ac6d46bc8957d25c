package rest

import (
	"encoding/json"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
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

// protobufToJSON reads an enveloped protobuf body as the JSON of the same object.
func protobufToJSON(body []byte) ([]byte, error) {
	gvk, tree, err := builtinproto.Codec().Decode(body)
	if err != nil {
		return nil, err
	}
	tree["kind"], tree["apiVersion"] = gvk.Kind, gvk.APIVersion()
	return json.Marshal(tree)
}

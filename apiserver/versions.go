package apiserver

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
	"github.com/informer-lab/informer-lab/apiserver/internal/schema"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// A built-in kind served at a version other than the one it is stored at (autoscaling/v1
// HorizontalPodAutoscalers, stored at v2) goes through its kind's conversion, as the real
// server converts through the internal version: a create or update body is decoded at the
// version it was sent at (that version's schema decides what is unknown), converted and
// handed on; a patch is applied to the object as that version shows it; and every object of
// the answer (one object, a list's items, a table's row objects, each watch event), in JSON
// or protobuf, is converted back. Custom resources, whose versions differ only in their
// apiVersion, keep the simpler path of crd_versions.go.

// conversion is one built-in resource as a request at another version sees it.
type conversion struct {
	stored, asked api.GroupVersionKind // the kind at each version
	rest.Conversion
}

// builtinConversion returns the conversion for a request under group-version gv, or nil
// when gv is the stored version or the resource has no conversion to it.
func builtinConversion(res *resource, gv string) *conversion {
	if !res.Builtin {
		return nil
	}
	_, version, _ := splitGV(gv)
	c, ok := res.Conversion(version)
	if !ok || version == res.Info.Version {
		return nil
	}
	asked := res.Info.GVK()
	asked.Version = version
	return &conversion{stored: res.StorageGVK(), asked: asked, Conversion: c}
}

func splitGV(gv string) (group, version string, ok bool) {
	for i := len(gv) - 1; i >= 0; i-- {
		if gv[i] == '/' {
			return gv[:i], gv[i+1:], true
		}
	}
	return "", gv, false
}

// decode reads data as an object of the asked version, as the decoder of that version does,
// converts it, and decodes the result as the stored kind, the way a body is decoded.
func (c *conversion) decode(s *endpoints, res *resource, data []byte, fieldValidation string) (*api.Unstructured, []string, error) {
	converted, warnings, err := c.toStorageJSON(data, fieldValidation)
	if err != nil {
		return nil, nil, err
	}
	obj, more, err := s.decodeObject(res, converted, fieldValidation)
	return obj, append(warnings, more...), err
}

// toStorageJSON decodes data at the asked version and returns the stored version's JSON.
// A body of the stored version is returned as it is.
func (c *conversion) toStorageJSON(data []byte, fieldValidation string) ([]byte, []string, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
	}
	if json.Unmarshal(data, &head) == nil && head.APIVersion == c.stored.APIVersion() {
		return data, nil, nil
	}
	sch, ok := schema.ForKind(c.asked)
	if !ok {
		return data, nil, nil
	}
	u, warnings, err := decode.ObjectForStorage(data, sch, c.asked, fieldValidation)
	if err != nil {
		return nil, nil, err
	}
	c.ToStorage(u.Object)
	out, err := json.Marshal(u.Object)
	if err != nil {
		return nil, nil, api.NewBadRequest(err.Error())
	}
	return out, warnings, nil
}

// convertBody replaces a create or update body with the stored version's JSON. It reports
// false when it has answered with an error. A body it cannot read is left for the
// decoder to refuse.
func (s *endpoints) convertBody(w http.ResponseWriter, r *http.Request, info requestInfo, c *conversion) bool {
	optionsKind := decode.CreateOptionsKind
	if info.verb == "update" {
		optionsKind = decode.UpdateOptionsKind
	}
	wo, err := decode.ParseWriteOptions(optionsKind, r.URL.Query(), "")
	if err != nil || r.Body == nil {
		return true
	}
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, err)
		return false
	}
	if isProtobufType(r.Header.Get("Content-Type")) {
		gvk, tree, err := iprotobuf.Codec().Decode(body)
		if err != nil || gvk.Kind != c.asked.Kind {
			r.Body = io.NopCloser(bytes.NewReader(body))
			return true
		}
		if body, err = json.Marshal(tree); err != nil {
			writeError(w, api.NewBadRequest(err.Error()))
			return false
		}
		r.Header.Set("Content-Type", "application/json")
	}
	converted, warnings, err := c.toStorageJSON(body, wo.FieldValidation)
	if err != nil {
		writeError(w, err)
		return false
	}
	writeWarnings(w, warnings)
	r.Body = io.NopCloser(bytes.NewReader(converted))
	r.ContentLength = int64(len(converted))
	return true
}

// convertingWriter converts the objects of an answer from the stored version to the asked
// one. A watch is converted event by event as it streams; any other answer is held until
// the handler returns, then converted whole.
type convertingWriter struct {
	http.ResponseWriter
	c      *conversion
	stream bool
	code   int
	buf    bytes.Buffer
}

func (w *convertingWriter) WriteHeader(code int) {
	if w.stream {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.code = code
}

func (w *convertingWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	if !w.stream {
		return len(b), nil
	}
	return len(b), w.flushEvents(false)
}

// flushEvents writes every complete event held, converted: JSON events end with a newline,
// protobuf ones are length-prefixed frames. At the end, what remains goes out as it is.
func (w *convertingWriter) flushEvents(end bool) error {
	protobuf := isProtobufType(w.Header().Get("Content-Type"))
	for {
		data := w.buf.Bytes()
		var event []byte
		if protobuf {
			if len(data) < 4 || len(data) < 4+int(binary.BigEndian.Uint32(data)) {
				break
			}
			n := 4 + int(binary.BigEndian.Uint32(data))
			event = w.convertFrame(w.buf.Next(n))
		} else {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				break
			}
			event = w.convertJSON(w.buf.Next(i + 1))
		}
		if _, err := w.ResponseWriter.Write(event); err != nil {
			return err
		}
	}
	if end && w.buf.Len() > 0 {
		_, err := w.ResponseWriter.Write(w.buf.Bytes())
		w.buf.Reset()
		return err
	}
	return nil
}

// Flush and FlushError pass a watch's flush through.
func (w *convertingWriter) Flush() { _ = w.FlushError() }

func (w *convertingWriter) FlushError() error {
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *convertingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes a held answer, converted, or what remains of a stream.
func (w *convertingWriter) finish() {
	if w.stream {
		_ = w.flushEvents(true)
		return
	}
	if w.code == 0 && w.buf.Len() == 0 {
		return
	}
	if w.code == 0 {
		w.code = http.StatusOK
	}
	data := w.buf.Bytes()
	if mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type")); mt == negotiation.ProtobufType {
		data = w.convertProtobuf(data)
	} else {
		data = w.convertJSON(data)
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.ResponseWriter.WriteHeader(w.code)
	_, _ = w.ResponseWriter.Write(data)
}

// convertJSON converts the stored objects of a JSON document: the document itself, a list's
// items, a table's row objects or a watch event's object.
func (w *convertingWriter) convertJSON(data []byte) []byte {
	if !bytes.Contains(data, []byte(strconv.Quote(w.c.stored.APIVersion()))) {
		return data
	}
	var doc api.Unstructured
	if doc.UnmarshalJSON(data) != nil {
		return data
	}
	if !w.convertTree(doc.Object, 0) {
		return data
	}
	out, err := json.Marshal(doc.Object)
	if err != nil {
		return data
	}
	if bytes.HasSuffix(data, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

func (w *convertingWriter) convertTree(m map[string]any, depth int) bool {
	if depth > 4 {
		return false
	}
	if m["apiVersion"] == w.c.stored.APIVersion() {
		switch m["kind"] {
		case w.c.stored.Kind:
			w.c.FromStorage(m)
			return true
		case w.c.stored.Kind + "List":
			m["apiVersion"] = w.c.asked.APIVersion()
		}
	}
	changed := false
	items, _ := m["items"].([]any)
	for _, it := range items {
		if im, ok := it.(map[string]any); ok {
			changed = w.convertTree(im, depth+1) || changed
		}
	}
	rows, _ := m["rows"].([]any)
	for _, row := range rows {
		if obj, ok := row.(map[string]any)["object"].(map[string]any); ok {
			changed = w.convertTree(obj, depth+1) || changed
		}
	}
	if obj, ok := m["object"].(map[string]any); ok {
		changed = w.convertTree(obj, depth+1) || changed
	}
	return changed || m["apiVersion"] == w.c.asked.APIVersion()
}

// convertProtobuf converts an enveloped object or list of the stored version.
func (w *convertingWriter) convertProtobuf(data []byte) []byte {
	codec := iprotobuf.Codec()
	gvk, tree, err := codec.Decode(data)
	if err != nil || gvk.Group != w.c.stored.Group || gvk.Version != w.c.stored.Version {
		return data
	}
	switch gvk.Kind {
	case w.c.stored.Kind:
		w.c.FromStorage(tree)
	case w.c.stored.Kind + "List":
		items, _ := tree["items"].([]any)
		for _, it := range items {
			if im, ok := it.(map[string]any); ok {
				im["apiVersion"], im["kind"] = w.c.stored.APIVersion(), w.c.stored.Kind
				w.c.FromStorage(im)
				delete(im, "apiVersion")
				delete(im, "kind")
			}
		}
	default:
		return data
	}
	gvk.Version = w.c.asked.Version
	out, err := codec.Encode(gvk, tree)
	if err != nil {
		return data
	}
	return out
}

// convertFrame converts one length-prefixed protobuf watch event.
func (w *convertingWriter) convertFrame(frame []byte) []byte {
	codec := iprotobuf.Codec()
	typ, gvk, obj, err := codec.DecodeWatchEvent(frame[4:])
	if err != nil || gvk != w.c.stored {
		return frame
	}
	w.c.FromStorage(obj)
	event, err := codec.EncodeWatchEvent(typ, w.c.asked, obj)
	if err != nil {
		return frame
	}
	out := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(event)), uint32(len(event)))
	return append(out, event...)
}

// view returns a stored object's JSON as the asked version shows it.
func (c *conversion) view(data []byte) []byte {
	var u api.Unstructured
	if u.UnmarshalJSON(data) != nil {
		return data
	}
	c.FromStorage(u.Object)
	out, err := json.Marshal(u.Object)
	if err != nil {
		return data
	}
	return out
}

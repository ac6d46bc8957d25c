package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/apiextensions"
)

// The served versions of a CRD. Objects are stored once, at the storage version; a request
// at any other served version reaches the same storage through the CRD's converter, as the
// crConverter of k8s.io/apiextensions-apiserver does: with strategy None only apiVersion
// changes, with Webhook each object goes through the conversion webhook (a
// ConversionReview). A create or update body is decoded at the requested version and
// converted to the storage version (decodeCustom); every object in the answer (one object,
// a list's items, a table's row objects, each watch event) is converted to the requested
// version here. A webhook that fails makes the request a 500 InternalError carrying the
// real converter's message, and ends a watch. A request at a deprecated version gets the
// version's deprecation Warning.

// alsoServed reports, for a request under group-version gv, whether it reaches res at a
// version other than the one its objects are stored at, and returns the CRD's serving
// state, the stored apiVersion and the requested one.
func alsoServed(res *resource, gv string) (cs *apiextensions.Serving, stored, asked string, ok bool) {
	if res.CRDName == "" {
		return nil, "", "", false
	}
	if cs = res.CRD.Load(); cs == nil {
		return nil, "", "", false
	}
	stored = storedAPIVersion(res, cs)
	return cs, stored, gv, gv != stored
}

// convertJSON converts the objects of a JSON answer (an object, a list's items, a table's
// row objects, a watch event's object) from the stored apiVersion to the asked one.
// Numbers keep their text.
func convertJSON(ctx context.Context, cs *apiextensions.Serving, data []byte, from, to, gvk string) ([]byte, error) {
	if !bytes.Contains(data, []byte(strconv.Quote(from))) {
		return data, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return data, nil
	}
	var objs []map[string]any
	collectObjects(v, from, 0, &objs)
	list, isList := v.(map[string]any)
	if _, hasItems := list["items"]; isList && hasItems && list["apiVersion"] == from {
		list["apiVersion"] = to // a list is at the version asked, its items converted
	} else if len(objs) == 0 {
		return data, nil
	}
	converted, err := cs.Converter.Convert(ctx, objs, to, gvk)
	if err != nil {
		return nil, err
	}
	if cs.Converter.Webhook() {
		// The webhook answers new objects: put them in their places.
		i := 0
		v = replaceObjects(v, from, 0, converted, &i)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return data, nil
	}
	if bytes.HasSuffix(data, []byte("\n")) {
		out = append(out, '\n')
	}
	return out, nil
}

// collectObjects gathers, depth first, the objects at apiVersion from: v itself (unless it
// is a list), a list's items, a table's row objects, a watch event's object.
func collectObjects(v any, from string, depth int, out *[]map[string]any) {
	m, ok := v.(map[string]any)
	if !ok || depth > 4 {
		return
	}
	if _, isList := m["items"]; m["apiVersion"] == from && !isList {
		*out = append(*out, m)
	}
	for _, key := range []string{"items", "rows"} {
		list, _ := m[key].([]any)
		for _, e := range list {
			if key == "rows" {
				e, _ = e.(map[string]any)["object"]
			}
			collectObjects(e, from, depth+1, out)
		}
	}
	if obj, ok := m["object"]; ok {
		collectObjects(obj, from, depth+1, out)
	}
}

// replaceObjects puts converted objects back where collectObjects found their originals.
func replaceObjects(v any, from string, depth int, converted []map[string]any, i *int) any {
	m, ok := v.(map[string]any)
	if !ok || depth > 4 {
		return v
	}
	_, isList := m["items"]
	var out any = m
	if m["apiVersion"] == from && !isList && *i < len(converted) {
		out = converted[*i]
		*i++
	}
	for _, key := range []string{"items", "rows"} {
		list, _ := m[key].([]any)
		for j, e := range list {
			if key == "rows" {
				row, _ := e.(map[string]any)
				row["object"] = replaceObjects(row["object"], from, depth+1, converted, i)
				continue
			}
			list[j] = replaceObjects(e, from, depth+1, converted, i)
		}
	}
	if obj, ok := m["object"]; ok {
		m["object"] = replaceObjects(obj, from, depth+1, converted, i)
	}
	return out
}

// versionWriter converts the answer to a request at another version. A watch is converted
// line by line as it streams (one event per line); any other answer is held until the
// handler returns, then converted whole.
type versionWriter struct {
	http.ResponseWriter
	ctx            context.Context
	cs             *apiextensions.Serving
	from, to, gvk  string
	stream, failed bool
	code           int
	buf            bytes.Buffer
}

func (w *versionWriter) WriteHeader(code int) {
	if w.stream {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.code = code
}

func (w *versionWriter) Write(b []byte) (int, error) {
	if w.failed {
		return len(b), nil
	}
	w.buf.Write(b)
	if !w.stream {
		return len(b), nil
	}
	for {
		i := bytes.IndexByte(w.buf.Bytes(), '\n')
		if i < 0 {
			return len(b), nil
		}
		line, err := convertJSON(w.ctx, w.cs, w.buf.Next(i+1), w.from, w.to, w.gvk)
		if err != nil {
			w.failed = true
			ev, _ := json.Marshal(map[string]any{"type": "ERROR", "object": api.NewInternalError(err)})
			_, _ = w.ResponseWriter.Write(append(ev, '\n'))
			return len(b), nil
		}
		if _, err := w.ResponseWriter.Write(line); err != nil {
			return len(b), err
		}
	}
}

// Flush and FlushError pass a watch's flush through (lines are written as they complete).
func (w *versionWriter) Flush() { _ = w.FlushError() }

func (w *versionWriter) FlushError() error {
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *versionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes a held answer, converted, or what remains of a stream.
func (w *versionWriter) finish() {
	if w.stream {
		if w.buf.Len() > 0 && !w.failed {
			data, err := convertJSON(w.ctx, w.cs, w.buf.Bytes(), w.from, w.to, w.gvk)
			if err == nil {
				_, _ = w.ResponseWriter.Write(data)
			}
		}
		return
	}
	if w.code == 0 && w.buf.Len() == 0 {
		return
	}
	if w.code == 0 {
		w.code = http.StatusOK
	}
	data, err := convertJSON(w.ctx, w.cs, w.buf.Bytes(), w.from, w.to, w.gvk)
	if err != nil {
		writeStatus(w.ResponseWriter, api.NewInternalError(err))
		return
	}
	w.ResponseWriter.WriteHeader(w.code)
	_, _ = w.ResponseWriter.Write(data)
}

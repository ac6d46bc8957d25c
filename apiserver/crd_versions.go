package apiserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

// The other served versions of a CRD, with the None conversion strategy: objects are stored
// once, at the storage version, and a request at another served version reaches the same
// storage. What the nopConverter of k8s.io/apiextensions-apiserver does to an object, setting
// its apiVersion, is done here to the bodies: a create or update body's apiVersion is set to
// the storage version, and every object in the answer (one object, a list's items, a table's
// row objects, each watch event) gets the requested version. Every served version is served
// with the storage version's schema, columns and subresources (the real server uses each
// version's own).

// alsoServed reports, for a request under group-version gv, whether it reaches res at a
// version other than its storage version, and returns the two apiVersions.
func alsoServed(res *resource, gv string) (stored, asked string, ok bool) {
	if res.CRDName == "" {
		return "", "", false
	}
	stored = res.Info.APIVersion()
	if gv == res.Info.Group+"/"+res.Info.Version {
		return "", "", false
	}
	return stored, gv, true
}

// convertRequestBody sets the top-level apiVersion of a create or update body from the
// requested version to the storage version. A body that is not a JSON object is left as it
// is, for the decoder to refuse.
func convertRequestBody(r *http.Request, from, to string) {
	if r.Body == nil {
		return
	}
	data, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err == nil {
		data = rewriteAPIVersion(data, from, to)
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
}

// rewriteAPIVersion sets apiVersion from → to in a JSON document: at the top, in a list's
// items, a table's row objects and a watch event's object. Numbers keep their text.
func rewriteAPIVersion(data []byte, from, to string) []byte {
	if !bytes.Contains(data, []byte(strconv.Quote(from))) {
		return data
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return data
	}
	if !swapAPIVersion(v, from, to, 0) {
		return data
	}
	out, err := json.Marshal(v)
	if err != nil {
		return data
	}
	if bytes.HasSuffix(data, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

func swapAPIVersion(v any, from, to string, depth int) bool {
	m, ok := v.(map[string]any)
	if !ok || depth > 4 {
		return false
	}
	changed := false
	if m["apiVersion"] == from {
		m["apiVersion"] = to
		changed = true
	}
	for _, key := range []string{"items", "rows"} {
		list, _ := m[key].([]any)
		for _, e := range list {
			if key == "rows" {
				e, _ = e.(map[string]any)["object"]
			}
			changed = swapAPIVersion(e, from, to, depth+1) || changed
		}
	}
	if obj, ok := m["object"]; ok {
		changed = swapAPIVersion(obj, from, to, depth+1) || changed
	}
	return changed
}

// versionWriter rewrites the answer to a request at another served version. A watch is
// rewritten line by line as it streams (one event per line); any other answer is held until
// the handler returns, then rewritten whole.
type versionWriter struct {
	http.ResponseWriter
	from, to string
	stream   bool
	code     int
	buf      bytes.Buffer
}

func (w *versionWriter) WriteHeader(code int) {
	if w.stream {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.code = code
}

func (w *versionWriter) Write(b []byte) (int, error) {
	w.buf.Write(b)
	if !w.stream {
		return len(b), nil
	}
	for {
		i := bytes.IndexByte(w.buf.Bytes(), '\n')
		if i < 0 {
			return len(b), nil
		}
		line := rewriteAPIVersion(w.buf.Next(i+1), w.from, w.to)
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

// finish writes a held answer, rewritten, or what remains of a stream.
func (w *versionWriter) finish() {
	if w.stream {
		if w.buf.Len() > 0 {
			_, _ = w.ResponseWriter.Write(rewriteAPIVersion(w.buf.Bytes(), w.from, w.to))
		}
		return
	}
	if w.code == 0 && w.buf.Len() == 0 {
		return
	}
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.ResponseWriter.WriteHeader(w.code)
	_, _ = w.ResponseWriter.Write(rewriteAPIVersion(w.buf.Bytes(), w.from, w.to))
}

package rest

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/internal/trace"
	"github.com/informer-lab/informer-lab/rest/internal/wire"
)

// Result mirrors rest.Result: the outcome of Do, decoded on demand.
type Result struct {
	body []byte // JSON: a protobuf answer is read into JSON on arrival, unless kept in pb
	raw  []byte // the body as it came
	// pb is a successful protobuf answer of a kind other than Status, kept as it came (body
	// is then nil): Into and Get decode it straight into a typed object (protobuf.go).
	pb []byte

	contentType string
	statusCode  int
	err         error
	scheme      *api.Scheme
	// for the list trace
	logger *slog.Logger
	path   string
	verb   string
}

// Raw mirrors Result.Raw: the body as it came (protobuf when the server answered so) and the
// error.
func (r Result) Raw() ([]byte, error) { return r.raw, r.err }

// StatusCode mirrors Result.StatusCode.
func (r Result) StatusCode(statusCode *int) Result {
	*statusCode = r.statusCode
	return r
}

// ContentType mirrors Result.ContentType: the response's Content-Type header.
func (r Result) ContentType(contentType *string) Result {
	*contentType = r.contentType
	return r
}

// WasCreated mirrors Result.WasCreated: whether the answer was 201.
func (r Result) WasCreated(wasCreated *bool) Result {
	*wasCreated = r.statusCode == http.StatusCreated
	return r
}

// Error mirrors Result.Error: the request's error, a *api.Status for an API error.
func (r Result) Error() error { return r.err }

func (r Result) checkBody() error {
	if r.err != nil {
		return r.err
	}
	if !isJSON(r.contentType) {
		return fmt.Errorf("rest: response Content-Type %q is not JSON", r.contentType)
	}
	if len(r.body) == 0 && r.pb == nil {
		return fmt.Errorf("rest: 0-length response with status code: %d", r.statusCode)
	}
	return nil
}

// bodyStatus reports whether the body is a Status and, if it is not a success, the error.
func (r Result) bodyStatus() (bool, error) {
	if r.pb != nil {
		return false, nil // kept only when its kind is not Status
	}
	var tm api.TypeMeta
	if json.Unmarshal(r.body, &tm) != nil || tm.Kind != "Status" {
		return false, nil
	}
	st, err := wire.DecodeStatus(r.body)
	if err != nil {
		return true, err
	}
	if st.Status != api.StatusSuccess {
		return true, st
	}
	return true, nil
}

// Get mirrors Result.Get: the body decoded through the Scheme; a Status that is not a
// success is returned as the error.
func (r Result) Get() (api.Object, error) {
	if err := r.checkBody(); err != nil {
		return nil, err
	}
	if isStatus, err := r.bodyStatus(); isStatus && err != nil {
		return nil, err
	}
	obj, done, err := r.getProtobuf()
	if !done {
		var body []byte
		if body, err = r.jsonBody(); err == nil {
			obj, err = r.scheme.Decode(body)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("rest: decoding the response of %s %s: %w", r.verb, r.path, err)
	}
	r.traceList(obj)
	return obj, nil
}

// Into mirrors Result.Into: the body decoded into obj. A Status body that is not a success
// is returned as the error and obj is left alone.
func (r Result) Into(obj api.Object) error {
	if err := r.checkBody(); err != nil {
		return err
	}
	if _, isStatus := obj.(*api.Status); !isStatus {
		if isStatus, err := r.bodyStatus(); isStatus {
			return err
		}
	}
	done, err := r.intoProtobuf(obj)
	if !done {
		var body []byte
		if body, err = r.jsonBody(); err == nil {
			err = r.scheme.DecodeInto(body, obj)
		}
	}
	if err != nil {
		return fmt.Errorf("rest: decoding the response of %s %s: %w", r.verb, r.path, err)
	}
	r.traceList(obj)
	return nil
}

// traceList logs the list hop: the list's RV and how many items it holds.
func (r Result) traceList(obj api.Object) {
	if !trace.Enabled(r.logger) {
		return
	}
	l, ok := obj.(api.ListObject)
	if !ok {
		return
	}
	trace.Hop(r.logger, wire.TraceComponent, opList, r.path, l.GetResourceVersion(), slog.Int(attrItems, len(l.GetItems())))
}

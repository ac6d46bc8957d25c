package apiserver

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
)

// writeStatus writes a failure Status with its code and, for retryable errors, Retry-After
// (S1).
func writeStatus(w http.ResponseWriter, st *api.Status) {
	api.CapStatus(st)
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(st.Details.RetryAfterSeconds)))
	}
	if writeProtobufStatus(w, statusCode(st), st) {
		return
	}
	writeJSON(w, statusCode(st), st)
}

func writeError(w http.ResponseWriter, err error) {
	var st *api.Status
	if !errors.As(err, &st) {
		st = api.NewInternalError(err)
	}
	writeStatus(w, st)
}

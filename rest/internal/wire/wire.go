package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/informer-lab/informer-lab/api"
)

// TraceComponent is the component of every trace hop of the client side (contract 3).
// Nothing in client-go mirrors it.
const TraceComponent = "listwatch"

// DecodeStatus mirrors the Status half of rest.Result.Error and of the watch decoder's ERROR
// events: raw must be an object of kind Status; a missing apiVersion defaults to v1.
func DecodeStatus(raw []byte) (*api.Status, error) {
	var tm api.TypeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, fmt.Errorf("not a Status: %w", err)
	}
	switch tm.Kind {
	case "Status":
	case "":
		return nil, fmt.Errorf("%w in %s", api.ErrMissingKind, Quote(raw))
	default:
		return nil, fmt.Errorf("ERROR event carries a %s, not a Status", tm.Kind)
	}
	st := &api.Status{}
	if err := json.Unmarshal(raw, st); err != nil {
		return nil, fmt.Errorf("not a Status: %w", err)
	}
	if st.APIVersion == "" {
		st.APIVersion = "v1"
	}
	return st, nil
}

// IsProbableEOF mirrors net.IsProbableEOF in apimachinery util/net: errors that mean the
// connection went away between events, which end a watch quietly.
func IsProbableEOF(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	msg := err.Error()
	for _, s := range []string{
		"connection reset by peer",
		"use of closed network connection",
		"broken pipe",
		"http: read on closed response body",
		"server sent GOAWAY and closed the connection",
		"stream error: stream ID",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// Quote shows the first bytes of data in an error message. Nothing in client-go mirrors it.
func Quote(data []byte) string {
	const limit = 32
	if len(data) > limit {
		return fmt.Sprintf("%q...", data[:limit])
	}
	return fmt.Sprintf("%q", data)
}

package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// The sync of a client-go informer is mostly the client's work: decoding 10,000 objects and
// filling its store; a create is the client's encoding, its HTTP round trip and its decoding
// as much as the server's work. To show how much any server can take away, the harness
// records what ours answered (the watch-list stream, one object) and replays it from a
// server that does no work at all: those times are the client's floor on this machine.

// captureWatchList reads the watch-list stream the informer's request (uri, with its
// Accept header) gets from the server of cfg, up to and including the bookmark that ends
// the initial events, and the stream's Content-Type.
func captureWatchList(ctx context.Context, cfg *rest.Config, uri, accept string) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	resp, err := get(ctx, cfg, uri, accept)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("watch-list: %s", resp.Status)
	}
	ct := resp.Header.Get("Content-Type")
	stream, err := readInitialEvents(bufio.NewReaderSize(resp.Body, 64<<10), strings.Contains(ct, "protobuf"))
	return stream, ct, err
}

// readInitialEvents reads watch events up to and including the bookmark that ends the
// initial events: JSON lines, or protobuf frames (a 4-byte big-endian length, then the
// message).
func readInitialEvents(r io.Reader, protobuf bool) ([]byte, error) {
	var out bytes.Buffer
	br := bufio.NewReader(r)
	for {
		var event []byte
		if protobuf {
			var size [4]byte
			if _, err := io.ReadFull(br, size[:]); err != nil {
				return nil, fmt.Errorf("watch-list ended before its initial-events-end bookmark: %w", err)
			}
			event = make([]byte, binary.BigEndian.Uint32(size[:]))
			if _, err := io.ReadFull(br, event); err != nil {
				return nil, err
			}
			out.Write(size[:])
			out.Write(event)
		} else {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return nil, fmt.Errorf("watch-list ended before its initial-events-end bookmark: %w", err)
			}
			out.Write(line)
			event = line
		}
		if isInitialEventsEnd(event) {
			return out.Bytes(), nil
		}
	}
}

// isInitialEventsEnd reports whether a watch event, JSON or protobuf, is the bookmark that
// ends the initial events of a watch-list: its type and the annotation are in its bytes.
func isInitialEventsEnd(event []byte) bool {
	return bytes.Contains(event, []byte("BOOKMARK")) && bytes.Contains(event, []byte("k8s.io/initial-events-end"))
}

// watchListRequest is the informer's watch-list request among reqs ("GET /path?query<TAB>
// Accept"): its URI and Accept header.
func watchListRequest(reqs []string) (uri, accept string) {
	for _, r := range reqs {
		if tail, ok := strings.CutPrefix(r, "GET "); ok && strings.Contains(tail, "sendInitialEvents=true") {
			uri, accept, _ = strings.Cut(tail, "\t")
			return uri, accept
		}
	}
	return "", ""
}

// captureObject reads one object from the server of cfg as the client asks for it (accept):
// the bytes a create's 201 carries too, and their Content-Type.
func captureObject(ctx context.Context, cfg *rest.Config, path, accept string) ([]byte, string, error) {
	resp, err := get(ctx, cfg, path, accept)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return b, resp.Header.Get("Content-Type"), err
}

// get sends GET uri with the Accept header accept to the server of cfg, with cfg's
// credentials and TLS, as client-go's own requests go.
func get(ctx context.Context, cfg *rest.Config, uri, accept string) (*http.Response, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Host, "/")+uri, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", accept)
	return hc.Do(req)
}

// replay is what the replaying server answers: the watch-list stream, and the object every
// create gets back.
type replay struct {
	stream, object         []byte
	streamType, objectType string
}

// replayServer answers a watch-list with rp.stream, as it is, then keeps the watch open
// until the client goes; a POST with rp.object (201), read from nothing and stored nowhere;
// anything else 404. It serves https, as both servers do.
func replayServer(rp *replay) *httptest.Server {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost:
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", rp.objectType)
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write(rp.object)
		case r.URL.Query().Get("sendInitialEvents") == "true":
			w.Header().Set("Content-Type", rp.streamType)
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(rp.stream)
			_ = http.NewResponseController(w).Flush()
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	srv.StartTLS()
	return srv
}

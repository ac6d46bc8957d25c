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
// filling its store. To show how much of a sync any server can take away, the harness
// records the watch-list stream one server sent and replays it from a server that does no
// work at all (the bytes are ready): that sync is the client's floor on this machine.

// captureWatchList reads the watch-list stream the informer's request (uri, with its
// Accept header) gets from the server of cfg, up to and including the bookmark that ends
// the initial events, and the stream's Content-Type.
func captureWatchList(ctx context.Context, cfg *rest.Config, uri, accept string) ([]byte, string, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, "", err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Host, "/")+uri, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Accept", accept)
	resp, err := hc.Do(req)
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

// replayServer answers a watch-list with stream, as it is, then keeps the watch open until
// the client goes; anything else gets 404. It serves https, as both servers do.
func replayServer(stream []byte, contentType string) *httptest.Server {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("sendInitialEvents") != "true" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(stream)
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	}))
	srv.StartTLS()
	return srv
}

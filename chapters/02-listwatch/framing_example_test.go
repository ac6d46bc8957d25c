package ch02_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/internal/builtinproto"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// Framing: one watch event in each encoding. JSON events are one object per line; protobuf
// events are length-prefixed binary frames.

// fixedNow is the real clock with a fixed Now, for timestamps that do not change the bytes.
type fixedNow struct {
	clock.RealClock
	t time.Time
}

func (f fixedNow) Now() time.Time { return f.t }

// openRawWatch starts a server on a fixed clock (so timestamps do not change the bytes),
// creates pod web, and returns the body of a watch from RV 0 asking for accept.
func openRawWatch(accept string) (body io.ReadCloser, contentType string, stop func()) {
	srv := apiserver.New(apiserver.Options{Clock: fixedNow{t: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)}})
	if _, err := srv.Start("127.0.0.1:0"); err != nil {
		panic(err)
	}
	if _, err := srv.Create(context.Background(), "pods", "default", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}}}); err != nil {
		panic(err)
	}
	req, _ := http.NewRequest("GET", srv.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion=3", nil)
	req.Header.Set("Accept", accept)
	tr := &http.Transport{}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		panic(err)
	}
	return resp.Body, resp.Header.Get("Content-Type"), func() { resp.Body.Close(); tr.CloseIdleConnections(); srv.Close() }
}

// Example_framing reads the first event of the same watch twice: as JSON, a line ending in
// "\n", and as protobuf, a 4-byte big-endian length and then that many bytes. The hex dump
// shows the start of the protobuf frame: the length, the WatchEvent's type (field 1,
// "ADDED"), its object (field 2), whose raw bytes (field 1) start with the magic "k8s\x00"
// and a runtime.Unknown naming apiVersion "v1" and kind "Pod".
func Example_framing() {
	body, ct, stop := openRawWatch("application/json")
	line, _ := bufio.NewReader(body).ReadString('\n')
	stop()
	fmt.Printf("%s: one line of %d bytes: %s…\n", ct, len(line), line[:40])

	body, ct, stop = openRawWatch("application/vnd.kubernetes.protobuf;stream=watch")
	defer stop()
	var head [4]byte
	if _, err := io.ReadFull(body, head[:]); err != nil {
		panic(err)
	}
	n := binary.BigEndian.Uint32(head[:])
	frame := make([]byte, n)
	if _, err := io.ReadFull(body, frame); err != nil {
		panic(err)
	}
	fmt.Printf("%s: one frame of 4+%d bytes\n", ct, n)
	fmt.Print(hex.Dump(append(head[:], frame[:40]...)))
	typ, gvk, obj, err := builtinproto.Codec().DecodeWatchEvent(frame)
	if err != nil {
		panic(err)
	}
	fmt.Println("decoded:", typ, gvk.Kind, obj["metadata"].(map[string]any)["name"])
	// Output:
	// application/json: one line of 1463 bytes: {"type":"ADDED","object":{"kind":"Pod","…
	// application/vnd.kubernetes.protobuf;stream=watch: one frame of 4+664 bytes
	// 00000000  00 00 02 98 0a 05 41 44  44 45 44 12 8e 05 0a 8b  |......ADDED.....|
	// 00000010  05 6b 38 73 00 0a 09 0a  02 76 31 12 03 50 6f 64  |.k8s.....v1..Pod|
	// 00000020  12 f5 04 0a 47 0a 03 77  65 62 12 00              |....G..web..|
	// decoded: ADDED Pod web
}

package watch

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/resttest"
)

// podEventStream encodes n MODIFIED events of benchPod, one per line.
func podEventStream(b *testing.B, n int) []byte {
	var buf bytes.Buffer
	for i := range n {
		obj, err := api.DefaultScheme.Encode(resttest.BenchPod(i))
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&buf, `{"type":"MODIFIED","object":%s}`+"\n", obj)
	}
	return buf.Bytes()
}

// repeatReader serves the same bytes forever.
type repeatReader struct {
	data []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.data[r.off:])
	r.off = (r.off + n) % len(r.data)
	return n, nil
}

// BenchmarkStreamDecodePodEvent: one pod event per op, through the framer and the Scheme
// (no goroutine, no channel).
func BenchmarkStreamDecodePodEvent(b *testing.B) {
	stream := podEventStream(b, 1)
	b.SetBytes(int64(len(stream)))
	d := NewDecoder(io.NopCloser(&repeatReader{data: stream}), DecoderOptions{})
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := d.Decode(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkStreamWatcher100kPodEvents decodes a 100k-event stream from a byte buffer through
// a StreamWatcher, channel hand-off included.
func BenchmarkStreamWatcher100kPodEvents(b *testing.B) {
	const n = 100_000
	stream := podEventStream(b, n)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		w := NewStreamWatcher(NewDecoder(io.NopCloser(bytes.NewReader(stream)), DecoderOptions{}), nil)
		for ev := range w.ResultChan() {
			if ev.Type != watch.Modified {
				b.Fatalf("unexpected %v", ev)
			}
			events++
		}
	}
	if events != n*b.N {
		b.Fatalf("decoded %d events, want %d", events, n*b.N)
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(n), "events/op")
}

// BenchmarkWatchEventTraceDisabled: the per-event trace guard with a logger whose Debug
// level is off, and with no logger: both must report 0 allocs/op.
func BenchmarkWatchEventTraceDisabled(b *testing.B) {
	pod := resttest.BenchPod(1)
	for _, tc := range []struct {
		name   string
		logger *slog.Logger
	}{{"nil", nil}, {"info-level", slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))}} {
		b.Run(tc.name, func(b *testing.B) {
			sw := &StreamWatcher{logger: tc.logger}
			b.ReportAllocs()
			for b.Loop() {
				sw.maybeTraceEvent(watch.Modified, pod)
			}
		})
	}
}

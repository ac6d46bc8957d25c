package watch

import (
	"bytes"
	"io"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/resttest"
)

// FuzzStreamWatcher feeds arbitrary bytes to the watch decoder behind a StreamWatcher, as a
// hostile or broken server would send them. Whatever arrives, the watcher must not panic,
// must deliver only the five event types, each with an object (a Status for ERROR), and must
// close its channel once the body ends. A frame limit of 512 bytes puts the oversize path
// within the fuzzer's reach.
//
//	go test -run='^$' -fuzz=FuzzStreamWatcher ./rest/watch/
func FuzzStreamWatcher(f *testing.F) {
	f.Add([]byte(resttest.PodEvent(watch.Added, "a", "1") + "\n" + resttest.PodEvent(watch.Modified, "a", "2") + "\n"))
	f.Add([]byte(resttest.PodEvent(watch.Deleted, "a", "3") + resttest.PodEvent(watch.Added, "b", "4")))
	f.Add([]byte(`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"9","annotations":{"k8s.io/initial-events-end":"true"}}}}`))
	f.Add([]byte(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","code":410,"reason":"Expired"}}`))
	f.Add([]byte(`{"type":"ADDED","object":{"apiVersion":"v1"}}`))
	f.Add([]byte(`{"type":"ADDED","object":{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w"}}}`))
	f.Add([]byte(`{"type":"ADDED","obj`))
	f.Add([]byte("\xff\xfe garbage {]"))
	f.Add([]byte(`{"type":"SURPRISE","object":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(io.NopCloser(bytes.NewReader(data)), DecoderOptions{MaxFrameBytes: 512})
		w := NewStreamWatcher(d, nil)
		defer w.Stop()
		events := 0
		for ev := range w.ResultChan() {
			events++
			if events > len(data)+1 {
				t.Fatalf("%d events from %d bytes", events, len(data))
			}
			switch ev.Type {
			case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
				if ev.Object == nil {
					t.Fatalf("%s event without an object", ev.Type)
				}
			case watch.Error:
				if _, ok := ev.Object.(*api.Status); !ok {
					t.Fatalf("ERROR event carries %T, not a *api.Status", ev.Object)
				}
			default:
				t.Fatalf("event type %q delivered", ev.Type)
			}
		}
	})
}

package listwatch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// benchPod is a pod of realistic size (about 1 KiB of JSON): labels, an owner, two
// containers, conditions.
func benchPod(i int) *api.Pod {
	ts := api.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return &api.Pod{
		TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{
			Name: fmt.Sprintf("web-7d4b9c8f6d-%05d", i), GenerateName: "web-7d4b9c8f6d-", Namespace: "demo",
			UID: "6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60", ResourceVersion: strconv.Itoa(1000 + i), Generation: 1,
			CreationTimestamp: ts,
			Labels:            map[string]string{"app": "web", "pod-template-hash": "7d4b9c8f6d"},
			Annotations:       map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-01-02T03:00:00Z"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c8f6d",
				UID: "0b6e8f3a-2c4d-4e5f-8a9b-c0d1e2f3a4b5", Controller: ptr(true), BlockOwnerDeletion: ptr(true)}},
		},
		Spec: api.PodSpec{
			Containers:    []api.Container{{Name: "nginx", Image: "nginx:1.27"}, {Name: "log-shipper", Image: "fluent/fluent-bit:3.1"}},
			RestartPolicy: api.RestartPolicyAlways, ServiceAccountName: "default", NodeName: "node-1", SchedulerName: "default-scheduler",
		},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.244.1.17", Conditions: []api.PodCondition{
			{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: ts},
			{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: ts},
		}},
	}
}

// podEventStream encodes n MODIFIED events of benchPod, one per line.
func podEventStream(b *testing.B, n int) []byte {
	var buf bytes.Buffer
	for i := range n {
		obj, err := api.DefaultScheme.Encode(benchPod(i))
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
	d := NewWatchDecoder(io.NopCloser(&repeatReader{data: stream}), DecoderOptions{})
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := d.Decode(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkStreamWatcher100kPodEvents decodes a 100k-event stream from a byte buffer through
// a StreamWatcher, channel hand-off included (issue 5's "done when").
func BenchmarkStreamWatcher100kPodEvents(b *testing.B) {
	const n = 100_000
	stream := podEventStream(b, n)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		w := NewStreamWatcher(NewWatchDecoder(io.NopCloser(bytes.NewReader(stream)), DecoderOptions{}), nil)
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

// BenchmarkPagerConcat10k: the pager joining 20 pages of 500 pods into one PodList.
func BenchmarkPagerConcat10k(b *testing.B) {
	const total, size = 10_000, 500
	pages := make([]*api.PodList, 0, total/size)
	for start := 0; start < total; start += size {
		l := &api.PodList{ListMeta: api.ListMeta{ResourceVersion: "9"}, Items: make([]api.Pod, size)}
		for i := range l.Items {
			l.Items[i] = *benchPod(start + i)
		}
		if start+size < total {
			l.Continue = strconv.Itoa(len(pages) + 1)
		}
		pages = append(pages, l)
	}
	p := NewListPager(func(_ context.Context, opts api.ListOptions) (api.Object, error) {
		i, _ := strconv.Atoi(opts.Continue)
		page := *pages[i] // the pager owns what it is given: hand out a shallow copy
		return &page, nil
	})
	b.ReportAllocs()
	for b.Loop() {
		obj, _, err := p.List(context.Background(), api.ListOptions{})
		if err != nil || len(obj.(*api.PodList).Items) != total {
			b.Fatalf("got %v, %v", obj, err)
		}
	}
}

// BenchmarkWatchEventTraceDisabled: the per-event trace guard with a logger whose Debug
// level is off, and with no logger: both must report 0 allocs/op.
func BenchmarkWatchEventTraceDisabled(b *testing.B) {
	pod := benchPod(1)
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

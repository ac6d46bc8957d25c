package informer

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/reflector/fakesource"
)

// countingHandler counts notifications and closes done when it has seen target of them.
type countingHandler struct {
	n      atomic.Int64
	target int64
	done   chan struct{}
}

func (h *countingHandler) hit() {
	if h.n.Add(1) == h.target {
		close(h.done)
	}
}

func (h *countingHandler) OnAdd(any, bool)   { h.hit() }
func (h *countingHandler) OnUpdate(_, _ any) { h.hit() }
func (h *countingHandler) OnDelete(any)      { h.hit() }
func (h *countingHandler) reset(target int64) {
	h.n.Store(0)
	h.target = target
	h.done = make(chan struct{})
}

// BenchmarkSharedInformer measures events per second from the fake source through a shared
// informer to 1 and 10 handlers: one op is one MODIFIED event written to the source and
// delivered to every handler. The figures include the source's own deep copies (one on write,
// one per watcher), as a real apiserver's decoding would.
func BenchmarkSharedInformer(b *testing.B) {
	const pods = 1000
	for _, p := range []Profile{ProfileClassic, ProfileCurrent} {
		for _, handlers := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/handlers=%d", p, handlers), func(b *testing.B) {
				src := fakesource.New()
				defer src.Close()
				for i := range pods {
					if _, err := src.Add(pod(fmt.Sprintf("p%d", i), "")); err != nil {
						b.Fatal(err)
					}
				}
				inf := NewSharedIndexInformerWithOptions(src, &api.Pod{}, SharedIndexInformerOptions{Profile: p})
				hs := make([]*countingHandler, handlers)
				for i := range hs {
					hs[i] = &countingHandler{}
					hs[i].reset(pods)
					if _, err := inf.AddEventHandler(hs[i]); err != nil {
						b.Fatal(err)
					}
				}
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				wg.Go(func() { inf.RunWithContext(ctx) })
				defer func() { cancel(); wg.Wait() }()
				for _, h := range hs {
					<-h.done
				}
				for _, h := range hs {
					h.reset(int64(b.N))
				}
				objs := make([]*api.Pod, pods)
				for i := range objs {
					objs[i] = pod(fmt.Sprintf("p%d", i), "")
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					if _, err := src.Modify(objs[i%pods]); err != nil {
						b.Fatal(err)
					}
				}
				for _, h := range hs {
					<-h.done
				}
				b.StopTimer()
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}

// BenchmarkTracingHandlerDisabled shows that the non-shared informer's handler hop costs no
// allocation when the logger does not log Debug.
func BenchmarkTracingHandlerDisabled(b *testing.B) {
	h := tracingHandler{handler: &countingHandler{target: -1}, logger: slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	obj, old := pod("a", "2"), pod("a", "1")
	b.ReportAllocs()
	for b.Loop() {
		h.OnAdd(obj, false)
		h.OnUpdate(old, obj)
		h.OnDelete(obj)
	}
}

package apiserver

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flushCounter is a ResponseWriter that counts frames (lines) and Flush calls, and signals
// each time a line is written.
type flushCounter struct {
	mu      sync.Mutex
	header  http.Header
	body    bytes.Buffer
	flushes int
	wrote   chan struct{}
}

func (f *flushCounter) Header() http.Header { return f.header }
func (f *flushCounter) WriteHeader(int)     {}
func (f *flushCounter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, _ := f.body.Write(p)
	select {
	case f.wrote <- struct{}{}:
	default:
	}
	return n, nil
}
func (f *flushCounter) Flush() {
	f.mu.Lock()
	f.flushes++
	f.mu.Unlock()
}
func (f *flushCounter) counts() (lines, flushes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return bytes.Count(f.body.Bytes(), []byte("\n")), f.flushes
}

// TestCh01_W4_FlushWhenNothingIsQueued: a watch flushes when no further event is queued, as
// the real watch server does (W4). 100 initial events go out in one flush after the headers'
// instead of one flush each; a lone live event afterwards is flushed at once.
func TestCh01_W4_FlushWhenNothingIsQueued(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	ctx := context.Background()
	for i := range 100 {
		_, err := s.Create(ctx, "pods", "default", pod("default", fmt.Sprintf("p%03d", i), nil))
		require.NoError(t, err)
	}
	w := &flushCounter{header: http.Header{}, wrote: make(chan struct{}, 1)}
	reqCtx, cancel := context.WithCancel(ctx)
	req := httptest.NewRequest(http.MethodGet, "/api/v1/pods?watch=1&resourceVersion=0", nil).WithContext(reqCtx)
	done := make(chan struct{})
	go func() { defer close(done); s.Handler().ServeHTTP(w, req) }()
	defer func() { cancel(); <-done }()

	waitLines := func(n int) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			if lines, _ := w.counts(); lines >= n {
				return
			}
			select {
			case <-w.wrote:
			case <-deadline:
				lines, _ := w.counts()
				t.Fatalf("%d lines after 10s, want %d", lines, n)
			}
		}
	}
	waitLines(100)
	// The serve loop flushes just before it waits, right after the 100th frame.
	require.Eventually(t, func() bool { _, f := w.counts(); return f >= 2 }, 10*time.Second, time.Millisecond)
	_, flushes := w.counts()
	assert.Equal(t, 2, flushes, "one flush for the headers, one for the 100 initial events")

	_, err := s.Create(ctx, "pods", "default", pod("default", "late", nil))
	require.NoError(t, err)
	waitLines(101)
	require.Eventually(t, func() bool { _, f := w.counts(); return f == 3 }, 10*time.Second, time.Millisecond,
		"a lone live event is flushed as soon as it is written")
}

// gatedWriter is a ResponseWriter whose every Flush waits for the test: it announces the
// flush on entered, then waits for release. Writes are counted with the bytes.
type gatedWriter struct {
	header            http.Header
	mu                sync.Mutex
	body              bytes.Buffer
	writes            int
	entered, released chan struct{}
}

func (g *gatedWriter) Header() http.Header { return g.header }
func (g *gatedWriter) WriteHeader(int)     {}
func (g *gatedWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.writes++
	return g.body.Write(p)
}
func (g *gatedWriter) Flush() {
	g.entered <- struct{}{}
	<-g.released
}
func (g *gatedWriter) counts() (lines, writes int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return bytes.Count(g.body.Bytes(), []byte("\n")), g.writes
}

// TestCh01_W4_BurstQueuedWhileBusyLeavesAsOneBatch: live events queued while the consumer
// is busy (here: held in a flush) are taken at once and written as one batch, in writes of
// up to sinkBatch bytes, with a single flush once nothing more is queued, not one write and
// one flush per event.
func TestCh01_W4_BurstQueuedWhileBusyLeavesAsOneBatch(t *testing.T) {
	checkNoLeak(t)
	s := New(Options{})
	defer s.Close()
	ctx := context.Background()
	g := &gatedWriter{header: http.Header{}, entered: make(chan struct{}), released: make(chan struct{})}
	reqCtx, cancel := context.WithCancel(ctx)
	req := httptest.NewRequest(http.MethodGet, "/api/v1/namespaces/default/pods?watch=1&resourceVersion="+rvString(s), nil).WithContext(reqCtx)
	done := make(chan struct{})
	go func() { defer close(done); s.Handler().ServeHTTP(g, req) }()
	defer func() { cancel(); <-done }()
	flush := func() { <-g.entered; g.released <- struct{}{} }

	flush()       // the headers
	<-g.entered   // the consumer found nothing queued and flushes before it waits: hold it there
	const n = 200 // about 100 KiB of frames
	for i := range n {
		_, err := s.Create(ctx, "pods", "default", pod("default", fmt.Sprintf("p%03d", i), nil))
		require.NoError(t, err)
	}
	_, writes0 := g.counts()
	g.released <- struct{}{}
	<-g.entered // written the whole queue, the consumer flushes before it waits again
	lines, writes := g.counts()
	assert.Equal(t, n, lines, "every queued event before the next flush")
	size := g.body.Len()
	assert.LessOrEqual(t, writes-writes0, size/sinkBatch+1, "%d bytes in writes of up to %d", size, sinkBatch)
	assert.Greater(t, size, 2*sinkBatch, "the burst is larger than one write")
	g.released <- struct{}{}
	cancel()
	for {
		select {
		case <-done:
			return
		case <-g.entered:
			g.released <- struct{}{}
		}
	}
}

package rest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/clock"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// reply is one scripted answer: an HTTP response, or a transport error when err is set.
type reply struct {
	status     int
	retryAfter string
	body       string
	err        error
}

// scripted is an in-process transport: request i gets replies[i], the last reply repeats.
// No network is involved, so a testing/synctest bubble sees every goroutine block durably
// and its clock runs in virtual time: a Retry-After of 30 s takes no real time.
type scripted struct {
	mu      sync.Mutex
	replies []reply
	seen    []string // "METHOD path body"
}

func (s *scripted) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		_ = req.Body.Close()
	}
	s.mu.Lock()
	i := len(s.seen)
	s.seen = append(s.seen, req.Method+" "+req.URL.Path+" "+string(body))
	r := s.replies[min(i, len(s.replies)-1)]
	s.mu.Unlock()
	if r.err != nil {
		return nil, r.err
	}
	h := http.Header{"Content-Type": {"application/json"}}
	if r.retryAfter != "" {
		h.Set("Retry-After", r.retryAfter)
	}
	return &http.Response{StatusCode: r.status, Header: h, Body: io.NopCloser(strings.NewReader(r.body)),
		ContentLength: int64(len(r.body)), Request: req}, nil
}

func (s *scripted) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

const (
	okPod       = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"demo","resourceVersion":"5"}}`
	tooMany     = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"slow down","reason":"TooManyRequests","details":{"retryAfterSeconds":2},"code":429}`
	unavailable = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"later","reason":"ServiceUnavailable","code":503}`
	internal    = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"boom","reason":"InternalError","code":500}`
	notFound    = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"a\" not found","reason":"NotFound","details":{"name":"a","kind":"pods"},"code":404}`
)

func scriptedClient(t *testing.T, s *scripted) *RESTClient {
	t.Helper()
	c, err := RESTClientFor(&Config{Host: "http://apiserver.test", Transport: s})
	require.NoError(t, err)
	return c
}

// TestCh00_RetryAfter_R9 checks client-go's retry rule (rest/with_retry.go): a 429 or 5xx that
// carries Retry-After is sent again after that many seconds, up to 10 times, for every verb;
// anything else is returned at once. A GET whose connection is cut is retried after 1 s, a
// write is not. Time is virtual (synctest), so the waits are exact.
func TestCh00_RetryAfter_R9(t *testing.T) {
	forever429 := []reply{{status: 429, retryAfter: "1", body: tooMany}}
	tests := []struct {
		name       string
		replies    []reply
		req        func(c *RESTClient) *Request
		wantSent   int
		wantWaited time.Duration
		wantErr    func(error) bool // nil: success
	}{
		{name: "429 Retry-After 2, twice, then 200", wantSent: 3, wantWaited: 4 * time.Second,
			replies: []reply{{status: 429, retryAfter: "2", body: tooMany}, {status: 429, retryAfter: "2", body: tooMany}, {status: 200, body: okPod}}},
		{name: "503 Retry-After 1, then 200", wantSent: 2, wantWaited: time.Second,
			replies: []reply{{status: 503, retryAfter: "1", body: unavailable}, {status: 200, body: okPod}}},
		{name: "Retry-After 0 retries at once", wantSent: 2,
			replies: []reply{{status: 429, retryAfter: "0", body: tooMany}, {status: 200, body: okPod}}},
		{name: "500 without Retry-After is returned", wantSent: 1, wantErr: api.IsInternalError,
			replies: []reply{{status: 500, body: internal}, {status: 200, body: okPod}}},
		{name: "429 without Retry-After is returned", wantSent: 1, wantErr: api.IsTooManyRequests,
			replies: []reply{{status: 429, body: tooMany}, {status: 200, body: okPod}}},
		{name: "404 with Retry-After is returned", wantSent: 1, wantErr: api.IsNotFound,
			replies: []reply{{status: 404, retryAfter: "1", body: notFound}, {status: 200, body: okPod}}},
		{name: "Retry-After as an HTTP date counts as absent", wantSent: 1, wantErr: api.IsTooManyRequests,
			replies: []reply{{status: 429, retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT", body: tooMany}, {status: 200, body: okPod}}},
		{name: "429 forever: 1+10 requests, then the 429", replies: forever429, wantSent: 11,
			wantWaited: 10 * time.Second, wantErr: api.IsTooManyRequests},
		{name: "MaxRetries(2)", replies: forever429, wantSent: 3, wantWaited: 2 * time.Second, wantErr: api.IsTooManyRequests,
			req: func(c *RESTClient) *Request {
				return c.Get().Namespace("demo").Resource("pods").Name("a").MaxRetries(2)
			}},
		{name: "MaxRetries(0) turns retries off", replies: forever429, wantSent: 1, wantErr: api.IsTooManyRequests,
			req: func(c *RESTClient) *Request {
				return c.Get().Namespace("demo").Resource("pods").Name("a").MaxRetries(0)
			}},
		{name: "POST is retried, body and all", wantSent: 2, wantWaited: time.Second,
			replies: []reply{{status: 429, retryAfter: "1", body: tooMany}, {status: 201, body: okPod}},
			req: func(c *RESTClient) *Request {
				return c.Post().Namespace("demo").Resource("pods").Body([]byte(`{"metadata":{"name":"a"}}`))
			}},
		{name: "GET with a cut connection: retried after 1 s", wantSent: 2, wantWaited: time.Second,
			replies: []reply{{err: io.EOF}, {status: 200, body: okPod}}},
		{name: "POST with a cut connection: returned, it may have been applied", wantSent: 1,
			wantErr: func(err error) bool { return errors.Is(err, io.EOF) },
			replies: []reply{{err: io.EOF}, {status: 201, body: okPod}},
			req: func(c *RESTClient) *Request {
				return c.Post().Namespace("demo").Resource("pods").Body([]byte(`{"metadata":{"name":"a"}}`))
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &scripted{replies: tt.replies}
				c := scriptedClient(t, s)
				r := c.Get().Namespace("demo").Resource("pods").Name("a")
				if tt.req != nil {
					r = tt.req(c)
				}
				start := time.Now()
				obj, err := r.Do(context.Background()).Get()
				assert.Equal(t, tt.wantWaited, time.Since(start), "time waited")
				sent := s.requests()
				assert.Len(t, sent, tt.wantSent, "requests sent: %q", sent)
				for _, line := range sent[1:] {
					assert.Equal(t, sent[0], line, "every attempt is the same request")
				}
				if tt.wantErr == nil {
					require.NoError(t, err)
					assert.Equal(t, "a", obj.(*api.Pod).Name)
					return
				}
				require.Error(t, err)
				assert.True(t, tt.wantErr(err), "unexpected error %T: %v", err, err)
			})
		})
	}
}

// TestCh00_RetryAfterContextEnds_R9: a context that ends during the wait ends the call at once
// with the context's error; Config.Timeout bounds the retries as a whole.
func TestCh00_RetryAfterContextEnds_R9(t *testing.T) {
	long := []reply{{status: 429, retryAfter: "30", body: tooMany}}
	t.Run("caller's deadline", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := &scripted{replies: long}
			c := scriptedClient(t, s)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			start := time.Now()
			err := c.Get().Namespace("demo").Resource("pods").Name("a").Do(ctx).Error()
			assert.Equal(t, 5*time.Second, time.Since(start))
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Len(t, s.requests(), 1)
		})
	})
	t.Run("Config.Timeout", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := &scripted{replies: long}
			c, err := RESTClientFor(&Config{Host: "http://apiserver.test", Transport: s, Timeout: 45 * time.Second})
			require.NoError(t, err)
			start := time.Now()
			err = c.Get().Namespace("demo").Resource("pods").Name("a").Do(context.Background()).Error()
			assert.Equal(t, 45*time.Second, time.Since(start))
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Len(t, s.requests(), 2, "sent at 0 s and 30 s")
		})
	})
}

// TestCh00_RetryAfterWatch_R9: opening a watch follows the same rule; a connection cut before
// the headers is retried and, once retries run out, gives an empty closed watch.
func TestCh00_RetryAfterWatch_R9(t *testing.T) {
	event := `{"type":"ADDED","object":` + okPod + "}\n"
	t.Run("429 then the stream", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := &scripted{replies: []reply{{status: 429, retryAfter: "3", body: tooMany}, {status: 200, body: event}}}
			c := scriptedClient(t, s)
			start := time.Now()
			w, err := c.Get().Namespace("demo").Resource("pods").Param("watch", "true").Watch(context.Background())
			require.NoError(t, err)
			defer w.Stop()
			assert.Equal(t, 3*time.Second, time.Since(start))
			ev := <-w.ResultChan()
			assert.Equal(t, watch.Added, ev.Type)
			assert.Len(t, s.requests(), 2)
		})
	})
	t.Run("cut connections until retries run out", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := &scripted{replies: []reply{{err: io.ErrUnexpectedEOF}}}
			c := scriptedClient(t, s)
			start := time.Now()
			w, err := c.Get().Namespace("demo").Resource("pods").Param("watch", "true").Watch(context.Background())
			require.NoError(t, err)
			_, open := <-w.ResultChan()
			assert.False(t, open, "an empty, closed watch")
			assert.Equal(t, 10*time.Second, time.Since(start))
			assert.Len(t, s.requests(), 11)
		})
	})
	t.Run("500 with Retry-After, MaxRetries(1)", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := &scripted{replies: []reply{{status: 500, retryAfter: "1", body: internal}}}
			c := scriptedClient(t, s)
			_, err := c.Get().Namespace("demo").Resource("pods").Param("watch", "true").MaxRetries(1).Watch(context.Background())
			assert.True(t, api.IsInternalError(err), "%v", err)
			assert.Len(t, s.requests(), 2)
		})
	})
}

// instantClock is an injected clock whose timers fire at once: it records the waits asked
// for, so a test over real HTTP needs no virtual time and no sleeping.
type instantClock struct {
	clock.RealClock
	mu    sync.Mutex
	waits []time.Duration
}

type firedTimer struct{ c chan time.Time }

func (f firedTimer) C() <-chan time.Time      { return f.c }
func (f firedTimer) Stop() bool               { return false }
func (f firedTimer) Reset(time.Duration) bool { return false }

func (c *instantClock) NewTimer(d time.Duration) clock.Timer {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- time.Now()
	return firedTimer{ch}
}

// TestCh00_RetryAfterInjectedClock: the waits go through Config.Clock.
func TestCh00_RetryAfterInjectedClock(t *testing.T) {
	s := &scripted{replies: []reply{{status: 429, retryAfter: "7", body: tooMany}, {status: 503, retryAfter: "2", body: unavailable}, {status: 200, body: okPod}}}
	clk := &instantClock{}
	c, err := RESTClientFor(&Config{Host: "http://apiserver.test", Transport: s, Clock: clk})
	require.NoError(t, err)
	start := time.Now()
	require.NoError(t, c.Get().Namespace("demo").Resource("pods").Name("a").Do(context.Background()).Error())
	assert.Less(t, time.Since(start), 7*time.Second, "no real wait")
	assert.Equal(t, []time.Duration{7 * time.Second, 2 * time.Second}, clk.waits)
}

// TestCh00_RetryTrace: each retry logs one hop with the attempt, the wait and the code.
func TestCh00_RetryTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		s := &scripted{replies: []reply{{status: 429, retryAfter: "2", body: tooMany}, {status: 200, body: okPod}}}
		c, err := RESTClientFor(&Config{Host: "http://apiserver.test", Transport: s, Logger: trace.NewPlainLogger(&buf)})
		require.NoError(t, err)
		require.NoError(t, c.Get().Namespace("demo").Resource("pods").Name("a").Do(context.Background()).Error())
		assert.Equal(t, `msg="listwatch retry" component=listwatch op=retry key=/api/v1/namespaces/demo/pods/a rv="" attempt=1 wait=2s code=429`+"\n", buf.String())
	})
}

// BenchmarkRetryTraceDisabled proves the retry hop costs nothing without a logger.
func BenchmarkRetryTraceDisabled(b *testing.B) {
	c, err := RESTClientFor(&Config{Host: "http://apiserver.test"})
	if err != nil {
		b.Fatal(err)
	}
	r := c.Get()
	w := &withRetry{attempts: 1, wait: time.Second}
	resp := &http.Response{StatusCode: 429}
	b.ReportAllocs()
	for b.Loop() {
		r.traceRetry("/api/v1/pods", w, resp, nil)
	}
}

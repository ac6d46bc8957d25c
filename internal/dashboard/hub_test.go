package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/slogtest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// recv takes one queued message without waiting: Handle has already sent it or never will.
func recv(t *testing.T, s *subscriber) map[string]any {
	t.Helper()
	select {
	case msg := <-s.ch:
		require.True(t, json.Valid(msg), "not JSON: %s", msg)
		require.NotContains(t, string(msg), "\n", "an SSE data line must be one line")
		var m map[string]any
		require.NoError(t, json.Unmarshal(msg, &m))
		return m
	default:
		require.Fail(t, "no message queued")
		return nil
	}
}

// withoutEnvelope drops the fields every record has, leaving msg and the attributes.
func withoutEnvelope(m map[string]any) map[string]any {
	delete(m, "seq")
	delete(m, "time")
	delete(m, "level")
	return m
}

func TestDashboard_HubFanOutTraceHop(t *testing.T) {
	hub := NewHub()
	a, unsubA := hub.subscribe(8)
	defer unsubA()
	b, unsubB := hub.subscribe(8)
	defer unsubB()
	require.Equal(t, 2, hub.Subscribers())

	l := slog.New(hub)
	trace.Hop(l, "listener", "add", "default/pod-1", "42",
		slog.String(trace.KeyType, "Added"), slog.String(trace.KeyListener, "fast"))

	want := map[string]any{
		"msg": "listener add", "component": "listener", "op": "add", "key": "default/pod-1",
		"rv": "42", "type": "Added", "listener": "fast",
	}
	for _, s := range []*subscriber{a, b} {
		m := recv(t, s)
		assert.Equal(t, "DEBUG", m["level"])
		assert.NotEmpty(t, m["time"])
		assert.Equal(t, 1.0, m["seq"], "both subscribers get the same encoded record")
		assert.Empty(t, cmp.Diff(want, withoutEnvelope(m)))
	}

	unsubA()
	unsubA() // harmless twice
	trace.Hop(l, "indexer", "add", "default/pod-1", "42")
	assert.Equal(t, "indexer", recv(t, b)["component"])
	assert.Empty(t, a.ch, "an unsubscribed subscriber gets nothing more")
}

// TestDashboard_HubSlowSubscriberDrops: a subscriber that does not read loses records, the
// logger never waits, and a prompt subscriber still gets everything (contract 2).
func TestDashboard_HubSlowSubscriberDrops(t *testing.T) {
	hub := NewHub()
	slow, unsubSlow := hub.subscribe(2)
	defer unsubSlow()
	fast, unsubFast := hub.subscribe(16)
	defer unsubFast()

	l := slog.New(hub)
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		for i := range 5 {
			l.Debug("hop", "i", i)
		}
	}()
	select {
	case <-logged:
	case <-time.After(10 * time.Second):
		require.FailNow(t, "Handle blocked on a full subscriber buffer")
	}

	assert.Equal(t, int64(3), slow.dropped.Load())
	assert.Equal(t, int64(0), fast.dropped.Load())
	assert.Equal(t, int64(3), hub.Dropped())
	assert.Equal(t, 0.0, recv(t, slow)["i"], "the oldest records are kept, later ones dropped")
	assert.Equal(t, 1.0, recv(t, slow)["i"])
	assert.Empty(t, slow.ch)
	for i := range 5 {
		assert.Equal(t, float64(i), recv(t, fast)["i"])
	}
}

// TestDashboard_HubDisabledWithoutSubscribers: no subscriber, no work (contract 3).
func TestDashboard_HubDisabledWithoutSubscribers(t *testing.T) {
	ctx := context.Background()
	hub := NewHub()
	l := slog.New(hub)
	assert.False(t, hub.Enabled(ctx, slog.LevelDebug))
	assert.False(t, trace.Enabled(l))
	derived := hub.WithAttrs([]slog.Attr{slog.String("a", "b")}).WithGroup("g")
	assert.False(t, derived.Enabled(ctx, slog.LevelError))

	allocs := testing.AllocsPerRun(100, func() {
		trace.Hop(l, "indexer", "add", "ns/a", "7", slog.String(trace.KeyType, "Added"))
	})
	assert.Zero(t, allocs, "a hop with no subscriber must not allocate")

	_, unsub := hub.subscribe(1)
	assert.True(t, hub.Enabled(ctx, slog.LevelDebug))
	assert.True(t, hub.Enabled(ctx, slog.LevelError))
	assert.False(t, hub.Enabled(ctx, slog.LevelDebug-1), "below Debug is never wanted")
	assert.True(t, derived.Enabled(ctx, slog.LevelInfo), "derived handlers share subscribers")
	assert.True(t, trace.Enabled(l))
	unsub()
	assert.False(t, hub.Enabled(ctx, slog.LevelDebug))

	// Handle called directly without a subscriber is a no-op, not an error.
	require.NoError(t, hub.Handle(ctx, slog.NewRecord(time.Now(), slog.LevelInfo, "x", 0)))
}

func TestDashboard_HubWithAttrsWithGroup(t *testing.T) {
	tests := []struct {
		name string
		log  func(l *slog.Logger)
		want map[string]any
	}{
		{
			name: "with attrs then record attrs",
			log: func(l *slog.Logger) {
				l.With(trace.KeyComponent, "workqueue").Debug("workqueue add", trace.KeyKey, "ns/a")
			},
			want: map[string]any{"msg": "workqueue add", "component": "workqueue", "key": "ns/a"},
		},
		{
			name: "group nests later attributes only",
			log: func(l *slog.Logger) {
				l.With("a", 1).WithGroup("g").With("b", 2).Debug("m", "c", 3)
			},
			want: map[string]any{"msg": "m", "a": 1.0, "g": map[string]any{"b": 2.0, "c": 3.0}},
		},
		{
			name: "empty group is left out",
			log:  func(l *slog.Logger) { l.With("a", 1).WithGroup("g").WithGroup("h").Debug("m") },
			want: map[string]any{"msg": "m", "a": 1.0},
		},
		{
			name: "inner empty group is left out, outer kept",
			log:  func(l *slog.Logger) { l.WithGroup("g").With("b", 2).WithGroup("h").Debug("m") },
			want: map[string]any{"msg": "m", "g": map[string]any{"b": 2.0}},
		},
		{
			name: "empty keys and empty groups are ignored, empty-key groups inlined",
			log: func(l *slog.Logger) {
				l.WithGroup("").With("", 1).Debug("m", slog.Group(""), slog.Group("", "x", 1),
					slog.Group("e", slog.Group("f")))
			},
			want: map[string]any{"msg": "m", "x": 1.0},
		},
		{
			name: "group attribute in a record",
			log:  func(l *slog.Logger) { l.Debug("m", slog.Group("obj", "name", "a", "rv", 7)) },
			want: map[string]any{"msg": "m", "obj": map[string]any{"name": "a", "rv": 7.0}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hub := NewHub()
			s, unsub := hub.subscribe(4)
			defer unsub()
			tc.log(slog.New(hub))
			assert.Empty(t, cmp.Diff(tc.want, withoutEnvelope(recv(t, s))))
		})
	}
}

// TestDashboard_HubSlogtest runs the standard library's handler conformance suite.
func TestDashboard_HubSlogtest(t *testing.T) {
	var (
		hub  *Hub
		subs []*subscriber
	)
	newHandler := func(*testing.T) slog.Handler {
		hub = NewHub()
		s, unsub := hub.subscribe(16)
		t.Cleanup(unsub)
		subs = append(subs, s)
		return hub
	}
	result := func(t *testing.T) map[string]any {
		return recv(t, subs[len(subs)-1])
	}
	slogtest.Run(t, newHandler, result)
}

type logValuer struct{}

func (logValuer) LogValue() slog.Value { return slog.StringValue("resolved") }

func TestDashboard_HubEncodesValues(t *testing.T) {
	hub := NewHub()
	s, unsub := hub.subscribe(4)
	defer unsub()
	when := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	slog.New(hub).Debug("line1\nline2 \u2028 \"q\" \\ \x01",
		"nan", math.NaN(), "inf", math.Inf(1), "f", 1.5, "u", uint64(7), "b", true,
		"d", 1500*time.Millisecond, "t", when, "err", errors.New("boom"),
		"bad", "a\xffb", "lv", logValuer{}, "list", []int{1, 2}, "fn", func() {})

	m := withoutEnvelope(recv(t, s))
	want := map[string]any{
		"msg": "line1\nline2 \u2028 \"q\" \\ \x01",
		"nan": "NaN", "inf": "+Inf", "f": 1.5, "u": 7.0, "b": true, "d": "1.5s",
		"t": "2026-01-02T03:04:05.000000006Z", "err": "boom", "bad": "a\ufffdb",
		"lv": "resolved", "list": []any{1.0, 2.0},
	}
	fn, ok := m["fn"].(string)
	require.True(t, ok)
	assert.True(t, strings.HasPrefix(fn, "!ERROR:"), "an unencodable value becomes an error string: %q", fn)
	delete(m, "fn")
	assert.Empty(t, cmp.Diff(want, m))
}

// TestDashboard_HubConcurrent logs from several goroutines while subscribers come and go;
// run with -race it checks the copy-on-write subscriber list.
func TestDashboard_HubConcurrent(t *testing.T) {
	hub := NewHub()
	l := slog.New(hub)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				trace.Hop(l, "fifo", "add", "ns/a", "1", slog.Int("g", g), slog.Int("i", i))
			}
		})
	}
	for range 50 {
		s, unsub := hub.subscribe(4)
		<-s.ch // some hop reached this subscriber
		unsub()
	}
	close(stop)
	wg.Wait()
	assert.Equal(t, 0, hub.Subscribers())
}

// TestDashboard_HubEncodesHTMLSafeLines: whatever a message, key or value holds, an event is
// one line of JSON that is also safe inside HTML and JavaScript (internal/jsonstr escapes as
// encoding/json does), and it decodes back to the strings logged, invalid UTF-8 replaced.
func TestDashboard_HubEncodesHTMLSafeLines(t *testing.T) {
	tests := []string{"", "plain", "tab\there", "quote\"back\\slash", "\x00\x1f", "héllo 世界",
		"bad\xc3", "\u2028\u2029", "<script>&", "line1\nline2\r"}
	hub := NewHub()
	s, unsub := hub.subscribe(len(tests))
	defer unsub()
	l := slog.New(hub)
	for _, str := range tests {
		l.Debug(str, "k"+str, str)
		var msg []byte
		select {
		case msg = <-s.ch:
		default:
			require.Fail(t, "no message queued")
		}
		require.True(t, json.Valid(msg), "%q -> %s", str, msg)
		require.False(t, bytes.ContainsAny(msg, "\n\r\u2028\u2029<>&"), "%q -> %s", str, msg)
		var m map[string]any
		require.NoError(t, json.Unmarshal(msg, &m))
		want := strings.ToValidUTF8(str, "\ufffd")
		assert.Equal(t, want, m["msg"])
		assert.Equal(t, want, m["k"+want])
	}
}

package trace

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taps returns a logger whose records are decoded, and the hops decoded so far.
func taps() (*slog.Logger, func() []*Record) {
	var mu sync.Mutex
	var hops []*Record
	l := slog.New(NewTap(func(h *Record) {
		mu.Lock()
		hops = append(hops, h)
		mu.Unlock()
	}))
	return l, func() []*Record {
		mu.Lock()
		defer mu.Unlock()
		return hops
	}
}

// keys lists a hop's extra attributes as key=value, in order.
func keys(h *Record) []string {
	var out []string
	for _, a := range h.Attrs {
		out = append(out, a.Key+"="+a.Value.String())
	}
	return out
}

type lazy struct{}

func (lazy) LogValue() slog.Value { return slog.StringValue("resolved") }

// TestTrace_DecodeHop: what Hop writes comes back in the fields, type and listener both in
// their fields and in place among the extras, which keep their order and kind.
func TestTrace_DecodeHop(t *testing.T) {
	l, got := taps()
	Hop(l, "listener", "pop", "ns/a", "7", slog.String(KeyType, "update"), slog.String(KeyListener, "audit"),
		slog.Int64("pending", 3), slog.Uint64("cap", 1024), slog.Bool("init", true), slog.Any("lazy", lazy{}))
	require.Len(t, got(), 1)
	h := got()[0]
	assert.Equal(t, slog.LevelDebug, h.Level)
	assert.Equal(t, "listener pop", h.Message)
	assert.True(t, h.Is("listener", "pop"))
	assert.False(t, h.Is("listener", "add"))
	assert.Equal(t, []string{"listener", "pop", "ns/a", "7", "update", "audit"},
		[]string{h.Component, h.Op, h.Key, h.RV, h.Type, h.Listener})
	assert.Equal(t, []string{"type=update", "listener=audit", "pending=3", "cap=1024", "init=true", "lazy=resolved"}, keys(h))

	n, ok := h.Int("pending")
	assert.True(t, ok)
	assert.Equal(t, int64(3), n)
	n, ok = h.Int("cap")
	assert.True(t, ok)
	assert.Equal(t, int64(1024), n)
	_, ok = h.Int("init")
	assert.False(t, ok, "a boolean is not an integer")
	_, ok = h.Int("absent")
	assert.False(t, ok)
	assert.True(t, h.Bool("init"))
	assert.False(t, h.Bool("pending"), "an integer is not a boolean")
	assert.False(t, h.Bool("absent"))
	assert.Equal(t, "resolved", h.Text("lazy"), "a LogValuer is resolved")
	assert.Empty(t, h.Text("absent"))
}

// TestTrace_DecodeLogLine: a record that is not a hop keeps its level and message, and has no
// component.
func TestTrace_DecodeLogLine(t *testing.T) {
	l, got := taps()
	l.Warn("watch ended", "reflector", "pods", "err", "EOF")
	h := got()[0]
	assert.Equal(t, slog.LevelWarn, h.Level)
	assert.Equal(t, "watch ended", h.Message)
	assert.Empty(t, h.Component)
	assert.Equal(t, []string{"reflector=pods", "err=EOF"}, keys(h))
	assert.False(t, h.Time.IsZero())
}

// TestTrace_DecodeScope: WithAttrs and WithGroup follow the slog.Handler rules; a key inside
// groups is qualified, so "g.component" is not the component; empty keys and empty groups are
// dropped, an empty-key group is inlined.
func TestTrace_DecodeScope(t *testing.T) {
	tests := []struct {
		name      string
		log       func(l *slog.Logger)
		component string
		want      []string
	}{
		{
			name:      "with attrs before the record's",
			log:       func(l *slog.Logger) { l.With(KeyComponent, "workqueue", "queue", "pods").Debug("m", KeyOp, "add") },
			component: "workqueue",
			want:      []string{"queue=pods"},
		},
		{
			name: "groups qualify later keys only",
			log: func(l *slog.Logger) {
				l.With("a", 1).WithGroup("g").With(KeyComponent, "x").WithGroup("h").Debug("m", "c", 3)
			},
			want: []string{"a=1", "g.component=x", "g.h.c=3"},
		},
		{
			name: "empty keys, empty groups, inlined groups",
			log: func(l *slog.Logger) {
				l.WithGroup("").With("", 1).WithGroup("e").Debug("m", slog.Group(""), slog.Group("", "x", 1),
					slog.Group("f", slog.Group("g")), slog.Group("obj", "name", "a"))
			},
			want: []string{"e.x=1", "e.obj.name=a"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, got := taps()
			tc.log(l)
			require.Len(t, got(), 1)
			assert.Equal(t, tc.component, got()[0].Component)
			assert.Empty(t, cmp.Diff(tc.want, keys(got()[0])))
		})
	}
}

// TestTrace_WalkEvents: opens and closes pair up around what a group holds, and a group that
// would be empty is never opened.
func TestTrace_WalkEvents(t *testing.T) {
	s, changed := Scope{}.WithAttrs([]slog.Attr{slog.Int("a", 1), {}})
	require.True(t, changed)
	_, changed = s.WithAttrs([]slog.Attr{{}, slog.Group("empty")})
	assert.False(t, changed, "nothing to keep")
	s = s.WithGroup("g").WithGroup("").WithGroup("h")
	r := slog.NewRecord(time.Time{}, slog.LevelDebug, "m", 0)
	r.AddAttrs(slog.Group("obj", slog.Int("b", 2)))
	var got []string
	s.Walk(r, func(e Event) {
		switch e.Kind {
		case EventOpen:
			got = append(got, "open "+e.Attr.Key)
		case EventClose:
			got = append(got, "close")
		default:
			got = append(got, e.Attr.String())
		}
	})
	assert.Equal(t, []string{"a=1", "open g", "open h", "open obj", "b=2", "close", "close", "close"}, got)

	got = nil
	s.Walk(slog.NewRecord(time.Time{}, slog.LevelDebug, "m", 0), func(e Event) { got = append(got, e.Attr.String()) })
	assert.Equal(t, []string{"a=1"}, got, "groups with nothing inside are left out")
}

// TestTrace_WalkAllocs: gathering a hop's attributes costs no allocation of its own; what
// Decode allocates is the Record and its extras.
func TestTrace_WalkAllocs(t *testing.T) {
	r := slog.NewRecord(time.Time{}, slog.LevelDebug, "indexer add", 0)
	r.AddAttrs(slog.String(KeyComponent, "indexer"), slog.String(KeyOp, "add"), slog.String(KeyKey, "ns/a"),
		slog.String(KeyRV, "7"), slog.String(KeyType, "Added"))
	n := 0
	allocs := testing.AllocsPerRun(100, func() { Scope{}.Walk(r, func(Event) { n++ }) })
	assert.Zero(t, allocs)
}

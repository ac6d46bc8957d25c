package trace

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
)

func newLogger(buf *bytes.Buffer, level slog.Level) *slog.Logger {
	if level == slog.LevelDebug {
		return NewPlainLogger(buf)
	}
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: level}))
}

func TestTrace_Hop(t *testing.T) {
	tests := []struct {
		name   string
		level  slog.Level
		nilLog bool
		want   string
	}{
		{name: "debug enabled", level: slog.LevelDebug,
			want: "msg=\"indexer add\" component=indexer op=add key=ns/a rv=7 type=Added\n"},
		{name: "debug disabled", level: slog.LevelInfo, want: ""},
		{name: "nil logger", nilLog: true, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := newLogger(&buf, tc.level)
			if tc.nilLog {
				l = nil
			}
			assert.Equal(t, tc.level == slog.LevelDebug && !tc.nilLog, Enabled(l))
			Hop(l, "indexer", "add", "ns/a", "7", slog.String(KeyType, "Added"))
			assert.Equal(t, tc.want, buf.String())
		})
	}
}

// BenchmarkHopDisabled shows that a hop on a disabled logger costs no allocation.
func BenchmarkHopDisabled(b *testing.B) {
	l := newLogger(&bytes.Buffer{}, slog.LevelInfo)
	b.ReportAllocs()
	for b.Loop() {
		Hop(l, "indexer", "add", "ns/a", "7")
	}
}

// BenchmarkHopNil is the cost for a component built without a logger.
func BenchmarkHopNil(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Hop(nil, "indexer", "add", "ns/a", "7")
	}
}

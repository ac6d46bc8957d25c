package dashboard

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/informer-lab/informer-lab/internal/trace"
)

// encode renders one record as a single-line JSON object: seq, time, level and msg first, then
// the attributes, nested by group the way slog.JSONHandler nests them. A trace hop therefore
// arrives as {"seq":…,"msg":"indexer add","component":"indexer","op":"add","key":…,"rv":…}.
func (h *Hub) encode(seq uint64, r slog.Record) []byte {
	buf := make([]byte, 0, 256)
	buf = append(buf, `{"seq":`...)
	buf = strconv.AppendUint(buf, seq, 10)
	if !r.Time.IsZero() {
		// An RFC 3339 time needs no escaping, so it is formatted straight into buf.
		buf = append(buf, `,"time":"`...)
		buf = r.Time.AppendFormat(buf, time.RFC3339Nano)
		buf = append(buf, '"')
	}
	buf = append(buf, `,"level":`...)
	buf = appendJSONString(buf, r.Level.String())
	buf = append(buf, `,"msg":`...)
	buf = appendJSONString(buf, r.Message)

	comma := true // seq is already written
	// trace.Scope.Walk applies the slog.Handler rules (the ones slogtest checks); all that is
	// left here is JSON: a group opens an object, an attribute is a member.
	h.scope.Walk(r, func(e trace.Event) {
		switch e.Kind {
		case trace.EventOpen:
			buf = appendKey(buf, e.Attr.Key, &comma)
			buf = append(buf, '{')
			comma = false
		case trace.EventClose:
			buf = append(buf, '}')
			comma = true
		default:
			buf = appendKey(buf, e.Attr.Key, &comma)
			buf = appendValue(buf, e.Attr.Value)
		}
	})
	return append(buf, '}')
}

func appendKey(buf []byte, key string, comma *bool) []byte {
	if *comma {
		buf = append(buf, ',')
	}
	*comma = true
	buf = appendJSONString(buf, key)
	return append(buf, ':')
}

func appendValue(buf []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendJSONString(buf, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(buf, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(buf, v.Uint64(), 10)
	case slog.KindFloat64:
		f := v.Float64()
		if math.IsNaN(f) || math.IsInf(f, 0) { // JSON has no literal for them
			return appendJSONString(buf, strconv.FormatFloat(f, 'g', -1, 64))
		}
		return strconv.AppendFloat(buf, f, 'g', -1, 64)
	case slog.KindBool:
		return strconv.AppendBool(buf, v.Bool())
	case slog.KindDuration:
		// A string reads better in the event log than JSONHandler's nanoseconds.
		return appendJSONString(buf, v.Duration().String())
	case slog.KindTime:
		return appendJSONString(buf, v.Time().Format(time.RFC3339Nano))
	default:
		x := v.Any()
		if err, ok := x.(error); ok {
			return appendJSONString(buf, err.Error())
		}
		b, err := json.Marshal(x)
		if err != nil {
			return appendJSONString(buf, fmt.Sprintf("!ERROR: %v", err))
		}
		return append(buf, b...)
	}
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, and U+2028 and
// U+2029 are escaped so the line is also valid JavaScript.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

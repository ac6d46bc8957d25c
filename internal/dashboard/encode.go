package dashboard

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
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

	var stack [8]slog.Attr // a trace hop has 4 to 6 attributes: no allocation for them
	rec := stack[:0]
	r.Attrs(func(a slog.Attr) bool {
		rec = append(rec, a)
		return true
	})
	sep := true // seq is already written
	buf = h.appendFrames(buf, 0, rec, &sep)
	return append(buf, '}')
}

// appendFrames writes frame i's attributes and then, inside frame i+1's group, everything
// deeper; the record's own attributes go in the innermost frame. A group with nothing in it is
// left out, as slog requires.
func (h *Hub) appendFrames(buf []byte, i int, rec []slog.Attr, sep *bool) []byte {
	for _, a := range h.frames[i].attrs {
		buf = appendAttr(buf, a, sep)
	}
	if i == len(h.frames)-1 {
		for _, a := range rec {
			buf = appendAttr(buf, a, sep)
		}
		return buf
	}
	if !h.framesHaveContent(i+1, rec) {
		return buf
	}
	buf = appendKey(buf, h.frames[i+1].group, sep)
	buf = append(buf, '{')
	inner := false
	buf = h.appendFrames(buf, i+1, rec, &inner)
	return append(buf, '}')
}

func (h *Hub) framesHaveContent(from int, rec []slog.Attr) bool {
	for _, f := range h.frames[from:] {
		if hasContent(f.attrs) {
			return true
		}
	}
	return hasContent(rec)
}

// hasContent reports whether any of as would produce output.
func hasContent(as []slog.Attr) bool {
	for _, a := range as {
		v := a.Value.Resolve()
		if v.Kind() == slog.KindGroup {
			if hasContent(v.Group()) {
				return true
			}
			continue
		}
		if a.Key != "" {
			return true
		}
	}
	return false
}

func appendKey(buf []byte, key string, sep *bool) []byte {
	if *sep {
		buf = append(buf, ',')
	}
	*sep = true
	buf = appendJSONString(buf, key)
	return append(buf, ':')
}

func appendAttr(buf []byte, a slog.Attr, sep *bool) []byte {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		members := v.Group()
		if !hasContent(members) {
			return buf
		}
		if a.Key == "" { // an empty-keyed group is inlined
			for _, m := range members {
				buf = appendAttr(buf, m, sep)
			}
			return buf
		}
		buf = appendKey(buf, a.Key, sep)
		buf = append(buf, '{')
		inner := false
		for _, m := range members {
			buf = appendAttr(buf, m, &inner)
		}
		return append(buf, '}')
	}
	if a.Key == "" {
		return buf
	}
	buf = appendKey(buf, a.Key, sep)
	return appendValue(buf, v)
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

package dashboard

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/internal/jsonstr"
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
	buf = jsonstr.Append(buf, r.Level.String())
	buf = append(buf, `,"msg":`...)
	buf = jsonstr.Append(buf, r.Message)

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
	buf = jsonstr.Append(buf, key)
	return append(buf, ':')
}

func appendValue(buf []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return jsonstr.Append(buf, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(buf, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(buf, v.Uint64(), 10)
	case slog.KindFloat64:
		f := v.Float64()
		if math.IsNaN(f) || math.IsInf(f, 0) { // JSON has no literal for them
			return jsonstr.Append(buf, strconv.FormatFloat(f, 'g', -1, 64))
		}
		return strconv.AppendFloat(buf, f, 'g', -1, 64)
	case slog.KindBool:
		return strconv.AppendBool(buf, v.Bool())
	case slog.KindDuration:
		// A string reads better in the event log than JSONHandler's nanoseconds.
		return jsonstr.Append(buf, v.Duration().String())
	case slog.KindTime:
		return jsonstr.Append(buf, v.Time().Format(time.RFC3339Nano))
	default:
		x := v.Any()
		if err, ok := x.(error); ok {
			return jsonstr.Append(buf, err.Error())
		}
		b, err := json.Marshal(x)
		if err != nil {
			return jsonstr.Append(buf, fmt.Sprintf("!ERROR: %v", err))
		}
		return append(buf, b...)
	}
}

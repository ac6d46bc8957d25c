package cel

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// Unix seconds bounds of a CEL timestamp (years 0001 to 9999).
const (
	minUnixTime int64 = -62135596800
	maxUnixTime int64 = 253402300799
)

func convErr(from, to *Type) *Err {
	return errorf("type conversion error from '%s' to '%s'", from.Name, to.Name)
}

func identity(v Value) Value { return v }

func conversionLib(l *library) {
	l.global("type", "type", TypeOf(tA), ts(tA), func(v Value) Value { return typeOfValue(v) })
	l.global("dyn", "to_dyn", DynType, ts(tA), identity)

	l.global("bool", "bool_to_bool", BoolType, ts(BoolType), identity)
	l.global("bool", "string_to_bool", BoolType, ts(StringType), func(v Value) Value {
		if b, err := strconv.ParseBool(v.(string)); err == nil {
			return b
		}
		return convErr(StringType, BoolType)
	})
	l.global("bytes", "bytes_to_bytes", BytesType, ts(BytesType), identity)
	l.global("bytes", "string_to_bytes", BytesType, ts(StringType), func(v Value) Value { return Bytes(v.(string)) })

	l.global("double", "double_to_double", DoubleType, ts(DoubleType), identity)
	l.global("double", "int64_to_double", DoubleType, ts(IntType), func(v Value) Value { return float64(v.(int64)) })
	l.global("double", "string_to_double", DoubleType, ts(StringType), func(v Value) Value {
		if f, err := strconv.ParseFloat(v.(string), 64); err == nil {
			return f
		}
		return convErr(StringType, DoubleType)
	})
	l.global("double", "uint64_to_double", DoubleType, ts(UintType), func(v Value) Value { return float64(v.(uint64)) })

	l.global("duration", "duration_to_duration", DurationType, ts(DurationType), identity)
	l.global("duration", "int64_to_duration", DurationType, ts(IntType), func(Value) Value { return convErr(IntType, DurationType) })
	l.global("duration", "string_to_duration", DurationType, ts(StringType), func(v Value) Value {
		if d, err := time.ParseDuration(v.(string)); err == nil {
			return Duration{d}
		}
		return convErr(StringType, DurationType)
	})

	l.global("int", "int64_to_int64", IntType, ts(IntType), identity)
	l.global("int", "double_to_int64", IntType, ts(DoubleType), func(v Value) Value {
		d := v.(float64)
		if math.IsInf(d, 0) || d != d || d <= math.MinInt64 || d >= math.MaxInt64 {
			return errIntOverflow
		}
		return int64(d)
	})
	l.global("int", "duration_to_int64", IntType, ts(DurationType), func(v Value) Value { return int64(v.(Duration).D) })
	l.global("int", "string_to_int64", IntType, ts(StringType), func(v Value) Value {
		if i, err := strconv.ParseInt(v.(string), 10, 64); err == nil {
			return i
		}
		return convErr(StringType, IntType)
	})
	l.global("int", "timestamp_to_int64", IntType, ts(TimestampType), func(v Value) Value { return v.(Timestamp).T.Unix() })
	l.global("int", "uint64_to_int64", IntType, ts(UintType), func(v Value) Value {
		u := v.(uint64)
		if u > math.MaxInt64 {
			return errIntOverflow
		}
		return int64(u)
	})

	l.global("string", "string_to_string", StringType, ts(StringType), identity)
	l.global("string", "bool_to_string", StringType, ts(BoolType), func(v Value) Value { return strconv.FormatBool(v.(bool)) })
	l.global("string", "bytes_to_string", StringType, ts(BytesType), func(v Value) Value {
		b := v.(Bytes)
		if !utf8.ValidString(string(b)) {
			return errorf("invalid UTF-8 in bytes, cannot convert to string")
		}
		return string(b)
	})
	l.global("string", "double_to_string", StringType, ts(DoubleType), func(v Value) Value { return fmt.Sprintf("%g", v.(float64)) })
	l.global("string", "duration_to_string", StringType, ts(DurationType), func(v Value) Value { return durationString(v.(Duration).D) })
	l.global("string", "int64_to_string", StringType, ts(IntType), func(v Value) Value { return strconv.FormatInt(v.(int64), 10) })
	l.global("string", "timestamp_to_string", StringType, ts(TimestampType), func(v Value) Value { return v.(Timestamp).T.Format(time.RFC3339Nano) })
	l.global("string", "uint64_to_string", StringType, ts(UintType), func(v Value) Value { return strconv.FormatUint(v.(uint64), 10) })

	l.global("timestamp", "timestamp_to_timestamp", TimestampType, ts(TimestampType), identity)
	l.global("timestamp", "int64_to_timestamp", TimestampType, ts(IntType), func(v Value) Value {
		i := v.(int64)
		if i < minUnixTime || i > maxUnixTime {
			return errTimestampOverflow
		}
		return Timestamp{time.Unix(i, 0).UTC()}
	})
	l.global("timestamp", "string_to_timestamp", TimestampType, ts(StringType), func(v Value) Value {
		t, err := time.Parse(time.RFC3339, v.(string))
		if err != nil {
			return convErr(StringType, TimestampType)
		}
		if t.Unix() < minUnixTime || t.Unix() > maxUnixTime {
			return errTimestampOverflow
		}
		return Timestamp{t}
	})

	l.global("uint", "uint64_to_uint64", UintType, ts(UintType), identity)
	l.global("uint", "double_to_uint64", UintType, ts(DoubleType), func(v Value) Value {
		d := v.(float64)
		if math.IsInf(d, 0) || d != d || d < 0 || d >= 18446744073709551616.0 {
			return errUintOverflow
		}
		return uint64(d)
	})
	l.global("uint", "int64_to_uint64", UintType, ts(IntType), func(v Value) Value {
		i := v.(int64)
		if i < 0 {
			return errUintOverflow
		}
		return uint64(i)
	})
	l.global("uint", "string_to_uint64", UintType, ts(StringType), func(v Value) Value {
		if u, err := strconv.ParseUint(v.(string), 10, 64); err == nil {
			return u
		}
		return convErr(StringType, UintType)
	})
}

func durationString(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

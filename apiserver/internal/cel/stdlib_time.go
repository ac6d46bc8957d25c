package cel

import (
	"math"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // time zone names work without the host's zoneinfo
)

func addDurations(a, b Value) Value {
	r := addInt(int64(a.(Duration).D), int64(b.(Duration).D))
	if i, ok := r.(int64); ok {
		return Duration{time.Duration(i)}
	}
	return r
}

func subDurations(a, b Value) Value {
	r := subInt(int64(a.(Duration).D), int64(b.(Duration).D))
	if i, ok := r.(int64); ok {
		return Duration{time.Duration(i)}
	}
	return r
}

// addTime adds with overflow checks on seconds, as cel-go's addTimeDurationChecked.
func addTime(t Timestamp, d Duration) Value {
	sec1, nsec1 := t.T.Unix(), int64(t.T.Nanosecond())
	sec2, nsec2 := int64(d.D/time.Second), int64(d.D%time.Second)
	s, ok := addInt(sec1, sec2).(int64)
	if !ok {
		return errIntOverflow
	}
	ns := nsec1 + nsec2
	if ns >= int64(time.Second) || ns < 0 {
		s2, ok := addInt(s, ns/int64(time.Second)).(int64)
		if !ok {
			return errIntOverflow
		}
		s, ns = s2, ns%int64(time.Second)
		if ns < 0 {
			ns += int64(time.Second)
			if s, ok = subInt(s, 1).(int64); !ok {
				return errIntOverflow
			}
		}
	}
	if s < minUnixTime || s > maxUnixTime {
		return errTimestampOverflow
	}
	return Timestamp{time.Unix(s, ns).In(t.T.Location())}
}

func subTimeDuration(a, b Value) Value {
	d := b.(Duration).D
	if d == math.MinInt64 {
		return errIntOverflow
	}
	return addTime(a.(Timestamp), Duration{-d})
}

func subTimes(a, b Value) Value {
	x, y := a.(Timestamp).T, b.(Timestamp).T
	s, ok := subInt(x.Unix(), y.Unix()).(int64)
	if !ok {
		return errIntOverflow
	}
	ns := int64(x.Nanosecond() - y.Nanosecond())
	ts, ok := mulInt(s, int64(time.Second)).(int64)
	if !ok {
		return errIntOverflow
	}
	r, ok := addInt(ts, ns).(int64)
	if !ok {
		return errIntOverflow
	}
	return Duration{time.Duration(r)}
}

// inZone converts a timestamp to a named zone or a ±hh:mm offset, as cel-go's inTimeZone.
func inZone(t time.Time, tz string) (time.Time, *Err) {
	ind := strings.Index(tz, ":")
	if ind == -1 {
		loc, err := time.LoadLocation(tz)
		if err != nil {
			return t, errorf("%s", err.Error())
		}
		return t.In(loc), nil
	}
	hr, err := strconv.Atoi(tz[:ind])
	if err != nil {
		return t, errorf("%s", err.Error())
	}
	mins, err := strconv.Atoi(tz[ind+1:])
	if err != nil {
		return t, errorf("%s", err.Error())
	}
	offset := hr*60 + mins
	if tz[0] == '-' {
		offset = hr*60 - mins
	}
	return t.In(time.FixedZone("", offset*60)), nil
}

type timePart struct {
	name, id string
	get      func(time.Time) int64
}

func timeLib(l *library) {
	parts := []timePart{
		{"getFullYear", "timestamp_to_year", func(t time.Time) int64 { return int64(t.Year()) }},
		{"getMonth", "timestamp_to_month", func(t time.Time) int64 { return int64(t.Month()) - 1 }},
		{"getDayOfYear", "timestamp_to_day_of_year", func(t time.Time) int64 { return int64(t.YearDay()) - 1 }},
		{"getDayOfMonth", "timestamp_to_day_of_month", func(t time.Time) int64 { return int64(t.Day()) - 1 }},
		{"getDate", "timestamp_to_day_of_month_1_based", func(t time.Time) int64 { return int64(t.Day()) }},
		{"getDayOfWeek", "timestamp_to_day_of_week", func(t time.Time) int64 { return int64(t.Weekday()) }},
		{"getHours", "timestamp_to_hours", func(t time.Time) int64 { return int64(t.Hour()) }},
		{"getMinutes", "timestamp_to_minutes", func(t time.Time) int64 { return int64(t.Minute()) }},
		{"getSeconds", "timestamp_to_seconds", func(t time.Time) int64 { return int64(t.Second()) }},
		{"getMilliseconds", "timestamp_to_milliseconds", func(t time.Time) int64 { return int64(t.Nanosecond() / 1e6) }},
	}
	tzIDs := map[string]string{"getSeconds": "timestamp_to_seconds_tz"}
	durs := map[string]func(time.Duration) int64{
		"getHours":        func(d time.Duration) int64 { return int64(d.Hours()) },
		"getMinutes":      func(d time.Duration) int64 { return int64(d.Minutes()) },
		"getSeconds":      func(d time.Duration) int64 { return int64(d.Seconds()) },
		"getMilliseconds": func(d time.Duration) int64 { return d.Milliseconds() },
	}
	for _, p := range parts {
		get := p.get
		l.member(p.name, p.id, IntType, ts(TimestampType), func(v Value) Value { return get(v.(Timestamp).T.UTC()) })
		tzID := tzIDs[p.name]
		if tzID == "" {
			tzID = p.id + "_with_tz"
		}
		l.member(p.name, tzID, IntType, ts(TimestampType, StringType), func(v, z Value) Value {
			t, err := inZone(v.(Timestamp).T, z.(string))
			if err != nil {
				return err
			}
			return get(t)
		})
		if d := durs[p.name]; d != nil {
			id := "duration_to_" + strings.ToLower(strings.TrimPrefix(p.name, "get"))
			l.member(p.name, id, IntType, ts(DurationType), func(v Value) Value { return d(v.(Duration).D) })
		}
	}
}

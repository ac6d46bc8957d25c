package cron

import "time"

// SpecSchedule mirrors cron.SpecSchedule: one bit per allowed value of each field.
type SpecSchedule struct {
	Second, Minute, Hour, Dom, Month, Dow uint64
	// Location reads the fields in that zone; nil reads them in the zone of Next's argument.
	Location *time.Location
}

// Next mirrors SpecSchedule.Next (contract 4): it walks forward field by field, from the
// month down, resetting the smaller fields whenever a larger one moves, and gives up after
// five years.
func (s *SpecSchedule) Next(t time.Time) time.Time {
	orig := t.Location()
	loc := orig
	if s.Location != nil {
		loc = s.Location
		t = t.In(loc)
	}
	// Start at the next whole second.
	t = t.Add(time.Second - time.Duration(t.Nanosecond()))
	moved := false // once a field moved, the smaller ones start from their minimum
	yearLimit := t.Year() + 5

wrap:
	if t.Year() > yearLimit {
		return time.Time{}
	}
	for 1<<uint(t.Month())&s.Month == 0 {
		if !moved {
			moved = true
			t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
		}
		t = t.AddDate(0, 1, 0)
		if t.Month() == time.January {
			goto wrap
		}
	}
	for !s.dayMatches(t) {
		if !moved {
			moved = true
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
		}
		t = t.AddDate(0, 0, 1)
		// A daylight-saving change can leave midnight at 23:00 or 01:00: put it back.
		if h := t.Hour(); h != 0 {
			if h > 12 {
				t = t.Add(time.Duration(24-h) * time.Hour)
			} else {
				t = t.Add(-time.Duration(h) * time.Hour)
			}
		}
		if t.Day() == 1 {
			goto wrap
		}
	}
	for 1<<uint(t.Hour())&s.Hour == 0 {
		if !moved {
			moved = true
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc)
		}
		t = t.Add(time.Hour)
		if t.Hour() == 0 {
			goto wrap
		}
	}
	for 1<<uint(t.Minute())&s.Minute == 0 {
		if !moved {
			moved = true
			t = t.Truncate(time.Minute)
		}
		t = t.Add(time.Minute)
		if t.Minute() == 0 {
			goto wrap
		}
	}
	for 1<<uint(t.Second())&s.Second == 0 {
		if !moved {
			moved = true
			t = t.Truncate(time.Second)
		}
		t = t.Add(time.Second)
		if t.Second() == 0 {
			goto wrap
		}
	}
	return t.In(orig)
}

// dayMatches applies contract 3.
func (s *SpecSchedule) dayMatches(t time.Time) bool {
	dom := 1<<uint(t.Day())&s.Dom > 0
	dow := 1<<uint(t.Weekday())&s.Dow > 0
	if s.Dom&starBit > 0 || s.Dow&starBit > 0 {
		return dom && dow
	}
	return dom || dow
}

// ConstantDelaySchedule mirrors cron.ConstantDelaySchedule: "@every <duration>".
type ConstantDelaySchedule struct {
	Delay time.Duration
}

// Every mirrors cron.Every: the delay rounded down to whole seconds, at least one second.
func Every(d time.Duration) ConstantDelaySchedule {
	d = max(d, time.Second)
	return ConstantDelaySchedule{Delay: d - d%time.Second}
}

// Next mirrors ConstantDelaySchedule.Next: t plus the delay, on a whole second.
func (c ConstantDelaySchedule) Next(t time.Time) time.Time {
	return t.Add(c.Delay - time.Duration(t.Nanosecond()))
}

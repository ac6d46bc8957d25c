package cron

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Schedule mirrors cron.Schedule: what gives the next activation time after a given time.
type Schedule interface {
	Next(t time.Time) time.Time
}

// bounds is one field's range and the names it accepts.
type bounds struct {
	min, max uint
	names    map[string]uint
}

var (
	minuteBounds = bounds{0, 59, nil}
	hourBounds   = bounds{0, 23, nil}
	domBounds    = bounds{1, 31, nil}
	monthBounds  = bounds{1, 12, map[string]uint{
		"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
		"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
	}}
	dowBounds = bounds{0, 6, map[string]uint{
		"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6,
	}}
)

// starBit marks a field written as "*" or "?": it decides how the two day fields combine.
const starBit = 1 << 63

// ParseStandard mirrors cron.ParseStandard (contract 1 and 2), with its error messages,
// since the CronJob controller's events quote them.
func ParseStandard(spec string) (Schedule, error) {
	if spec == "" {
		return nil, fmt.Errorf("empty spec string")
	}
	var loc *time.Location // nil: the location of the time Next is given
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		eq := strings.Index(spec, "=")
		sp := strings.Index(spec, " ")
		if sp < 0 {
			// robfig slices up to the first space and panics without one; upstream recovers
			// the panic into an error, which this is.
			return nil, fmt.Errorf("provided bad location %s: missing schedule", spec[eq+1:])
		}
		l, err := time.LoadLocation(spec[eq+1 : sp])
		if err != nil {
			return nil, fmt.Errorf("provided bad location %s: %v", spec[eq+1:sp], err)
		}
		loc = l
		spec = strings.TrimSpace(spec[sp:])
	}
	if strings.HasPrefix(spec, "@") {
		return parseDescriptor(spec, loc)
	}
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return nil, fmt.Errorf("expected exactly 5 fields, found %d: %s", len(fields), fields)
	}
	s := &SpecSchedule{Second: 1, Location: loc}
	var err error
	for i, f := range []struct {
		dst *uint64
		b   bounds
	}{{&s.Minute, minuteBounds}, {&s.Hour, hourBounds}, {&s.Dom, domBounds}, {&s.Month, monthBounds}, {&s.Dow, dowBounds}} {
		if *f.dst, err = getField(fields[i], f.b); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// getField ORs the bits of every comma-separated range of a field.
func getField(field string, b bounds) (uint64, error) {
	var bits uint64
	for _, expr := range strings.FieldsFunc(field, func(r rune) bool { return r == ',' }) {
		bit, err := getRange(expr, b)
		if err != nil {
			return bits, err
		}
		bits |= bit
	}
	return bits, nil
}

// getRange reads one "*", "?", "v", "a-b", each with an optional "/step".
func getRange(expr string, b bounds) (uint64, error) {
	rangeAndStep := strings.Split(expr, "/")
	lowHigh := strings.Split(rangeAndStep[0], "-")
	var start, end, step uint
	var extra uint64
	var err error
	if lowHigh[0] == "*" || lowHigh[0] == "?" {
		start, end, extra = b.min, b.max, starBit
	} else {
		if start, err = parseIntOrName(lowHigh[0], b.names); err != nil {
			return 0, err
		}
		switch len(lowHigh) {
		case 1:
			end = start
		case 2:
			if end, err = parseIntOrName(lowHigh[1], b.names); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("too many hyphens: %s", expr)
		}
	}
	switch len(rangeAndStep) {
	case 1:
		step = 1
	case 2:
		if step, err = parseUint(rangeAndStep[1]); err != nil {
			return 0, err
		}
		if len(lowHigh) == 1 {
			end = b.max // "5/15" runs from 5 to the field's end
		}
		if step > 1 {
			extra = 0 // "*/2" restricts the field
		}
	default:
		return 0, fmt.Errorf("too many slashes: %s", expr)
	}
	switch {
	case start < b.min:
		return 0, fmt.Errorf("beginning of range (%d) below minimum (%d): %s", start, b.min, expr)
	case end > b.max:
		return 0, fmt.Errorf("end of range (%d) above maximum (%d): %s", end, b.max, expr)
	case start > end:
		return 0, fmt.Errorf("beginning of range (%d) beyond end of range (%d): %s", start, end, expr)
	case step == 0:
		return 0, fmt.Errorf("step of range should be a positive number: %s", expr)
	}
	return bitsFor(start, end, step) | extra, nil
}

func parseIntOrName(expr string, names map[string]uint) (uint, error) {
	if v, ok := names[strings.ToLower(expr)]; ok {
		return v, nil
	}
	return parseUint(expr)
}

func parseUint(expr string) (uint, error) {
	n, err := strconv.Atoi(expr)
	if err != nil {
		return 0, fmt.Errorf("failed to parse int from %s: %s", expr, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("negative number (%d) not allowed: %s", n, expr)
	}
	return uint(n), nil
}

// bitsFor sets bit i for every i in [lo, hi] reached from lo by step.
func bitsFor(lo, hi, step uint) uint64 {
	if step == 1 {
		return ^(math.MaxUint64 << (hi + 1)) & (math.MaxUint64 << lo)
	}
	var bits uint64
	for i := lo; i <= hi; i += step {
		bits |= 1 << i
	}
	return bits
}

func every(b bounds) uint64 { return bitsFor(b.min, b.max, 1) | starBit }

// parseDescriptor reads the @ forms of contract 2.
func parseDescriptor(d string, loc *time.Location) (Schedule, error) {
	s := &SpecSchedule{Second: 1, Minute: 1, Hour: 1, Dom: 1 << 1, Month: every(monthBounds), Dow: every(dowBounds), Location: loc}
	switch d {
	case "@yearly", "@annually":
		s.Month = 1 << 1
	case "@monthly":
	case "@weekly":
		s.Dom, s.Dow = every(domBounds), 1
	case "@daily", "@midnight":
		s.Dom = every(domBounds)
	case "@hourly":
		s.Dom, s.Hour = every(domBounds), every(hourBounds)
	default:
		const prefix = "@every "
		if !strings.HasPrefix(d, prefix) {
			return nil, fmt.Errorf("unrecognized descriptor: %s", d)
		}
		dur, err := time.ParseDuration(d[len(prefix):])
		if err != nil {
			return nil, fmt.Errorf("failed to parse duration %s: %s", d, err)
		}
		return Every(dur), nil
	}
	return s, nil
}

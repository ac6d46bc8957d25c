package printers

import (
	"strconv"
	"time"
)

// age mirrors translateTimestampSince for the object's creationTimestamp.
func age(o object, now time.Time) string { return o.since(now, "metadata", "creationTimestamp") }

// since is since for the timestamp at path.
func (o object) since(now time.Time, path ...string) string {
	t, ok := o.time(path...)
	return since(t, ok, now)
}

// hasTime reports whether path holds a timestamp that is set (not the zero time).
func (o object) hasTime(path ...string) bool {
	t, ok := o.time(path...)
	return ok && !t.IsZero()
}

// since mirrors translateTimestampSince and translateMicroTimestampSince: "<unknown>" for a
// missing timestamp, else humanDuration of the time elapsed.
func since(t time.Time, ok bool, now time.Time) string {
	if !ok || t.IsZero() {
		return "<unknown>"
	}
	return humanDuration(now.Sub(t))
}

// humanDuration mirrors duration.HumanDuration in apimachinery pkg/util/duration: two units
// while the larger one is small ("3m20s", "5h12m", "3d4h", "2y45d"), one unit after that.
// A clock skew of up to two seconds reads as "0s".
func humanDuration(d time.Duration) string {
	const day, year = 24 * time.Hour, 365 * 24 * time.Hour
	sec := int64(d / time.Second)
	switch {
	case sec < -1:
		return "<invalid>"
	case sec < 0:
		return "0s"
	case d < 2*time.Minute:
		return strconv.FormatInt(sec, 10) + "s"
	case d < 10*time.Minute:
		return twoUnits(d, time.Minute, "m", time.Second, "s")
	case d < 3*time.Hour:
		return unit(d, time.Minute, "m")
	case d < 8*time.Hour:
		return twoUnits(d, time.Hour, "h", time.Minute, "m")
	case d < 2*day:
		return unit(d, time.Hour, "h")
	case d < 8*day:
		return twoUnits(d, day, "d", time.Hour, "h")
	case d < 2*year:
		return unit(d, day, "d")
	case d < 8*year:
		return twoUnits(d, year, "y", day, "d")
	}
	return unit(d, year, "y")
}

func unit(d, u time.Duration, name string) string {
	return strconv.FormatInt(int64(d/u), 10) + name
}

// twoUnits prints d in the big unit, then the remainder in the small one unless it is zero.
func twoUnits(d, big time.Duration, bigName string, small time.Duration, smallName string) string {
	rest := (d % big) / small
	if rest == 0 {
		return unit(d, big, bigName)
	}
	return unit(d, big, bigName) + strconv.FormatInt(int64(rest), 10) + smallName
}

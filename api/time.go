package api

import (
	"bytes"
	"encoding/json"
	"time"
)

// Time mirrors metav1.Time: a time.Time that travels as RFC 3339 in UTC with second
// precision ("2026-01-02T03:04:05Z"), and as null when zero.
type Time struct {
	time.Time
}

// NewTime mirrors metav1.NewTime.
func NewTime(t time.Time) Time { return Time{t} }

// Now mirrors metav1.Now. The wire format drops sub-second digits, so Now truncates to the
// second: an object then compares equal to itself after a round trip.
func Now() Time { return Time{time.Now().Truncate(time.Second)} }

// IsZero mirrors Time.IsZero; a nil *Time is zero as well.
func (t *Time) IsZero() bool { return t == nil || t.Time.IsZero() }

// Equal mirrors Time.Equal: nil and zero compare equal.
func (t *Time) Equal(u *Time) bool {
	if t.IsZero() || u.IsZero() {
		return t.IsZero() == u.IsZero()
	}
	return t.Time.Equal(u.Time)
}

// DeepCopyInto mirrors the generated Time.DeepCopyInto; time.Time is a value type.
func (t *Time) DeepCopyInto(out *Time) { *out = *t }

// DeepCopy returns a copy of t, or nil for nil. It mirrors the generated metav1.Time.DeepCopy.
func (t *Time) DeepCopy() *Time {
	if t == nil {
		return nil
	}
	out := *t
	return &out
}

// Rfc3339Copy mirrors Time.Rfc3339Copy: the time as it will look after a round trip.
func (t Time) Rfc3339Copy() Time {
	return Time{t.UTC().Truncate(time.Second)}
}

// MarshalJSON mirrors Time.MarshalJSON.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(time.RFC3339)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"'), nil
}

// UnmarshalJSON mirrors Time.UnmarshalJSON: null and "" leave the zero time.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		t.Time = time.Time{}
		return nil
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	// UTC rather than client-go's Local: traces and golden files stay identical on every machine.
	t.Time = pt.UTC()
	return nil
}

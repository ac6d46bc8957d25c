package cron

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return v
}

// TestCh14_CronParserNext: the next activations of each form the parser accepts.
func TestCh14_CronParserNext(t *testing.T) {
	tests := []struct {
		spec, from string
		want       []string
	}{
		{"*/15 * * * *", "2024-03-10T10:07:30Z", []string{"2024-03-10T10:15:00Z", "2024-03-10T10:30:00Z"}},
		{"0 * * * *", "2024-03-10T10:00:00Z", []string{"2024-03-10T11:00:00Z", "2024-03-10T12:00:00Z"}},
		{"5,10 3-4 * * *", "2024-03-10T03:07:00Z", []string{"2024-03-10T03:10:00Z", "2024-03-10T04:05:00Z", "2024-03-10T04:10:00Z", "2024-03-11T03:05:00Z"}},
		{"0 0 * * MON-fri", "2024-03-08T12:00:00Z", []string{"2024-03-11T00:00:00Z", "2024-03-12T00:00:00Z"}},
		{"0 0 1 jan,JUL *", "2024-03-08T12:00:00Z", []string{"2024-07-01T00:00:00Z", "2025-01-01T00:00:00Z"}},
		{"0 0 13 * 5", "2024-09-01T00:00:00Z", []string{"2024-09-06T00:00:00Z", "2024-09-13T00:00:00Z", "2024-09-20T00:00:00Z"}}, // either day field
		{"0 0 13 * ?", "2024-09-01T00:00:00Z", []string{"2024-09-13T00:00:00Z", "2024-10-13T00:00:00Z"}},
		{"0 0 */10 * 5", "2024-09-01T00:00:00Z", []string{"2024-09-06T00:00:00Z", "2024-09-11T00:00:00Z", "2024-09-13T00:00:00Z"}},
		{"30 2 29 2 *", "2024-03-01T00:00:00Z", []string{"2028-02-29T02:30:00Z"}},
		{"10/20 * * * *", "2024-03-10T10:00:00Z", []string{"2024-03-10T10:10:00Z", "2024-03-10T10:30:00Z", "2024-03-10T10:50:00Z"}},
		{"@hourly", "2024-03-10T10:59:59Z", []string{"2024-03-10T11:00:00Z"}},
		{"@daily", "2024-03-10T10:00:00Z", []string{"2024-03-11T00:00:00Z"}},
		{"@midnight", "2024-03-10T10:00:00Z", []string{"2024-03-11T00:00:00Z"}},
		{"@weekly", "2024-03-10T10:00:00Z", []string{"2024-03-17T00:00:00Z"}},
		{"@monthly", "2024-03-10T10:00:00Z", []string{"2024-04-01T00:00:00Z"}},
		{"@yearly", "2024-03-10T10:00:00Z", []string{"2025-01-01T00:00:00Z"}},
		{"@annually", "2024-03-10T10:00:00Z", []string{"2025-01-01T00:00:00Z"}},
		{"@every 90s", "2024-03-10T10:00:00.5Z", []string{"2024-03-10T10:01:30Z", "2024-03-10T10:03:00Z"}},
		{"TZ=Asia/Tokyo 0 9 * * *", "2024-03-10T00:30:00Z", []string{"2024-03-11T00:00:00Z"}},
		{"CRON_TZ=America/New_York 0 9 * * *", "2024-03-10T00:30:00Z", []string{"2024-03-10T13:00:00Z", "2024-03-11T13:00:00Z"}}, // DST starts on the 10th
		{"0 0 31 2 *", "2024-03-10T00:30:00Z", []string{"0001-01-01T00:00:00Z"}},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := ParseStandard(tc.spec)
			require.NoError(t, err)
			at := mustTime(t, tc.from)
			for _, w := range tc.want {
				at = s.Next(at)
				require.Equal(t, w, at.UTC().Format(time.RFC3339))
			}
		})
	}
}

// TestCh14_CronParserNextInLocation: a spec without a zone is read in the zone of the time
// it is given, as robfig's parser reads it in time.Local.
func TestCh14_CronParserNextInLocation(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	s, err := ParseStandard("0 9 * * *")
	require.NoError(t, err)
	next := s.Next(mustTime(t, "2024-03-10T00:30:00Z").In(tokyo))
	require.Equal(t, "2024-03-11T00:00:00Z", next.UTC().Format(time.RFC3339))
	require.Equal(t, tokyo, next.Location())
}

// TestCh14_CronParserErrors: what the parser rejects, with robfig's messages.
func TestCh14_CronParserErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"", "empty spec string"},
		{"* * * *", "expected exactly 5 fields, found 4: [* * * *]"},
		{"* * * * * *", "expected exactly 5 fields, found 6: [* * * * * *]"},
		{"60 * * * *", "end of range (60) above maximum (59): 60"},
		{"* 24 * * *", "end of range (24) above maximum (23): 24"},
		{"* * 0 * *", "beginning of range (0) below minimum (1): 0"},
		{"* * * 13 *", "end of range (13) above maximum (12): 13"},
		{"* * * * 7", "end of range (7) above maximum (6): 7"},
		{"5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"},
		{"*/0 * * * *", "step of range should be a positive number: */0"},
		{"1-2-3 * * * *", "too many hyphens: 1-2-3"},
		{"*/2/3 * * * *", "too many slashes: */2/3"},
		{"x * * * *", `failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax`},
		{"* * * foo *", `failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax`},
		{"@fortnightly", "unrecognized descriptor: @fortnightly"},
		{"@every soon", `failed to parse duration @every soon: time: invalid duration "soon"`},
		{"TZ=Mars/Olympus * * * * *", "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := ParseStandard(tc.spec)
			require.EqualError(t, err, tc.want)
		})
	}
}

// FuzzCronParser: no spec panics the parser, and an accepted one moves forward: Next is
// after its argument, or the zero time when the spec never fires.
func FuzzCronParser(f *testing.F) {
	for _, s := range []string{"* * * * *", "*/5 1-3 ? JAN-mar SUN", "@every 1h", "TZ=UTC 0 0 * * *", "0 0 30 2 *", "1,2,3/4 * * * *", "TZ=x"} {
		f.Add(s)
	}
	from := time.Date(2024, 5, 6, 7, 8, 9, 10, time.UTC)
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseStandard(spec)
		if err != nil {
			return
		}
		n := s.Next(from)
		if !n.IsZero() && !n.After(from) {
			t.Fatalf("%q: Next(%v) = %v", spec, from, n)
		}
	})
}

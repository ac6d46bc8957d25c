package api

import (
	"fmt"
	"strings"
)

// Limits on the size of a failure Status. Upstream builds an Invalid Status from every field
// error, each in full, and so does this package up to these bounds, which no realistic
// request reaches: beyond them one request could make an answer thousands of times its own
// size (an enum of 20,000 values times 1,000 bad values). The cut is marked in the Status
// itself, so a client can tell a truncated list from a complete one.
const (
	// MaxStatusCauses is how many causes an Invalid Status keeps; the rest are summed up
	// in one last cause.
	MaxStatusCauses = 1000
	// MaxStatusBytes bounds the text of an Invalid Status: the causes' messages together,
	// and the aggregated message.
	MaxStatusBytes = 1 << 20
	// MaxCauseMessageBytes bounds one cause's message.
	MaxCauseMessageBytes = 64 << 10
)

// truncatedSuffix ends a message cut at MaxCauseMessageBytes or MaxStatusBytes.
const truncatedSuffix = "... (truncated)"

// tooManyCause is the last cause of a cut list: how many causes were left out.
func tooManyCause(dropped int) StatusCause {
	return StatusCause{Type: CauseTypeTooMany, Message: fmt.Sprintf("too many errors, %d more not shown", dropped)}
}

// truncateText cuts s to at most max bytes on a rune boundary, marking the cut.
func truncateText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len(truncatedSuffix)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !runeStart(s[cut]) {
		cut--
	}
	return s[:cut] + truncatedSuffix
}

func runeStart(b byte) bool { return b&0xC0 != 0x80 }

// capCauses returns causes within MaxStatusCauses and MaxStatusBytes, each message within
// MaxCauseMessageBytes; a cut list ends with one cause saying how many were left out. The
// given slice is not changed.
func capCauses(causes []StatusCause) []StatusCause {
	if len(causes) == 0 {
		return nil
	}
	out := make([]StatusCause, 0, min(len(causes), MaxStatusCauses+1))
	total := 0
	for i, c := range causes {
		c.Message = truncateText(c.Message, MaxCauseMessageBytes)
		total += len(c.Message) + len(c.Field)
		if i == MaxStatusCauses || total > MaxStatusBytes {
			return append(out, tooManyCause(len(causes)-i))
		}
		out = append(out, c)
	}
	return out
}

// CapStatus bounds a failure Status before it is written, whoever built it: its message
// within MaxStatusBytes, its causes as NewInvalid bounds them. st is changed in place.
func CapStatus(st *Status) {
	if st == nil {
		return
	}
	st.Message = truncateText(st.Message, MaxStatusBytes)
	if st.Details != nil && needsCap(st.Details.Causes) {
		st.Details.Causes = capCauses(st.Details.Causes)
	}
}

// needsCap reports whether causes exceed a bound, without copying them.
func needsCap(causes []StatusCause) bool {
	if len(causes) > MaxStatusCauses {
		return true
	}
	total := 0
	for _, c := range causes {
		if len(c.Message) > MaxCauseMessageBytes {
			return true
		}
		total += len(c.Message) + len(c.Field)
	}
	return total > MaxStatusBytes
}

// joinCapped joins texts as "[a, b]" while the result stays within MaxStatusBytes; the
// texts left out are counted in a last "too many errors" element.
func joinCapped(texts []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, t := range texts {
		t = truncateText(t, MaxCauseMessageBytes)
		if i > 0 {
			b.WriteString(", ")
		}
		if i == MaxStatusCauses || b.Len()+len(t) > MaxStatusBytes {
			fmt.Fprintf(&b, "too many errors, %d more not shown", len(texts)-i)
			break
		}
		b.WriteString(t)
	}
	b.WriteByte(']')
	return b.String()
}

package fieldmanager

import (
	"sync"
	"sync/atomic"
	"time"
)

// An entry encodeManaged writes holds its strings as values of a map[string]any, and
// putting a string into an interface allocates. Write after write they are the same few:
// the operations, the kind's apiVersion, the managers a server sees, the current second.

const (
	maxBoxedStrings  = 1024
	maxBoxedStringSz = 256
)

var (
	boxedStrings sync.Map // string → the same string as an any
	boxedCount   atomic.Int64
)

// boxed is s as an any, from a bounded cache: a client that invents manager names fills it
// once, and its strings are boxed as before.
func boxed(s string) any {
	switch s {
	case OperationUpdate: // constants are boxed without allocating
		return OperationUpdate
	case OperationApply:
		return OperationApply
	}
	if v, ok := boxedStrings.Load(s); ok {
		return v
	}
	var v any = s
	if len(s) <= maxBoxedStringSz && boxedCount.Add(1) <= maxBoxedStrings {
		boxedStrings.Store(s, v)
	}
	return v
}

type formattedSecond struct {
	unix int64
	text any
}

var lastFormatted atomic.Pointer[formattedSecond]

// formatTime is t.UTC().Format(time.RFC3339) as an any: at second precision in UTC the text
// depends on t.Unix() alone, and the writes of one second share it.
func formatTime(t time.Time) any {
	u := t.Unix()
	if c := lastFormatted.Load(); c != nil && c.unix == u {
		return c.text
	}
	c := &formattedSecond{unix: u, text: t.UTC().Format(time.RFC3339)}
	lastFormatted.Store(c)
	return c.text
}

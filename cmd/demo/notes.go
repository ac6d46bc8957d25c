package main

import (
	"regexp"
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/internal/msgcat"
)

// The demo's handlers and workers log a note with each hop, in English, as part of the trace
// (the dashboard and `demo run --trace` show it as logged). The journey prints it in the
// narration's language: localNote matches the notes this command's own controller writes
// and leaves any other text as it is.

// notePatterns are the notes with a value inside, tried in order; each names its message.
// They are compiled on first use: `demo serve` never narrates.
var notePatterns = sync.OnceValue(func() []notePattern {
	return []notePattern{
		{regexp.MustCompile(`^on (\S+), Running: nothing to do$`), "note.running"},
		{regexp.MustCompile(`^on (\S+), not running → PATCH status\.phase=Running$`), "note.not-running"},
		{regexp.MustCompile(`^Pending, no node → bind: POST pods/binding to (\S+)$`), "note.bind"},
		{regexp.MustCompile(`^giving up after (\S+) retries$`), "note.give-up"},
	}
})

// notePattern is a note with a value inside and the message that says it.
type notePattern struct {
	re *regexp.Regexp
	id string
}

// noteIDs are the notes without a value, by their English text.
var noteIDs = map[string]string{
	"enqueue the key":                        "note.enqueue",
	"logged":                                 "note.logged",
	"logged a resync (same resourceVersion)": "note.logged-resync",
	"retry later":                            "note.retry",
	"not in the cache: deleted, nothing to do":         "note.gone",
	"a slow reconcile: busy with this key for a while": "note.hold",
	"Pending, no node": "note.pending",
}

var workerPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^worker (\d+): `) })

// localNote returns note in language l.
func localNote(l msgcat.Lang, note string) string {
	if l == msgcat.En || note == "" {
		return note
	}
	prefix := ""
	if m := workerPrefix().FindStringSubmatch(note); m != nil {
		prefix = messages.T(l, "note.worker", m[1])
		note = note[len(m[0]):]
	}
	suffix := ""
	if rest, ok := strings.CutSuffix(note, ", then stuck (a slow disk, say)"); ok {
		note, suffix = rest, messages.T(l, "note.stuck")
	}
	if id, ok := noteIDs[note]; ok {
		return prefix + messages.T(l, id) + suffix
	}
	for _, p := range notePatterns() {
		if m := p.re.FindStringSubmatch(note); m != nil {
			return prefix + messages.T(l, p.id, m[1]) + suffix
		}
	}
	return prefix + note + suffix
}

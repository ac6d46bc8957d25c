// Package msgcat is the message catalogue of the workshop's own user interface: the demo's
// narration and the dashboard's labels, each message kept once in English and once in
// Chinese under one ID, and the language picked from a flag, the locale environment or a
// browser's Accept-Language. It has no client-go counterpart: client-go's messages are
// English only.
//
// The contract:
//
//  1. A Catalog maps a message ID to its English and Chinese text; Check reports every ID
//     whose twin is missing and every pair whose format verbs differ, so a test can fail on
//     an untranslated message.
//  2. T never fails: an unknown ID comes back as itself, a missing Chinese text falls back
//     to the English one.
//  3. FromEnv reads LC_ALL, then LC_MESSAGES, then LANG, as setlocale(3) does: the first one
//     set decides; zh_CN.UTF-8, zh_TW, zh (any zh*) is Chinese, anything else English.
package msgcat

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Lang is a language of the catalogue. It has no client-go counterpart.
type Lang string

// The languages every message has. They have no client-go counterpart.
const (
	En Lang = "en"
	Zh Lang = "zh"
)

// Parse reads a language as a flag, a locale or a language tag writes it: "zh", "zh_CN.UTF-8",
// "zh-Hans-CN", "en_US", "C". The second result is false for anything that names neither
// language (an empty string, "fr"). It has no client-go counterpart.
func Parse(s string) (Lang, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	base, _, _ := strings.Cut(s, ".") // the codeset: zh_CN.UTF-8
	base, _, _ = strings.Cut(base, "@")
	base = strings.ReplaceAll(base, "_", "-")
	primary, _, _ := strings.Cut(base, "-")
	switch primary {
	case "zh", "chinese":
		return Zh, true
	case "en", "english", "c", "posix":
		return En, true
	}
	return En, false
}

// FromEnv picks the language from the locale environment, as setlocale(LC_MESSAGES, "")
// would: LC_ALL, then LC_MESSAGES, then LANG; the first that is set decides, and only a
// Chinese locale gives Zh. It has no client-go counterpart.
func FromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			if l, _ := Parse(v); l == Zh {
				return Zh
			}
			return En
		}
	}
	return En
}

// FromAcceptLanguage picks the language an HTTP Accept-Language header prefers, by its
// q-values (RFC 9110 §12.5.4); false when the header names neither language. It has no
// client-go counterpart.
func FromAcceptLanguage(header string) (Lang, bool) {
	best, bestQ, found := En, -1.0, false
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		l, ok := Parse(tag)
		if !ok {
			continue
		}
		q := 1.0
		if v, found := strings.CutPrefix(strings.TrimSpace(params), "q="); found {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if q > bestQ && q > 0 {
			best, bestQ, found = l, q, true
		}
	}
	return best, found
}

// Message is one message in both languages, English first, then Chinese: a fmt format, or
// plain text. A pair rather than a struct keeps a catalogue of hundreds of them readable
// ({"…", "…"}, which vet accepts for an array). It has no client-go counterpart.
type Message [2]string

// En returns the English text. It has no client-go counterpart.
func (m Message) En() string { return m[0] }

// Zh returns the Chinese text. It has no client-go counterpart.
func (m Message) Zh() string { return m[1] }

// Catalog maps message IDs to their texts. It has no client-go counterpart.
type Catalog map[string]Message

// Text returns the message id in language l, unformatted: the Chinese text when l is Zh and
// it exists, else the English one, else the id itself. It has no client-go counterpart.
func (c Catalog) Text(l Lang, id string) string {
	m, ok := c[id]
	switch {
	case !ok:
		return id
	case l == Zh && m.Zh() != "":
		return m.Zh()
	}
	return m.En()
}

// T formats the message id in language l with args, as fmt.Sprintf does. It has no
// client-go counterpart.
func (c Catalog) T(l Lang, id string, args ...any) string {
	if len(args) == 0 {
		return c.Text(l, id)
	}
	return fmt.Sprintf(c.Text(l, id), args...)
}

// Map returns every message of the catalogue in language l, by ID: what a page's script is
// given. It has no client-go counterpart.
func (c Catalog) Map(l Lang) map[string]string {
	out := make(map[string]string, len(c))
	for id := range c {
		out[id] = c.Text(l, id)
	}
	return out
}

// Check returns one line per defect, sorted: an empty ID, a missing English or Chinese text,
// or a pair whose format verbs differ (a Chinese sentence may reorder its arguments with
// %[n]d, but must use each one as the English does). It has no client-go counterpart.
func (c Catalog) Check() []string {
	var out []string
	for id, m := range c {
		switch {
		case id == "":
			out = append(out, "a message has an empty ID")
		case strings.TrimSpace(m.En()) == "":
			out = append(out, id+": no English text")
		case strings.TrimSpace(m.Zh()) == "":
			out = append(out, id+": no Chinese twin")
		default:
			if en, zh := verbs(m.En()), verbs(m.Zh()); !slices.Equal(en, zh) {
				out = append(out, fmt.Sprintf("%s: format verbs differ: en %v, zh %v", id, en, zh))
			}
		}
	}
	slices.Sort(out)
	return out
}

var verbRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`%(\[(\d+)\])?[-+# 0]*(\d+|\*)?(\.(\d+|\*))?([a-zA-Z%])`)
})

// verbs lists a format's verbs as "argument:verb", sorted by argument, with explicit
// indexes (%[2]d) resolved as fmt resolves them.
func verbs(format string) []string {
	var out []string
	next := 1
	for _, m := range verbRE().FindAllStringSubmatch(format, -1) {
		if m[6] == "%" {
			continue
		}
		if m[2] != "" {
			next, _ = strconv.Atoi(m[2])
		}
		out = append(out, strconv.Itoa(next)+":"+m[6])
		next++
	}
	slices.Sort(out)
	return out
}

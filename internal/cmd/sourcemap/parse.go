package main

import (
	"path"
	"regexp"
	"strings"
	"unicode"
)

// Kind says what a doc comment states about the identifier's counterpart.
type Kind int

const (
	// Missing: the comment says neither "mirrors" nor "ours".
	Missing Kind = iota
	// Mirrors: the comment names a counterpart.
	Mirrors
	// Ours: the comment says there is no counterpart.
	Ours
)

func (k Kind) String() string {
	switch k {
	case Mirrors:
		return "mirrors"
	case Ours:
		return "ours"
	default:
		return "missing"
	}
}

// Statement is what a doc comment says about one identifier's counterpart.
type Statement struct {
	Kind    Kind
	Package string // import path of the counterpart's package, e.g. k8s.io/client-go/tools/cache
	File    string // file name inside Package, e.g. delta_fifo.go; empty when not stated
	Ident   string // the counterpart as the comment writes it, e.g. DeltaFIFO.Pop or metav1.Status
	Note    string
}

// modules maps the short module names the comments use to import paths.
var modules = map[string]string{
	"client-go":      "k8s.io/client-go",
	"apimachinery":   "k8s.io/apimachinery",
	"apiserver":      "k8s.io/apiserver",
	"kube-apiserver": "k8s.io/kubernetes",
	"cli-runtime":    "k8s.io/cli-runtime",
	"component-base": "k8s.io/component-base",
}

// qualifiers maps the package qualifiers the comments use (metav1.Status) to import paths.
// Ambiguous ones, such as v1, are left out on purpose.
var qualifiers = map[string]string{
	"apidiscovery":       "k8s.io/api/apidiscovery/v2",
	"apierrors":          "k8s.io/apimachinery/pkg/api/errors",
	"buffer":             "k8s.io/utils/buffer",
	"cache":              "k8s.io/client-go/tools/cache",
	"clientcmd":          "k8s.io/client-go/tools/clientcmd",
	"clientcmdapi":       "k8s.io/client-go/tools/clientcmd/api",
	"discovery":          "k8s.io/client-go/discovery",
	"dynamic":            "k8s.io/client-go/dynamic",
	"fields":             "k8s.io/apimachinery/pkg/fields",
	"framework":          "k8s.io/client-go/tools/cache/testing",
	"gentype":            "k8s.io/client-go/gentype",
	"informers":          "k8s.io/client-go/informers",
	"internalinterfaces": "k8s.io/client-go/informers/internalinterfaces",
	"kubernetes":         "k8s.io/client-go/kubernetes",
	"labels":             "k8s.io/apimachinery/pkg/labels",
	"listers":            "k8s.io/client-go/listers",
	"meta":               "k8s.io/apimachinery/pkg/api/meta",
	"metav1":             "k8s.io/apimachinery/pkg/apis/meta/v1",
	"negotiation":        "k8s.io/apiserver/pkg/endpoints/handlers/negotiation",
	"pager":              "k8s.io/client-go/tools/pager",
	"resource":           "k8s.io/cli-runtime/pkg/resource",
	"responsewriters":    "k8s.io/apiserver/pkg/endpoints/handlers/responsewriters",
	"rest":               "k8s.io/client-go/rest",
	"restclientwatch":    "k8s.io/client-go/rest/watch",
	"restmapper":         "k8s.io/client-go/restmapper",
	"runtime":            "k8s.io/apimachinery/pkg/runtime",
	"schema":             "k8s.io/apimachinery/pkg/runtime/schema",
	"scheme":             "k8s.io/client-go/kubernetes/scheme",
	"selection":          "k8s.io/apimachinery/pkg/selection",
	"sets":               "k8s.io/apimachinery/pkg/util/sets",
	"storage":            "k8s.io/apiserver/pkg/storage",
	"types":              "k8s.io/apimachinery/pkg/types",
	"unstructured":       "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured",
	"utilruntime":        "k8s.io/apimachinery/pkg/util/runtime",
	"version":            "k8s.io/apimachinery/pkg/version",
	"wait":               "k8s.io/apimachinery/pkg/util/wait",
	"watch":              "k8s.io/apimachinery/pkg/watch",
	"workqueue":          "k8s.io/client-go/util/workqueue",
}

// groupVersions maps "group/version" prefixes ("core/v1 Pod") to import paths.
var groupVersions = map[string]string{
	"core/v1":         "k8s.io/api/core/v1",
	"apps/v1":         "k8s.io/api/apps/v1",
	"apidiscovery/v2": "k8s.io/api/apidiscovery/v2",
	"meta/v1":         "k8s.io/apimachinery/pkg/apis/meta/v1",
}

var (
	reNothingMirrors = regexp.MustCompile(`(?i)\bnothing in client-go mirrors (it|them)\b`)
	reNoCounterpart  = regexp.MustCompile(`(?i)\bno (client-go counterpart|counterpart in client-go)\b`)
	reOursSubject    = regexp.MustCompile(`^(?:The )?(\S+) (?:is|are) ours\b`)
	reMirror         = regexp.MustCompile(`\b(?:[Mm]irrors|mirror|mirroring) `)
	reNoteSentence   = regexp.MustCompile(`(?i)\b(profiles?|ProfileClassic|ProfileCurrent|ProfileInOrder|(is|are) ours|left out|deprecated)\b|\b(Classic|Current|InOrder) profile\b`)
	reSpecRef        = regexp.MustCompile(`^([A-Z]{1,4}-?[0-9][0-9.]*|§|spec |wire spec )`)
	reIdent          = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	reGroupVersion   = regexp.MustCompile(`^[a-z0-9.]+/v[0-9][a-z0-9]*$`)
)

// Parse reads the doc comment of the identifier called name (for a method, the method's name;
// for a const or var group, any of its names).
func Parse(names []string, comment string) Statement {
	text := strings.Join(strings.Fields(comment), " ")
	if text == "" {
		return Statement{}
	}
	sentences := splitSentences(text)
	isName := func(s string) bool {
		for _, n := range names {
			if s == n {
				return true
			}
		}
		return s == "It" || s == "it" || s == "They" || s == "they"
	}

	var st Statement
	var notes []string
	addNote := func(n string) {
		n = strings.TrimSpace(n)
		for _, have := range notes {
			if have == n {
				return
			}
		}
		if n != "" {
			notes = append(notes, n)
		}
	}

	// Ours first: it wins over a later mirrors.
	oursAt, mirrorAt := -1, -1
	for i, s := range sentences {
		if m := reOursSubject.FindStringSubmatch(s); m != nil && isName(strings.TrimSuffix(m[1], ",")) {
			oursAt = i
			break
		}
		if reNothingMirrors.MatchString(s) || reNoCounterpart.MatchString(s) {
			oursAt = i
			break
		}
	}
	if oursAt >= 0 {
		st.Kind = Ours
		// What follows "is ours:" is usually the reason; keep it as the note.
		s := sentences[oursAt]
		if i := strings.Index(s, ": "); i >= 0 && reOursSubject.MatchString(s) {
			addNote(s[i+2:])
		}
	} else if i, at := findMirror(sentences, isName); i >= 0 {
		st.Kind = Mirrors
		mirrorAt = i
		parseCounterpart(&st, sentences[i][at:], addNote)
	}

	for i, s := range sentences {
		if i == mirrorAt {
			continue // its qualifiers are already noted
		}
		if st.Kind == Ours && reOursSubject.MatchString(s) {
			if m := reOursSubject.FindStringSubmatch(s); isName(strings.TrimSuffix(m[1], ",")) {
				continue
			}
		}
		if reNoteSentence.MatchString(s) {
			addNote(s)
		}
	}
	st.Note = strings.Join(notes, "; ")
	return st
}

// findMirror returns the sentence holding the identifier's mirror statement and the offset
// just past "mirrors ", preferring a sentence whose subject is the identifier.
func findMirror(sentences []string, isName func(string) bool) (int, int) {
	fallback, fallbackAt := -1, 0
	for i, s := range sentences {
		if reNothingMirrors.MatchString(s) {
			continue
		}
		for _, loc := range reMirror.FindAllStringIndex(s, -1) {
			subject := strings.Fields(s[:loc[0]])
			if loc[0] == 0 && s[0] == 'M' { // "Mirrors X." opens a sentence with no subject
				return i, loc[1]
			}
			if len(subject) > 0 && isName(strings.TrimSuffix(subject[len(subject)-1], ",")) {
				return i, loc[1]
			}
			if strings.HasPrefix(s[loc[0]:], "mirroring ") && fallback < 0 {
				fallback, fallbackAt = i, loc[1]
			}
		}
	}
	return fallback, fallbackAt
}

// parseCounterpart reads "X [in <where>][, qualifier | (aside)]…" at the start of rest.
func parseCounterpart(st *Statement, rest string, addNote func(string)) {
	rest = strings.TrimSuffix(rest, ".")
	end := len(rest)
	for _, d := range []string{": ", "; ", " (", ", ", " — "} {
		if i := strings.Index(rest, d); i >= 0 && i < end {
			end = i
		}
	}
	phrase, tail := rest[:end], rest[end:]

	what, where := phrase, ""
	if i := strings.Index(phrase, " in "); i >= 0 {
		w := phrase[i+4:]
		first := strings.Fields(w)
		if len(first) > 0 && (modules[first[0]] != "" || strings.HasPrefix(first[0], "k8s.io/")) {
			what, where = phrase[:i], w
		}
	}
	for _, p := range []string{"the deprecated ", "the generated ", "the ", "a ", "an "} {
		if strings.HasPrefix(what, p) {
			if adj := strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(p, " "), "the")); adj != "" && adj != "a" && adj != "an" {
				addNote(adj)
			}
			what = what[len(p):]
			break
		}
	}

	words := strings.Fields(what)
	switch {
	case len(words) >= 2 && reGroupVersion.MatchString(words[0]) && looksLikeIdent(words[1]):
		st.Package = groupVersions[words[0]]
		if st.Package == "" {
			st.Package = words[0]
		}
		st.Ident = words[1]
		addNote(strings.Join(words[2:], " "))
	case len(words) >= 1 && looksLikeIdent(words[0]):
		st.Ident = words[0]
		addNote(strings.Join(words[1:], " "))
		if i := strings.Index(st.Ident, "."); i >= 0 {
			st.Package = qualifiers[st.Ident[:i]]
		}
	default:
		addNote("mirrors " + what)
	}

	if where != "" {
		pkg, file := parseWhere(where)
		// "in apimachinery" alone is less precise than a known qualifier.
		if pkg != "" && (file != "" || st.Package == "" || !strings.HasPrefix(st.Package, pkg+"/")) {
			st.Package = pkg
		}
		st.File = file
	}
	noteTail(tail, addNote) // after the notes on the phrase itself
}

// noteTail notes what follows the counterpart: ", <qualifier>" or " (<aside>)", but not a
// bare reference to the spec such as "(K-5)".
func noteTail(tail string, addNote func(string)) {
	switch {
	case strings.HasPrefix(tail, ", "):
		q := tail[2:]
		if i := strings.IndexAny(q, ":;("); i >= 0 {
			q = q[:i]
		}
		if q = strings.TrimSpace(q); !strings.HasPrefix(q, "e.g.") { // an example is no note
			addNote(q)
		}
	case strings.HasPrefix(tail, " ("):
		if i := strings.Index(tail, ")"); i >= 0 {
			if aside := tail[2:i]; !reSpecRef.MatchString(aside) {
				addNote("(" + aside + ")")
			}
		}
	}
}

// parseWhere turns "client-go tools/cache/delta_fifo.go" into its package and file.
func parseWhere(where string) (pkg, file string) {
	words := strings.Fields(where)
	mod := words[0]
	if m := modules[mod]; m != "" {
		mod = m
	}
	p := mod
	if len(words) > 1 && strings.Contains(words[1], "/") || len(words) > 1 && strings.HasSuffix(words[1], ".go") {
		p = mod + "/" + strings.TrimSuffix(words[1], ",")
	}
	p = strings.TrimSuffix(p, ",")
	if strings.HasSuffix(p, ".go") {
		return path.Dir(p), path.Base(p)
	}
	return p, ""
}

// looksLikeIdent accepts Go identifiers, qualified or not, that contain a dot or a capital
// letter: "metav1.Status", "deleteNotification", "DeltaFIFO". Plain words ("what") are not.
func looksLikeIdent(w string) bool {
	if !reIdent.MatchString(w) {
		return false
	}
	return strings.Contains(w, ".") || strings.IndexFunc(w, unicode.IsUpper) >= 0
}

// splitSentences splits at ". " (or "! ", "? ") followed by a capital letter or a digit, so
// "e.g. kubectl", `e.g. "/v1"` and "v1.Pod" stay whole.
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(text); i++ {
		if (text[i] == '.' || text[i] == '!' || text[i] == '?') && text[i+1] == ' ' {
			c := rune(text[i+2])
			if unicode.IsUpper(c) || unicode.IsDigit(c) {
				out = append(out, text[start:i+1])
				start = i + 2
			}
		}
	}
	return append(out, text[start:])
}

package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A Twin is the Chinese rendering of a list. Its data file holds one line per English line,
// "ID | hash | 中文" and "§N | hash | 标题", in the English order; the hash is EnglishHash of
// the English text the line translates, so that a later change of the English shows which
// Chinese lines have gone stale.
type Twin struct {
	Data  string // the data file, relative to the repository root
	Out   string // the generated Markdown, relative to the repository root
	Title string
	Lines map[string]TwinLine // by ID, and by "§N" for section titles
	Order []string            // the keys in file order
}

// A TwinLine is one translated line.
type TwinLine struct {
	Hash, Text string
	Line       int
}

// EnglishHash is the short hash a Chinese line records of the English text it translates.
func EnglishHash(english string) string {
	sum := sha256.Sum256([]byte(english))
	return hex.EncodeToString(sum[:4])
}

func (t *Twin) load(root string) error {
	data, err := os.ReadFile(filepath.Join(root, t.Data))
	if err != nil {
		return err
	}
	t.Lines = map[string]TwinLine{}
	t.Order = nil
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 || parts[2] == "" {
			return fmt.Errorf("%s:%d: want \"ID | hash | text\" or \"§N | hash | title\"", t.Data, n)
		}
		key := parts[0]
		if prev, dup := t.Lines[key]; dup {
			return fmt.Errorf("%s:%d: %s is already translated on line %d", t.Data, n, key, prev.Line)
		}
		t.Lines[key] = TwinLine{Hash: parts[1], Text: parts[2], Line: n}
		t.Order = append(t.Order, key)
	}
	return sc.Err()
}

// english returns the list's lines as the twin keys them, in order, with their English text.
func (l *List) english() (keys []string, text map[string]string, line map[string]int) {
	text, line = map[string]string{}, map[string]int{}
	for _, s := range l.Sections {
		k := "§" + s.Num
		keys = append(keys, k)
		text[k], line[k] = s.Title, s.Line
		for _, e := range s.Entries {
			keys = append(keys, e.ID)
			text[e.ID], line[e.ID] = e.Text, e.Line
		}
	}
	return keys, text, line
}

// TwinProblems reports, one line each, an English line without its Chinese twin, a Chinese
// line whose English is gone, a Chinese line that translates an older English text, and a
// Chinese file out of the English order.
func TwinProblems(l *List) []string {
	var problems []string
	keys, text, line := l.english()
	var common []string
	for _, k := range keys {
		zh, ok := l.Zh.Lines[k]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s:%d: %s has no Chinese twin in %s: add the line \"%s | %s | …\"",
				l.Data, line[k], k, l.Zh.Data, k, EnglishHash(text[k])))
		case zh.Hash != EnglishHash(text[k]):
			problems = append(problems, fmt.Sprintf("%s:%d: the Chinese of %s is stale: the English changed since it was translated (hash %s, now %s); update the translation and write %s",
				l.Zh.Data, zh.Line, k, zh.Hash, EnglishHash(text[k]), EnglishHash(text[k])))
			common = append(common, k)
		default:
			common = append(common, k)
		}
	}
	for _, k := range l.Zh.Order {
		if _, ok := text[k]; !ok {
			problems = append(problems, fmt.Sprintf("%s:%d: %s is not in %s", l.Zh.Data, l.Zh.Lines[k].Line, k, l.Data))
		}
	}
	i := 0
	for _, k := range l.Zh.Order {
		if _, ok := text[k]; !ok {
			continue
		}
		if k != common[i] {
			problems = append(problems, fmt.Sprintf("%s:%d: %s is out of order: %s has %s here", l.Zh.Data, l.Zh.Lines[k].Line, k, l.Data, common[i]))
			break
		}
		i++
	}
	return problems
}

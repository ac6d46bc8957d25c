package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// HintLevels are the three levels every lab has, in both languages.
var HintLevels = [3]string{"the idea", "the data structure", "the tricky case"}

var hintHeadingRE = regexp.MustCompile(`^## \D*([123])\b`)

// HintFile is the hints file of l in lang ("en" or "zh").
func HintFile(l *Lab, lang Lang) string {
	if lang == ZH {
		return filepath.Join(filepath.FromSlash(l.Dir), "hints.zh-CN.md")
	}
	return filepath.Join(filepath.FromSlash(l.Dir), "hints.md")
}

// Hints returns the three hints of l in lang, each with its heading line. A hints file has a
// "## … N …" heading per level N (1, 2, 3) and the hint's text under it.
func Hints(root string, l *Lab, lang Lang) ([3]string, error) {
	var out [3]string
	path := filepath.Join(root, HintFile(l, lang))
	b, err := os.ReadFile(path)
	if err != nil {
		return out, err
	}
	level := 0
	var cur []string
	flush := func() {
		if level > 0 {
			out[level-1] = strings.TrimSpace(strings.Join(cur, "\n"))
		}
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m := hintHeadingRE.FindStringSubmatch(line); m != nil {
			flush()
			level = int(m[1][0] - '0')
			cur = []string{line}
			continue
		}
		if level > 0 {
			cur = append(cur, line)
		}
	}
	flush()
	for i, h := range out {
		if h == "" {
			return out, fmt.Errorf("%s: no hint %d (a heading \"## … %d …\")", path, i+1, i+1)
		}
	}
	return out, nil
}

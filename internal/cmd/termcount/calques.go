package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Calque is a word-for-word rendering that GLOSSARY.md rejects: Term as counted, the English
// it was carried over from, and the compounds in which the same characters are the right word
// (跳过 is "skip", 心跳 "heartbeat", 初始同步 an informer's initial sync). The allowed compounds
// are masked before Term is counted, so only the calque itself is left.
type Calque struct {
	Term    string
	English string
	Allowed []string
}

// calques are the renderings the glossary replaced; the repository's Chinese files should hold
// none of them.
var calques = []Calque{
	{"跳", "hop (one trace line, one step of the pipeline)", []string{"跳过", "心跳"}},
	{"陈述", "statement (an entry of the behaviour reference)", nil},
	{"气泡", "bubble (testing/synctest)", nil},
	{"同步", "sync (one run of a controller's sync handler)", []string{"初始同步", "保持同步", "缓存同步",
		"已同步", "未同步", "完成同步", "同步完成", "同步方式",
		// an informer's or a registration's cache sync, and the reflector's last synced RV
		"最后同步", "同步进度", "各自同步", "同步好", "同步期间"}},
	{"自定义资源（CRD）", "custom resource called by its definition's name", nil},
}

// CountCalque counts c.Term in text once every allowed compound has been masked.
func CountCalque(text string, c Calque) int {
	for _, a := range c.Allowed {
		text = strings.ReplaceAll(text, a, "\x00")
	}
	return strings.Count(text, c.Term)
}

// chineseFiles returns the repository's Chinese documents under root, relative to it and
// sorted: every *.zh-CN.md outside dot directories. GLOSSARY.md is not among them: it names
// the rejected calques on purpose.
func chineseFiles(root string) ([]Article, error) {
	var out []Article
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".zh-CN.md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		out = append(out, Article{Name: filepath.ToSlash(rel), Text: string(data)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

// WriteCalques prints one row per calque: its count over files and the files that hold it. It
// returns the total, so the command can fail when any is left.
func WriteCalques(w io.Writer, files []Article, cs []Calque) int {
	fmt.Fprintf(w, "Calques over %d Chinese files (*.zh-CN.md). Allowed compounds are not counted.\n\n", len(files))
	fmt.Fprintln(w, "| calque | for | allowed | count | where |")
	fmt.Fprintln(w, "|---|---|---|---:|---|")
	total := 0
	for _, c := range cs {
		n := 0
		var where []string
		for _, f := range files {
			if k := CountCalque(f.Text, c); k > 0 {
				n += k
				where = append(where, fmt.Sprintf("%s (%d)", f.Name, k))
			}
		}
		total += n
		allowed := strings.Join(c.Allowed, "、")
		if allowed == "" {
			allowed = "—"
		}
		place := strings.Join(where, ", ")
		if place == "" {
			place = "—"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s |\n", c.Term, c.English, allowed, n, place)
	}
	return total
}

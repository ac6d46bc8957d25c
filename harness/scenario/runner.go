package scenario

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/informer-lab/informer-lab/informer"
)

// RunDir runs every testdata script (*.txt) of dir as a subtest named after the file.
// With update set, a script whose output differs is rewritten instead of failing.
func RunDir(t *testing.T, dir string, update bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenario scripts in %s", dir)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			RunFile(t, f, update)
		})
	}
}

// RunFile runs one script and compares its output with the expectations in the file. A
// script whose first command is "profiles classic current" runs once per profile, each in its
// own synctest bubble; a block whose outputs differ shows one section per profile.
func RunFile(t *testing.T, path string, update bool) {
	t.Helper()
	want, got := runAndRender(t, path)
	if got == want {
		return
	}
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", path)
		return
	}
	t.Errorf("%s: output differs from the script (-want +got); rerun with -update to accept:\n%s",
		path, cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")))
}

// runAndRender runs the script at path and returns its text (want) and the same script with
// the outputs of this run (got).
func runAndRender(t *testing.T, path string) (want, got string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want = string(data)
	s, err := parseScript(want)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(s.blocks) == 0 || !strings.HasPrefix(s.blocks[0].prefix0(), "#") {
		t.Fatalf("%s: a script starts with a comment line saying what it teaches", path)
	}
	profiles := []string{""}
	if first := parseCommand(s.blocks[0].cmd); first.name == "profiles" {
		profiles = first.args
		for _, p := range profiles {
			if _, ok := informer.ParseProfile(p); !ok || p == "" {
				t.Fatalf("%s: unknown profile %q", path, p)
			}
		}
	}
	outs := make([][][]string, len(profiles))
	for i, p := range profiles {
		prof, _ := informer.ParseProfile(p)
		synctest.Test(t, func(t *testing.T) {
			outs[i] = runScript(t, path, s, prof)
		})
	}
	return want, s.render(merge(profiles, outs))
}

// prefix0 is the first line before the command, or "".
func (b block) prefix0() string {
	for _, p := range b.prefix {
		if strings.TrimSpace(p) != "" {
			return p
		}
	}
	return ""
}

// runScript executes every block in a fresh world and returns each block's output: the
// command's own lines, then the trace recorded until the bubble settled. A command ending in
// the word "sorted" has each lane of its trace sorted.
func runScript(t *testing.T, path string, s *script, p informer.Profile) [][]string {
	w, err := newWorld(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.close)
	outs := make([][]string, len(s.blocks))
	for i, b := range s.blocks {
		c := parseCommand(b.cmd)
		sorted := len(c.args) > 0 && c.args[len(c.args)-1] == "sorted"
		if sorted {
			c.args = c.args[:len(c.args)-1]
		}
		own, err := w.exec(c)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", path, b.line, b.cmd, err)
		}
		synctest.Wait()
		outs[i] = append(own, w.rec.take(w.shows, sorted)...)
	}
	return outs
}

// merge folds the per-profile outputs: a block with the same output under every profile is
// printed once; otherwise each profile's output follows a "[profile]" header.
func merge(profiles []string, outs [][][]string) [][]string {
	if len(outs) == 1 {
		return outs[0]
	}
	merged := make([][]string, len(outs[0]))
	for i := range merged {
		same := true
		for _, o := range outs[1:] {
			same = same && slices.Equal(o[i], outs[0][i])
		}
		if same {
			merged[i] = outs[0][i]
			continue
		}
		for j, p := range profiles {
			merged[i] = append(merged[i], "["+p+"]")
			if len(outs[j][i]) == 0 {
				merged[i] = append(merged[i], "ok")
			}
			merged[i] = append(merged[i], outs[j][i]...)
		}
	}
	return merged
}

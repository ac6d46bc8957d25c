package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLabs_Strip replaces only the marked body, keeps the doc comment and keeps the imports
// that only the body used, with a blank guard, so that the learner's first line may use them.
func TestLabs_Strip(t *testing.T) {
	src := `package p

import (
	"fmt"
	"strings"
)

// Hello says hello.
//
//lab:04.2
func Hello(name string) string {
	return fmt.Sprintf("hello %s", strings.ToUpper(name))
}

// Keep stays.
func Keep() string { return strings.TrimSpace(" k ") }
`
	out, n, err := Strip([]byte(src), "04")
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, `package p

import (
	"fmt"
	"strings"
)

// Hello says hello.
//
//lab:04.2
func Hello(name string) string {
	// Lab 04, step 2: write this body. Hints: make lab-hint LAB=04 N=1 (then N=2, N=3).
	panic("lab 04: not implemented")
}

// Keep stays.
func Keep() string { return strings.TrimSpace(" k ") }

// The reference's bodies use these packages; the blank declarations keep their imports
// while your bodies are empty, so that the skeleton builds. They are harmless: leave them.
var (
	_ = fmt.Sprintf
)
`, string(out))

	same, n, err := Strip([]byte(src), "05")
	require.NoError(t, err)
	assert.Zero(t, n, "another lab's marker")
	assert.Equal(t, src, string(same))
}

// TestLabs_ParseVerbose reads go test -v output: finished tests, a test that panicked in its
// own goroutine, and one that was running when another goroutine's panic killed the binary.
func TestLabs_ParseVerbose(t *testing.T) {
	run := Run{Pkg: "./deltafifo/"}
	tests := []struct {
		name     string
		out      string
		finished map[string]Status
		crashed  string
		panic    string
	}{
		{
			name: "pass and fail",
			out: "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n=== RUN   TestB/sub\n" +
				"    b_test.go:9: boom\n    --- FAIL: TestB/sub (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\n",
			finished: map[string]Status{"TestA": Pass, "TestB": Fail},
		},
		{
			name: "panic in the test goroutine",
			out: "=== RUN   TestA\n--- FAIL: TestA (0.00s)\npanic: lab 04: not implemented [recovered, repanicked]\n\n" +
				"goroutine 7 [running]:\ntesting.tRunner.func1.2({0x6, 0x7})\npanic({0x6, 0x7})\n\t/go/src/runtime/panic.go:1\n" +
				"github.com/informer-lab/informer-lab/deltafifo.(*DeltaFIFO).Pop(0xc0, 0xc1)\n\t/x/delta_fifo.go:10 +0x1\n",
			finished: map[string]Status{"TestA": Fail},
			panic:    "lab 04: not implemented, in deltafifo.DeltaFIFO.Pop",
		},
		{
			name: "panic in another goroutine",
			out: "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\npanic: lab 09: not implemented\n\n" +
				"goroutine 9 [running, synctest bubble 1]:\ngithub.com/informer-lab/informer-lab/workqueue.(*Typed[...]).Add(0x1)\n\t/x/queue.go:1\n",
			finished: map[string]Status{"TestA": Pass},
			crashed:  "TestB",
			panic:    "lab 09: not implemented, in workqueue.Typed.Add",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			finished, crashed := parseVerbose(tt.out, run)
			got := map[string]Status{}
			for _, r := range finished {
				got[r.Name] = r.Status
				if r.Panic != "" {
					assert.Equal(t, tt.panic, r.Panic)
				}
			}
			assert.Equal(t, tt.finished, got)
			if tt.crashed == "" {
				assert.Nil(t, crashed)
				return
			}
			require.NotNil(t, crashed)
			assert.Equal(t, tt.crashed, crashed.Name)
			assert.Equal(t, Crash, crashed.Status)
			assert.Equal(t, tt.panic, crashed.Panic)
		})
	}
}

// TestLabs_Explain finds a test's teaching point in its doc comment and its section in the
// chapter README by name or spec ID.
func TestLabs_Explain(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "chapters", "04-deltafifo"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pkg"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "chapters", "04-deltafifo", "README.md"),
		[]byte("# Chapter 04\n\n## The idea\n\ntext\n\n### Dedup\n\nTwo deletions merge (DF-5).\n\n## Exercises\n\nSee TestCh04_Named.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pkg", "x_test.go"),
		[]byte("package pkg\n\n// TestCh04_DF5_DeleteDedup shows that two deletions merge. More text.\nfunc TestCh04_DF5_DeleteDedup() {}\n"), 0o644))
	e := NewExplainer(dir)
	assert.Equal(t, "TestCh04_DF5_DeleteDedup shows that two deletions merge.", e.Point("./pkg/", "TestCh04_DF5_DeleteDedup"))
	assert.Equal(t, "no doc comment here", e.Point("./pkg/", "TestCh04_NoDocCommentHere"))
	assert.Equal(t, "chapters/04-deltafifo/README.md § Dedup", e.Section("./pkg/", "TestCh04_DF5_DeleteDedup", ""))
	assert.Equal(t, "chapters/04-deltafifo/README.md § Exercises", e.Section("./pkg/", "TestCh04_Named", ""))
	assert.Equal(t, "chapters/04-deltafifo/README.md", e.Section("./pkg/", "TestCh04_Unknown", ""))
	assert.Equal(t, "chapters/04-deltafifo/README.md", e.Section("", "TestChaos_X", "chapters/04-deltafifo"))

	// In Chinese the point is the behaviour reference's statement of the test's rules.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs", "behaviour"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "docs", "behaviour", "client-go.zh-CN.md"), []byte(
		"| <a id=\"DF-5\"></a>**DF-5** | 只有两个相邻的 Deleted delta 会合并。 | client-go `x` | [`TestCh04_DF5_DeleteDedup`](x) |\n"+
			"| <a id=\"DF-7\"></a>**DF-7** | Replace 为列表里没有的 key 写 tombstone。 | client-go `y` | [`TestCh04_Named`](y) |\n"), 0o644))
	e = NewExplainer(dir)
	assert.Equal(t, "DF-5：只有两个相邻的 Deleted delta 会合并。", e.PointIn(ZH, "./pkg/", "TestCh04_DF5_DeleteDedup"), "by the ID in the name")
	assert.Equal(t, "DF-7：Replace 为列表里没有的 key 写 tombstone。", e.PointIn(ZH, "./pkg/", "TestCh04_Named"), "by the test listed in a rule's row")
	assert.Equal(t, "no doc comment here", e.PointIn(ZH, "./pkg/", "TestCh04_NoDocCommentHere"), "no rule: the English point")
	assert.Equal(t, "TestCh04_DF5_DeleteDedup shows that two deletions merge.", e.PointIn(EN, "./pkg/", "TestCh04_DF5_DeleteDedup"))
}

// TestLabs_Scoreboard prints functions by step, counts per run, skeleton panics grouped by
// function, other failures with their reason, and optional trace tests apart; it scores only
// the graded tests.
func TestLabs_Scoreboard(t *testing.T) {
	r := root(t)
	l, err := Find("4")
	require.NoError(t, err)
	pkg := Run{Pkg: "./deltafifo/", Kind: "package"}
	results := []Result{
		{Run: pkg, Name: "TestCh04_DF2_AddUpdateAppend", Status: Pass},
		{Run: pkg, Name: "TestCh04_DF3_PositionRule", Status: Fail, Panic: "lab 04: not implemented, in deltafifo.DeltaFIFO.Pop"},
		{Run: pkg, Name: "TestCh04_DF9_PopBlocksUntilAdd", Status: Crash, Panic: "lab 04: not implemented, in deltafifo.DeltaFIFO.Pop"},
		{Run: pkg, Name: "TestCh04_DF5_DeleteDedup", Status: Fail, Output: []string{"x_test.go:1:", "Error Trace: x", "Error: Not equal:", "expected: 1", "actual  : 2", "Test: TestCh04_DF5_DeleteDedup"}},
		{Run: pkg, Name: "TestCh04_Tracing", Status: Fail},
		{Run: pkg, Name: "(TestMain ./deltafifo/)", Status: Fail, Output: []string{"leakcheck: 1 goroutine still running"}},
	}
	var b strings.Builder
	score := Scoreboard(&b, r, l, results, Progress{Step: 1, Steps: 2, Full: true}, true, false, EN)
	out := b.String()
	assert.Equal(t, Score{Pass: 1, Fail: 4, Optional: 1}, Score{Pass: score.Pass, Fail: score.Fail, Optional: score.Optional})
	assert.Equal(t, len(Graded(r, l)), score.Total, "the denominator is the lab's graded tests, not what ran")
	assert.False(t, score.Passed())
	for _, want := range []string{
		"step 1  DeltaFIFO: dedup, queue, Replace with tombstones, Pop",
		"✓ DeltaFIFO.Pop",
		"  package   ./deltafifo/",
		"✗ deltafifo.DeltaFIFO.Pop (step 1): 2 tests, e.g. TestCh04_DF3_PositionRule, TestCh04_DF9_PopBlocksUntilAdd",
		"✗ TestCh04_DF5_DeleteDedup   [./deltafifo/]",
		"read:    chapters/04-deltafifo/README.md",
		"why:     Error: Not equal:",
		"expected: 1",
		"the package's TestMain failed",
		"leakcheck: 1 goroutine still running",
		"Not graded: 1 trace test(s) fail (TestCh04_Tracing)",
		fmt.Sprintf("Step 1 of 2 · Score: 1 of %d graded behaviours pass.", score.Total),
	} {
		assert.Contains(t, out, want)
	}

	b.Reset()
	Scoreboard(&b, r, l, results, Progress{Step: 1, Steps: 2}, true, false, ZH)
	out = b.String()
	for _, want := range []string{
		"第 1 步  DeltaFIFO：去重、入队、带 tombstone 的 Replace、Pop",
		"✗ deltafifo.DeltaFIFO.Pop（第 1 步）：2 个测试",
		"要点：",
		"阅读：",
		"原因： Error: Not equal:",
		"停在第 1 步（共 2 步）",
		fmt.Sprintf("第 1 步，共 2 步 · 得分：计分的 %d 个行为中通过 1 个。", score.Total),
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "Test: TestCh04_DF5_DeleteDedup", "testify's Test: line is noise")
}

// TestLabs_StripGuards: the guard of an import only a stripped body used is a value, a type or
// an instantiated generic function of that package, whichever the body used first that can be
// written without the body's variables.
func TestLabs_StripGuards(t *testing.T) {
	tests := []struct {
		name, body, imp, guard string
	}{
		{"a function", `_ = strings.ToUpper("x")`, `"strings"`, "_ = strings.ToUpper"},
		{"a type", `var b bytes.Buffer; _ = b`, `"bytes"`, "_ *bytes.Buffer"},
		{"a generic function", `q = slices.Grow(q, 3)`, `"slices"`, "_ = slices.Grow[[]int]"},
		{"a generic map function", `_ = maps.Clone(m)`, `"maps"`, "_ = maps.Clone[map[int]int]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\n\nimport " + tt.imp + "\n\n// F is marked.\n//\n//lab:04.1\nfunc F(q []int, m map[int]int) {\n\t" + tt.body + "\n}\n"
			out, n, err := Strip([]byte(src), "04")
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			assert.Contains(t, string(out), "import "+tt.imp)
			assert.Contains(t, string(out), "\t"+tt.guard+"\n")
		})
	}
}

package lab

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLabs_FailingStep: a full run is placed at the first step one of whose tests fails; when
// only tests outside the steps fail, at the last step.
func TestLabs_FailingStep(t *testing.T) {
	l, err := Find("09")
	require.NoError(t, err)
	pkg := Run{Pkg: "./workqueue/", Kind: "package"}
	tests := []struct {
		name    string
		results []Result
		want    int
	}{
		{"a step 2 test fails", []Result{{Run: pkg, Name: "TestCh09_WQ1_Add", Status: Pass}, {Run: pkg, Name: "TestCh09_WQ21_WaitingLoop", Status: Fail}}, 2},
		{"a step 1 test crashes", []Result{{Run: pkg, Name: "TestCh09_WQ3_Done", Status: Crash}, {Run: pkg, Name: "TestCh09_WQ30_Overflow", Status: Fail}}, 1},
		{"only a property test fails", []Result{{Run: pkg, Name: "TestCh09_INV23_Property", Status: Fail}}, 3},
		{"a trace test is never a step's", []Result{{Run: pkg, Name: "TestCh09_Tracing", Status: Fail}}, 3},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, l.failingStep(tt.results), tt.name)
	}
}

// TestLabs_Ordered: each step's First function comes first, then the step's others in file
// order, step after step.
func TestLabs_Ordered(t *testing.T) {
	l := &Lab{Steps: []Step{{N: 1, First: "b"}, {N: 2}}}
	regions := []Region{{Func: "a", Step: 1}, {Func: "c", Step: 2}, {Func: "b", Step: 1}, {Func: "d", Step: 1}}
	var got []string
	for _, r := range l.Ordered(regions) {
		got = append(got, r.Func)
	}
	assert.Equal(t, []string{"b", "a", "d", "c"}, got)
}

// TestLabs_Graded counts what go test runs: top-level tests and examples with an output
// comment that the run selects, not TestMain, examples without output or optional tests.
func TestLabs_Graded(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p", "x_test.go"), []byte(`package p

import "testing"

func TestMain(m *testing.M)     {}
func TestCh04_A(t *testing.T)   {}
func TestCh04_Tracing(t *testing.T) {}
func TestOther(t *testing.T)    {}
func Example_printed() {
	// Output: x
}
func Example_compiledOnly() {}
`), 0o644))
	l := &Lab{Runs: []Run{{Pkg: "./p/", Run: "^(TestCh04_|Example)"}}, Optional: optional}
	assert.Equal(t, []string{"./p/ TestCh04_A", "./p/ Example_printed"}, Graded(dir, l))
}

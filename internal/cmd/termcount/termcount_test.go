package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCount(t *testing.T) {
	tests := []struct {
		text, term string
		want       int
	}{
		{"先 List 再 Watch，ListAndWatch 里的 List", "List", 2},
		{"Lister 不是 List", "List", 1},
		{"relist 与 Relist", "relist", 1},
		{"重新列举，列举", "列举", 2},
		{"重新列举，列举", "重新列举", 1},
		{"handler_x handler", "handler", 1},
		{"", "List", 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Count(tt.text, tt.term), "%q in %q", tt.term, tt.text)
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "1-a.md"), []byte("Informer 限流，限流"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2-b.md"), []byte("Informer 限速"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("限流 限流 限流"), 0o644))
	terms := filepath.Join(dir, "terms.txt")
	require.NoError(t, os.WriteFile(terms, []byte("## words\nInformer\n限流\n限速\n"), 0o644))

	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-terms", terms, dir}, &out, &errs), errs.String())
	assert.Equal(t, `Counts over 2 articles (1 = 1-a, 2 = 2-b). CJK terms count substrings, so a shorter term
includes the longer ones that contain it; ASCII terms count whole words, case-sensitively.

### words

| term | 1 | 2 | total |
|---|---:|---:|---:|
| Informer | 1 | 1 | 2 |
| 限流 | 2 | 0 | 2 |
| 限速 | 0 | 1 | 1 |
`, out.String())

	assert.Equal(t, 2, run(nil, &out, &errs), "the directory is required")
	assert.Equal(t, 1, run([]string{t.TempDir()}, &out, &errs), "an empty directory has no articles")
}

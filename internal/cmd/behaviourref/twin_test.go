package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTwinProblems builds a two-statement list and its Chinese twin in a temporary tree and
// checks what TwinProblems says of each way the twin can fall behind the English.
func TestTwinProblems(t *testing.T) {
	const english = "§1 Keys\nK-1 | ours | The key is namespace/name.\nK-2 | ours | Splitting a key on \"/\".\n"
	h := func(s string) string { return EnglishHash(s) }
	sec := "§1 | " + h("Keys") + " | 键\n"
	k1 := "K-1 | " + h("The key is namespace/name.") + " | 键是 namespace/name。\n"
	k2 := "K-2 | " + h(`Splitting a key on "/".`) + " | 按 \"/\" 拆分键。\n"
	tests := []struct {
		name string
		zh   string
		want []string // per expected problem, in order, its substrings joined by NUL
	}{
		{"current", sec + k1 + k2, nil},
		{"comments and blank lines", "# 注释\n\n" + sec + k1 + k2, nil},
		{"a statement without its twin", sec + k1, []string{"K-2 has no Chinese twin in docs/zh.txt: add the line \"K-2 | " + h(`Splitting a key on "/".`)}},
		{"a section without its twin", k1 + k2, []string{"§1 has no Chinese twin"}},
		{"a stale twin", sec + strings.Replace(k1, h("The key is namespace/name."), "00000000", 1) + k2,
			[]string{"docs/zh.txt:2: the Chinese of K-1 is stale\x00(hash 00000000, now " + h("The key is namespace/name.") + ")"}},
		{"a twin whose English is gone", sec + k1 + k2 + "K-3 | 00000000 | 多余的一条。\n", []string{"docs/zh.txt:4: K-3 is not in docs/en.txt"}},
		{"out of order", sec + k2 + k1, []string{"docs/zh.txt:2: K-2 is out of order: docs/en.txt has K-1 here"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "en.txt"), []byte(english), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "zh.txt"), []byte(tt.zh), 0o644))
			l := &List{NS: Behaviour, Data: "docs/en.txt", Out: "docs/en.md", Zh: &Twin{Data: "docs/zh.txt", Out: "docs/zh.md"}}
			require.NoError(t, l.load(root))
			require.NoError(t, l.Zh.load(root))
			got := TwinProblems(l)
			require.Len(t, got, len(tt.want), "%q", got)
			for i, w := range tt.want {
				for _, part := range strings.Split(w, "\x00") {
					assert.Contains(t, got[i], part)
				}
			}
		})
	}
}

// TestTwinLoadRejects checks the malformed Chinese lines the loader refuses.
func TestTwinLoadRejects(t *testing.T) {
	tests := []struct{ name, zh, want string }{
		{"no hash", "K-1 | 键\n", "docs/zh.txt:1: want"},
		{"empty text", "K-1 | 0123abcd | \n", "docs/zh.txt:1: want"},
		{"twice", "K-1 | 0123abcd | 一\nK-1 | 0123abcd | 二\n", "docs/zh.txt:2: K-1 is already translated on line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "zh.txt"), []byte(tt.zh), 0o644))
			err := (&Twin{Data: "docs/zh.txt"}).load(root)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestRenderZhKeepsTheAnchors checks that the Chinese document defines every anchor of the
// English one, links its English twin, and marks a line whose twin is stale.
func TestRenderZhKeepsTheAnchors(t *testing.T) {
	lists, err := Load(repoRoot)
	require.NoError(t, err)
	for _, l := range lists {
		en, zh := string(Render(l, nil)), string(RenderZh(l, nil))
		assert.Equal(t, reExplicitAnchor.FindAllString(en, -1), reExplicitAnchor.FindAllString(zh, -1), l.Zh.Out)
		assert.Contains(t, zh, "[English]("+filepath.Base(l.Out)+")")
		assert.Contains(t, en, "[中文]("+filepath.Base(l.Zh.Out)+")")
	}
	l := &List{NS: Wire, Data: "docs/en.txt", Out: "docs/en.md", Sections: []Section{{Num: "1", Title: "URLs",
		Entries: []Entry{{ID: "U1", Src: Source{Ours: true}, Text: "The core group.", Anchor: "U1"}}}},
		Zh: &Twin{Data: "docs/zh.txt", Out: "docs/zh.md", Lines: map[string]TwinLine{
			"§1": {Hash: EnglishHash("URLs"), Text: "URL 布局"}, "U1": {Hash: "00000000", Text: "旧的译文"}}}}
	zh := string(RenderZh(l, nil))
	assert.Contains(t, zh, "## §1 URL 布局")
	assert.Contains(t, zh, "（译文缺失或已过期，以下为英文原文）The core group.")
	assert.NotContains(t, zh, "旧的译文")
}

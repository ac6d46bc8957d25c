package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCountCalque(t *testing.T) {
	hop := Calque{Term: "跳", Allowed: []string{"跳过", "心跳"}}
	sync := Calque{Term: "同步", Allowed: []string{"缓存同步", "同步完成"}}
	tests := []struct {
		text string
		c    Calque
		want int
	}{
		{"记录每一跳，跳过空键，发送心跳", hop, 1},
		{"跳过、心跳", hop, 0},
		{"等所有缓存同步完成，然后第一次同步", sync, 1},
		{"", hop, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, CountCalque(tt.text, tt.c), "%q", tt.text)
	}
}

func TestRunCalques(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ch", ".hidden"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ch", "README.zh-CN.md"), []byte("每一跳。跳过。陈述"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ch", ".hidden", "x.zh-CN.md"), []byte("跳跳跳"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("跳"), 0o644))

	var out, errs bytes.Buffer
	assert.Equal(t, 1, run([]string{"-calques", dir}, &out, &errs), "a calque left fails the run")
	assert.Equal(t, `Calques over 1 Chinese files (*.zh-CN.md). Allowed compounds are not counted.

| calque | for | allowed | count | where |
|---|---|---|---:|---|
| 跳 | hop (one trace line, one step of the pipeline) | 跳过、心跳 | 1 | ch/README.zh-CN.md (1) |
| 陈述 | statement (an entry of the behaviour reference) | — | 1 | ch/README.zh-CN.md (1) |
| 气泡 | bubble (testing/synctest) | — | 0 | — |
| 同步 | sync (one run of a controller's sync handler) | 初始同步、保持同步、缓存同步、已同步、未同步、完成同步、同步完成、同步方式、最后同步、同步进度、各自同步、同步好、同步期间 | 0 | — |
| 自定义资源（CRD） | custom resource called by its definition's name | — | 0 | — |
`, out.String())

	require.NoError(t, os.WriteFile(filepath.Join(dir, "ch", "README.zh-CN.md"), []byte("每一步。跳过。条目"), 0o644))
	out.Reset()
	assert.Equal(t, 0, run([]string{"-calques", dir}, &out, &errs), errs.String())
	assert.Equal(t, 1, run([]string{"-calques", t.TempDir()}, &out, &errs), "a tree without Chinese files")
}

// TestRepositoryHasNoCalques is the editor's pass kept: every Chinese document of the
// repository reports 0 for each calque GLOSSARY.md rejects.
func TestRepositoryHasNoCalques(t *testing.T) {
	files, err := chineseFiles(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out bytes.Buffer
	assert.Zero(t, WriteCalques(&out, files, calques), out.String())
}

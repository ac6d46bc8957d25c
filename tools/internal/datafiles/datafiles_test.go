package datafiles

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSHA256Sums(t *testing.T) {
	tests := []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"none", map[string][]byte{}, ""},
		{"name order", map[string][]byte{"b.json": []byte("b"), "a.json": {}},
			"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.json\n" +
				"3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.json\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(SHA256Sums(tt.files)))
		})
	}
}

func TestWrite(t *testing.T) {
	tests := []struct {
		name    string
		before  []string // files in the directory beforehand
		files   map[string][]byte
		after   []string
		wantErr bool
	}{
		{name: "into a new directory", files: map[string][]byte{"a.json": []byte("{}"), SumsFile: []byte("x")},
			after: []string{"SHA256SUMS", "a.json"}},
		{name: "stale json removed, other files kept", before: []string{"old.json", "a.json", "notes.txt"},
			files: map[string][]byte{"a.json": []byte("{}")}, after: []string{"a.json", "notes.txt"}},
		{name: "stale index removed", before: []string{"old.json", "old.index", "a.index"},
			files: map[string][]byte{"a.json": []byte("{}"), "a.index": []byte("#")}, after: []string{"a.index", "a.json"}},
		{name: "a path is refused", before: []string{"old.json"}, files: map[string][]byte{"sub/a.json": nil},
			after: []string{"old.json"}, wantErr: true},
		{name: "dot dot is refused", files: map[string][]byte{"..": nil}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			for _, n := range tt.before {
				require.NoError(t, os.MkdirAll(dir, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644))
			}
			err := Write(dir, tt.files)
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
				for n, data := range tt.files {
					got, err := os.ReadFile(filepath.Join(dir, n))
					require.NoError(t, err)
					assert.Equal(t, data, got, n)
				}
			}
			ents, _ := os.ReadDir(dir)
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			sort.Strings(names)
			assert.Equal(t, tt.after, names)
		})
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	files := map[string][]byte{"b.json": []byte("bb"), "a.json": []byte("a")}
	require.NoError(t, run(dir, func() (map[string][]byte, error) { return files, nil }, &out))
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	require.Len(t, lines, 3)
	assert.Equal(t, "        1  "+filepath.Join(dir, "a.json"), string(lines[0]))
	assert.Equal(t, "        2  "+filepath.Join(dir, "b.json"), string(lines[1]))
	assert.Regexp(t, `^generated 2 files in \d`, string(lines[2]))

	boom := errors.New("boom")
	err := run(dir, func() (map[string][]byte, error) { return nil, boom }, &out)
	assert.ErrorIs(t, err, boom)
}

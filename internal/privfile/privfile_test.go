//go:build unix

// Unix only: the cases are about mode bits, owners, FIFOs and symbolic links.
package privfile_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/privfile"
)

// nobody is a uid that is neither ours nor root's, for the ownership cases (run as root only).
const nobody = 65534

// TestWriteFile: whatever is at the target (nothing, a 0666 file, a hard link to another
// file), the result is a fresh 0600 file with the data and nothing else changes; a symbolic
// link, a directory or a FIFO at the target is refused and left as it was.
func TestWriteFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, dir, target string)
		wantErr string
	}{
		{name: "missing", prepare: func(*testing.T, string, string) {}},
		{name: "world-writable file", prepare: func(t *testing.T, _, target string) {
			require.NoError(t, os.WriteFile(target, []byte("old"), 0o666))
			require.NoError(t, os.Chmod(target, 0o666))
		}},
		{name: "hard link to another file", prepare: func(t *testing.T, dir, target string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "other"), []byte("other"), 0o644))
			require.NoError(t, os.Link(filepath.Join(dir, "other"), target))
		}},
		{name: "symbolic link", wantErr: "symbolic link", prepare: func(t *testing.T, dir, target string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "other"), []byte("other"), 0o644))
			require.NoError(t, os.Symlink(filepath.Join(dir, "other"), target))
		}},
		{name: "dangling symbolic link", wantErr: "symbolic link", prepare: func(t *testing.T, dir, target string) {
			require.NoError(t, os.Symlink(filepath.Join(dir, "other"), target))
		}},
		{name: "directory", wantErr: "not a regular file", prepare: func(t *testing.T, _, target string) {
			require.NoError(t, os.Mkdir(target, 0o700))
		}},
		{name: "fifo", wantErr: "not a regular file", prepare: func(t *testing.T, _, target string) {
			require.NoError(t, syscall.Mkfifo(target, 0o600))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "secret")
			tc.prepare(t, dir, target)
			before, _ := os.Lstat(target)

			err := privfile.WriteFile(target, []byte("new"))

			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), target)
				assert.Contains(t, err.Error(), tc.wantErr)
				after, err := os.Lstat(target)
				require.NoError(t, err)
				assert.True(t, os.SameFile(before, after), "the target is left as it was")
				if data, err := os.ReadFile(filepath.Join(dir, "other")); err == nil {
					assert.Equal(t, "other", string(data))
				}
			} else {
				require.NoError(t, err)
				data, err := os.ReadFile(target)
				require.NoError(t, err)
				assert.Equal(t, "new", string(data))
				info, err := os.Lstat(target)
				require.NoError(t, err)
				assert.True(t, info.Mode().IsRegular())
				assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
				if data, err := os.ReadFile(filepath.Join(dir, "other")); err == nil {
					assert.Equal(t, "other", string(data), "a hard link's other name keeps the old content")
				}
			}
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				assert.Contains(t, []string{"secret", "other"}, e.Name(), "no temporary file is left behind")
			}
		})
	}
}

// TestCheckDir: a directory others may write to needs the sticky bit (as /tmp has), and one
// owned by another user (not root) is refused.
func TestCheckDir(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mode     os.FileMode
		owner    int // -1: ours
		wantErr  string
		needRoot bool
	}{
		{name: "private", mode: 0o700, owner: -1},
		{name: "readable by all", mode: 0o755, owner: -1},
		{name: "writable by all with the sticky bit", mode: 0o777 | os.ModeSticky, owner: -1},
		{name: "writable by all without the sticky bit", mode: 0o777, owner: -1, wantErr: "no sticky bit"},
		{name: "another user's", mode: 0o755, owner: nobody, wantErr: "belongs to uid 65534", needRoot: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needRoot && os.Getuid() != 0 {
				t.Skip("only root can give a directory away")
			}
			dir := filepath.Join(t.TempDir(), "d")
			require.NoError(t, os.Mkdir(dir, 0o700))
			require.NoError(t, os.Chmod(dir, tc.mode))
			if tc.owner >= 0 {
				require.NoError(t, os.Chown(dir, tc.owner, tc.owner))
			}
			err := privfile.CheckDir(dir)
			if tc.wantErr == "" {
				require.NoError(t, err)
				require.NoError(t, privfile.WriteFile(filepath.Join(dir, "f"), []byte("x")))
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), dir)
			assert.Contains(t, err.Error(), tc.wantErr)
			err = privfile.WriteFile(filepath.Join(dir, "f"), []byte("x"))
			require.Error(t, err, "WriteFile checks the directory too")
			assert.NoFileExists(t, filepath.Join(dir, "f"))
		})
	}
}

// TestPrivateDir: a missing directory is created 0700 with its parents; an existing one must
// be a real directory of ours with mode 0700.
func TestPrivateDir(t *testing.T) {
	for _, tc := range []struct {
		name     string
		prepare  func(t *testing.T, base, dir string)
		wantErr  string
		needRoot bool
	}{
		{name: "missing, parent missing too", prepare: func(*testing.T, string, string) {}},
		{name: "existing 0700", prepare: func(t *testing.T, _, dir string) {
			require.NoError(t, os.MkdirAll(dir, 0o700))
		}},
		{name: "existing 0755", wantErr: "not 0700", prepare: func(t *testing.T, _, dir string) {
			require.NoError(t, os.MkdirAll(dir, 0o700))
			require.NoError(t, os.Chmod(dir, 0o755))
		}},
		{name: "symbolic link to a 0700 directory", wantErr: "symbolic link", prepare: func(t *testing.T, base, dir string) {
			require.NoError(t, os.MkdirAll(filepath.Dir(dir), 0o700))
			require.NoError(t, os.Mkdir(filepath.Join(base, "elsewhere"), 0o700))
			require.NoError(t, os.Symlink(filepath.Join(base, "elsewhere"), dir))
		}},
		{name: "a file", wantErr: "not a directory", prepare: func(t *testing.T, _, dir string) {
			require.NoError(t, os.MkdirAll(filepath.Dir(dir), 0o700))
			require.NoError(t, os.WriteFile(dir, nil, 0o600))
		}},
		{name: "another user's", wantErr: "belongs to uid 65534", needRoot: true, prepare: func(t *testing.T, _, dir string) {
			require.NoError(t, os.MkdirAll(dir, 0o700))
			require.NoError(t, os.Chown(dir, nobody, nobody))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needRoot && os.Getuid() != 0 {
				t.Skip("only root can give a directory away")
			}
			base := t.TempDir()
			dir := filepath.Join(base, "parent", "informer-lab")
			tc.prepare(t, base, dir)
			err := privfile.PrivateDir(dir)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), dir)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			info, err := os.Lstat(dir)
			require.NoError(t, err)
			assert.True(t, info.IsDir())
			assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
		})
	}
}

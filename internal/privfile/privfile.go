package privfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path as a new 0600 file (contract items 1 to 3). Mirrors no
// client-go function.
func WriteFile(path string, data []byte) (err error) {
	if err := CheckTarget(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := CheckDir(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// CreateTemp already uses 0600; say so explicitly rather than rely on it.
	if err = f.Chmod(0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// rename(2) replaces the name atomically and never follows a link at the destination.
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// CheckTarget refuses path when it exists and is not a regular file: a symbolic link would
// point the write elsewhere in a naive writer, and a directory or device is never a
// credential file. A missing path is fine. Mirrors no client-go function.
func CheckTarget(path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("checking %s: %w", path, err)
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("refusing to write %s: it is a symbolic link (remove it, or choose another path)", path)
	case !info.Mode().IsRegular():
		return fmt.Errorf("refusing to write %s: it exists and is not a regular file (%s)", path, info.Mode().Type())
	}
	return nil
}

// CheckDir refuses a directory in which another user could replace or remove what we write
// (contract item 3). It follows symbolic links: what matters is the directory written into.
// Mirrors no client-go function.
func CheckDir(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("checking directory %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("refusing to write into %s: not a directory", dir)
	}
	if !hasPermissionBits() {
		return nil
	}
	if info.Mode().Perm()&0o002 != 0 && info.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("refusing to write into %s: any user may write to it and it has no sticky bit, so another user could replace the file", dir)
	}
	if uid, ok := owner(info); ok && uid != os.Getuid() && uid != 0 {
		return fmt.Errorf("refusing to write into %s: it belongs to uid %d, who could replace the file", dir, uid)
	}
	return nil
}

// PrivateDir makes dir a directory only the caller can use (contract item 4). Mirrors no
// client-go function.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(dir), err)
	}
	if err := os.Mkdir(dir, 0o700); err == nil {
		// A fresh directory of ours: the umask may only have removed bits; put them back.
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("creating %s: %w", dir, err)
		}
	} else if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("checking %s: %w", dir, err)
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("refusing %s: it is a symbolic link, not a directory of ours (remove it, or pass a path)", dir)
	case !info.IsDir():
		return fmt.Errorf("refusing %s: it is not a directory", dir)
	}
	if !hasPermissionBits() {
		return nil
	}
	if uid, ok := owner(info); ok && uid != os.Getuid() {
		return fmt.Errorf("refusing %s: it belongs to uid %d, not to us (uid %d)", dir, uid, os.Getuid())
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		return fmt.Errorf("refusing %s: its mode is %#o, not 0700 (chmod 700 it if it is yours, or pass a path)", dir, perm)
	}
	return nil
}

// syncDir makes the rename durable. It is best effort: some systems cannot fsync a directory,
// and the file itself is already on disk.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}

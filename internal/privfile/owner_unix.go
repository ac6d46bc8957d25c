//go:build unix

package privfile

import (
	"io/fs"
	"syscall"
)

// owner returns the uid that owns the file info describes.
func owner(info fs.FileInfo) (int, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// hasPermissionBits reports whether mode bits and owners mean what Unix says they mean.
func hasPermissionBits() bool { return true }

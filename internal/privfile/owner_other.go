//go:build !unix

package privfile

import "io/fs"

// owner is unknown here: access is governed by ACLs, not by an owner and mode bits.
func owner(fs.FileInfo) (int, bool) { return 0, false }

// hasPermissionBits is false: Go reports synthetic mode bits on this system, so checking
// them would refuse every directory or none.
func hasPermissionBits() bool { return false }
